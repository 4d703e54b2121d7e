// @vitest-environment jsdom
// The notification centre's timing, with fake timers: idleness, polling that pauses and resumes, snackbars
// shown once and staggered, and the badge and snackbar text limits.
import { act, cleanup, fireEvent, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  IDLE_TIMEOUT_MS,
  NOTIFICATION_POLL_MS,
  SEEN_STORAGE_KEY,
  SNACKBAR_STAGGER_MS,
} from '../../web/src/features/notifications/constants';
import { cutText, unreadBadgeLabel } from '../../web/src/features/notifications/format';
import { useIdle } from '../../web/src/features/notifications/useIdle';
import { pickRecent, readSeenIds, useNotificationSnackbars } from '../../web/src/features/notifications/useNotificationSnackbars';
import { usePolling } from '../../web/src/features/notifications/usePolling';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-11-21T12:00:00Z'));
  sessionStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('the specification constants', () => {
  it('poll every 60 s, idle after 5 minutes, stagger snackbars by 500 ms', () => {
    expect(NOTIFICATION_POLL_MS).toBe(60_000);
    expect(IDLE_TIMEOUT_MS).toBe(300_000);
    expect(SNACKBAR_STAGGER_MS).toBe(500);
  });
});

describe('useIdle', () => {
  it('turns idle after the timeout without activity, and active again on activity', async () => {
    const { result } = renderHook(() => useIdle(IDLE_TIMEOUT_MS));
    expect(result.current).toBe(false);
    await advance(IDLE_TIMEOUT_MS - 1);
    expect(result.current).toBe(false);
    await advance(1);
    expect(result.current).toBe(true);
    act(() => void fireEvent.mouseMove(window));
    expect(result.current).toBe(false);
  });

  it('counts the timeout from the last activity', async () => {
    const { result } = renderHook(() => useIdle(IDLE_TIMEOUT_MS));
    await advance(200_000);
    act(() => void fireEvent.keyDown(window, { key: 'a' }));
    await advance(200_000);
    expect(result.current).toBe(false);
    act(() => void fireEvent.scroll(window));
    await advance(IDLE_TIMEOUT_MS - 1);
    expect(result.current).toBe(false);
    await advance(1);
    expect(result.current).toBe(true);
  });
});

describe('usePolling', () => {
  const options = { intervalMs: NOTIFICATION_POLL_MS, idleMs: IDLE_TIMEOUT_MS };

  it('polls at once and then every minute', async () => {
    const poll = vi.fn(async () => undefined);
    renderHook(() => usePolling(poll, options));
    expect(poll).toHaveBeenCalledTimes(1);
    await advance(NOTIFICATION_POLL_MS - 1);
    expect(poll).toHaveBeenCalledTimes(1);
    await advance(1);
    expect(poll).toHaveBeenCalledTimes(2);
    await advance(NOTIFICATION_POLL_MS * 2);
    expect(poll).toHaveBeenCalledTimes(4);
  });

  it('stops after 5 minutes of idleness and resumes at once on activity', async () => {
    const poll = vi.fn(async () => undefined);
    const { result } = renderHook(() => usePolling(poll, options));
    await advance(IDLE_TIMEOUT_MS);
    expect(result.current).toBe(true);
    const whenIdle = poll.mock.calls.length;
    expect(whenIdle).toBe(1 + IDLE_TIMEOUT_MS / NOTIFICATION_POLL_MS);
    await advance(NOTIFICATION_POLL_MS * 30);
    expect(poll).toHaveBeenCalledTimes(whenIdle);

    act(() => void fireEvent.mouseDown(window));
    expect(result.current).toBe(false);
    expect(poll).toHaveBeenCalledTimes(whenIdle + 1);
    await advance(NOTIFICATION_POLL_MS);
    expect(poll).toHaveBeenCalledTimes(whenIdle + 2);
  });

  it('ignores a failed poll and tries again at the next interval', async () => {
    const poll = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(undefined);
    renderHook(() => usePolling(poll, options));
    await advance(NOTIFICATION_POLL_MS);
    expect(poll).toHaveBeenCalledTimes(2);
  });

  it('stops polling when unmounted', async () => {
    const poll = vi.fn(async () => undefined);
    const { unmount } = renderHook(() => usePolling(poll, options));
    unmount();
    await advance(NOTIFICATION_POLL_MS * 3);
    expect(poll).toHaveBeenCalledTimes(1);
  });
});

describe('snackbars of recent notifications', () => {
  const at = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString();
  const items = () => [
    { id: 'newest', createdAt: at(5), readAt: null },
    { id: 'older', createdAt: at(30), readAt: null },
    { id: 'stale', createdAt: at(61), readAt: null },
    { id: 'read', createdAt: at(10), readAt: at(1) },
  ];

  it('picks unread notifications of the last 60 s not seen before, oldest first', () => {
    expect(pickRecent(items(), Date.now(), new Set()).map((n) => n.id)).toEqual(['older', 'newest']);
    expect(pickRecent(items(), Date.now(), new Set(['older'])).map((n) => n.id)).toEqual(['newest']);
  });

  it('shows each once, 500 ms apart, and remembers them for the session', async () => {
    const show = vi.fn();
    const { result, unmount } = renderHook(() => useNotificationSnackbars(show));
    act(() => result.current(items()));
    expect(show.mock.calls.map(([n]) => n.id)).toEqual(['older']);
    await advance(SNACKBAR_STAGGER_MS - 1);
    expect(show).toHaveBeenCalledTimes(1);
    await advance(1);
    expect(show.mock.calls.map(([n]) => n.id)).toEqual(['older', 'newest']);
    expect(JSON.parse(sessionStorage.getItem(SEEN_STORAGE_KEY)!)).toEqual(['older', 'newest']);

    act(() => result.current(items()));
    await advance(SNACKBAR_STAGGER_MS * 4);
    expect(show).toHaveBeenCalledTimes(2);
    unmount();

    const again = vi.fn();
    const next = renderHook(() => useNotificationSnackbars(again));
    act(() => next.result.current(items()));
    await advance(SNACKBAR_STAGGER_MS * 4);
    expect(again).not.toHaveBeenCalled();
  });

  it('drops pending snackbars when unmounted', async () => {
    const show = vi.fn();
    const { result, unmount } = renderHook(() => useNotificationSnackbars(show));
    act(() => result.current(items()));
    unmount();
    await advance(SNACKBAR_STAGGER_MS * 4);
    expect(show).toHaveBeenCalledTimes(1);
  });

  it('treats unreadable session storage as empty', () => {
    sessionStorage.setItem(SEEN_STORAGE_KEY, '{not json');
    expect(readSeenIds()).toEqual([]);
    sessionStorage.setItem(SEEN_STORAGE_KEY, JSON.stringify(['a', 3, null]));
    expect(readSeenIds()).toEqual(['a']);
  });
});

describe('limits', () => {
  it('caps the unread badge at 99+', () => {
    expect(unreadBadgeLabel(0)).toBe('0');
    expect(unreadBadgeLabel(99)).toBe('99');
    expect(unreadBadgeLabel(100)).toBe('99+');
    expect(unreadBadgeLabel(12_345)).toBe('99+');
  });

  it('cuts snackbar text at 400 characters', () => {
    expect(cutText('x'.repeat(400))).toBe('x'.repeat(400));
    expect(cutText('x'.repeat(401))).toBe(`${'x'.repeat(400)}…`);
    expect(cutText('🐆'.repeat(401))).toBe(`${'🐆'.repeat(400)}…`);
  });
});
