import { useEffect, useState } from 'react';

/** What counts as user activity. */
export const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'touchstart', 'wheel', 'scroll'] as const;

/**
 * True once the user has done nothing for `timeoutMs` (no pointer, key, touch or scroll on the page), false
 * again at the next activity. One timer: activity only records its time; the timer, when it fires, either
 * declares idleness or waits out the rest.
 */
export function useIdle(timeoutMs: number): boolean {
  const [idle, setIdle] = useState(false);

  useEffect(() => {
    let last = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = (delay: number) => {
      timer = setTimeout(() => {
        timer = undefined;
        const quiet = Date.now() - last;
        if (quiet >= timeoutMs) setIdle(true);
        else schedule(timeoutMs - quiet);
      }, delay);
    };
    const onActivity = () => {
      last = Date.now();
      if (timer === undefined) {
        setIdle(false);
        schedule(timeoutMs);
      }
    };
    schedule(timeoutMs);
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onActivity, { passive: true, capture: true });
    return () => {
      if (timer !== undefined) clearTimeout(timer);
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity, { capture: true });
    };
  }, [timeoutMs]);

  return idle;
}
