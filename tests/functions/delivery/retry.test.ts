// The retry schedule: exponential backoff to a 5-minute cap over 10 attempts (about half an hour in all), each
// delay jittered by ±20 %, and a Retry-After answered as asked (within 1 s and 15 minutes).
import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, retryDelaySeconds, retrySchedule } from '../../../functions/lib/delivery';

describe('retryDelaySeconds', () => {
  it('doubles from 15 s to a 5-minute cap, 10 attempts taking about half an hour', () => {
    expect(MAX_ATTEMPTS).toBe(10);
    expect(retrySchedule()).toEqual([15, 30, 60, 120, 240, 300, 300, 300, 300]);
    const total = retrySchedule().reduce((a, b) => a + b, 0);
    expect(total / 60).toBeGreaterThan(25);
    expect(total / 60).toBeLessThan(35);
  });

  it('spreads each delay by ±20 % at random', () => {
    expect(retryDelaySeconds(3, undefined, () => 0)).toBe(48);
    expect(retryDelaySeconds(3, undefined, () => 1)).toBe(72);
    const seen = new Set(Array.from({ length: 50 }, () => retryDelaySeconds(2)));
    expect(seen.size).toBeGreaterThan(3);
    for (const s of seen) expect(s >= 24 && s <= 36).toBe(true);
  });

  it('waits what Retry-After asks, at least 1 s and at most 15 minutes', () => {
    expect(retryDelaySeconds(1, 7)).toBe(7);
    expect(retryDelaySeconds(9, 2)).toBe(2);
    expect(retryDelaySeconds(1, 0)).toBe(1);
    expect(retryDelaySeconds(1, 86_400)).toBe(900);
  });
});
