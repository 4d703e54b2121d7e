import { describe, expect, it } from 'vitest';
import { nextRunTime, parseCron, runWindow } from '../../../functions/lib/runs';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('next run time', () => {
  it.each([
    [{ RateMinutes: 15 }, '2026-03-01T10:07:12Z', '2026-03-01T10:15:00.000Z'],
    [{ RateMinutes: 15 }, '2026-03-01T10:15:00Z', '2026-03-01T10:30:00.000Z'],
    [{ RateMinutes: 1440 }, '2026-03-01T10:00:00Z', '2026-03-02T00:00:00.000Z'],
    [{ CronExpression: '0 0 * * *' }, '2026-03-01T10:00:00Z', '2026-03-02T00:00:00.000Z'],
    [{ CronExpression: '*/20 9-17 * * MON-FRI' }, '2026-02-27T17:45:00Z', '2026-03-02T09:00:00.000Z'],
    [{ CronExpression: '30 6 1 * *' }, '2026-03-01T06:30:00Z', '2026-04-01T06:30:00.000Z'],
    [{ CronExpression: '0 12 29 FEB *' }, '2026-03-01T00:00:00Z', '2028-02-29T12:00:00.000Z'],
    [{ CronExpression: '0 0 13 * 5' }, '2026-03-01T00:00:00Z', '2026-03-06T00:00:00.000Z'],
    [{ CronExpression: '15,45 * * * 7' }, '2026-03-01T10:50:00Z', '2026-03-01T11:15:00.000Z'],
  ])('%j after %s is %s', (schedule, after, next) => {
    expect(iso(nextRunTime(schedule, at(after)))).toBe(next);
  });

  it.each([
    [{ RateMinutes: 1 }, 'RateMinutes must be an integer of at least 2'],
    [{}, 'needs RateMinutes or CronExpression'],
    [{ CronExpression: '0 0 * *' }, 'needs 5 fields'],
    [{ CronExpression: '60 0 * * *' }, "minute '60' must be from 0 to 59"],
    [{ CronExpression: '0 5-2 * * *' }, "range '5-2' runs backwards"],
    [{ CronExpression: '*/0 * * * *' }, 'step'],
    [{ CronExpression: '0 0 31 FEB *' }, 'never fires'],
  ])('refuses %j', (schedule, message) => {
    expect(() => nextRunTime(schedule, at('2026-03-01T00:00:00Z'))).toThrow(message);
  });

  it('reads Sunday as 0 or 7', () => {
    expect(parseCron('0 0 * * 7').weekDays).toEqual(new Set([0]));
  });
});

describe('run window', () => {
  it('covers the rate before the run', () => {
    const w = runWindow({ RateMinutes: 60 }, at('2026-03-01T10:00:00Z'));
    expect([iso(w.start), iso(w.end)]).toEqual(['2026-03-01T09:00:00.000Z', '2026-03-01T10:00:00.000Z']);
  });
  it('covers back to the previous cron firing', () => {
    const w = runWindow({ CronExpression: '0 9 * * MON' }, at('2026-03-09T09:00:00Z'));
    expect(iso(w.start)).toBe('2026-03-02T09:00:00.000Z');
  });
});

describe('run window of a yearly cron', () => {
  it('finds the firing a year back', () => {
    const w = runWindow({ CronExpression: '0 0 1 JAN *' }, at('2027-01-01T00:00:00Z'));
    expect(iso(w.start)).toBe('2026-01-01T00:00:00.000Z');
  });
});
