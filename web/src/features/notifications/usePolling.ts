import { useEffect, useRef } from 'react';
import { useIdle } from './useIdle';

export interface PollingOptions {
  readonly intervalMs: number;
  /** Polling stops after this long without user activity and resumes, at once, on the next activity. */
  readonly idleMs: number;
}

/**
 * Calls `poll` at once, then every `intervalMs` while the user is active. A failed poll is ignored: the next
 * one tries again. Answers whether polling is paused for idleness.
 */
export function usePolling(poll: () => Promise<unknown>, { intervalMs, idleMs }: PollingOptions): boolean {
  const idle = useIdle(idleMs);
  const latest = useRef(poll);

  useEffect(() => {
    latest.current = poll;
  }, [poll]);

  useEffect(() => {
    if (idle) return;
    const run = () => {
      latest.current().catch(() => undefined);
    };
    run();
    const timer = setInterval(run, intervalMs);
    return () => clearInterval(timer);
  }, [idle, intervalMs]);

  return idle;
}
