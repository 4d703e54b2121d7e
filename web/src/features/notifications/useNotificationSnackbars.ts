import { useCallback, useEffect, useRef } from 'react';
import { RECENT_NOTIFICATION_MS, SEEN_MAX, SEEN_STORAGE_KEY, SNACKBAR_STAGGER_MS } from './constants';

export interface AnnouncedNotification {
  readonly id: string;
  readonly createdAt: string;
  readonly readAt: string | null;
}

/** The ids already shown this browser session (session storage; unreadable storage counts as empty). */
export function readSeenIds(storage: Storage = sessionStorage): string[] {
  try {
    const value: unknown = JSON.parse(storage.getItem(SEEN_STORAGE_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

function rememberSeenIds(ids: readonly string[], storage: Storage): void {
  try {
    storage.setItem(SEEN_STORAGE_KEY, JSON.stringify(ids.slice(-SEEN_MAX)));
  } catch {
    // A full or blocked storage only means a snackbar may show again.
  }
}

/** The notifications to announce: unread, created in the last minute, not shown before; oldest first. */
export function pickRecent<T extends AnnouncedNotification>(items: readonly T[], now: number, seen: ReadonlySet<string>): T[] {
  return items
    .filter((n) => !n.readAt && !seen.has(n.id) && now - Date.parse(n.createdAt) <= RECENT_NOTIFICATION_MS)
    .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
}

/**
 * Answers `announce(items)`: each notification created in the last minute shows once as a snackbar (through
 * `show`), one every 500 ms; the ids shown are kept in session storage so a reload does not repeat them.
 */
export function useNotificationSnackbars<T extends AnnouncedNotification>(
  show: (notification: T) => void,
  storage: Storage = sessionStorage,
): (items: readonly T[]) => void {
  const timers = useRef<Set<ReturnType<typeof setTimeout>>>(new Set());
  const latestShow = useRef(show);

  useEffect(() => {
    latestShow.current = show;
  }, [show]);

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  return useCallback(
    (items: readonly T[]) => {
      const seen = readSeenIds(storage);
      const fresh = pickRecent(items, Date.now(), new Set(seen));
      if (fresh.length === 0) return;
      rememberSeenIds([...seen, ...fresh.map((n) => n.id)], storage);
      fresh.forEach((notification, index) => {
        if (index === 0) return latestShow.current(notification);
        const timer = setTimeout(() => {
          timers.current.delete(timer);
          latestShow.current(notification);
        }, index * SNACKBAR_STAGGER_MS);
        timers.current.add(timer);
      });
    },
    [storage],
  );
}
