// Pure pieces of the runtime's event routing: schedules, S3 event matching, partial batch failures.
import { describe, expect, it } from 'vitest';
import { eventMatches } from '../../local/events/s3-notifications';
import { cronMatcher, rateInterval } from '../../local/events/schedules';
import { succeededMessages } from '../../local/events/sqs-pollers';

describe('schedules', () => {
  it('reads rate expressions', () => {
    expect(rateInterval('rate(1 minute)')).toBe(60_000);
    expect(rateInterval('rate(5 minutes)')).toBe(300_000);
    expect(rateInterval('rate(2 hours)')).toBe(7_200_000);
    expect(rateInterval('rate(1 day)')).toBe(86_400_000);
    expect(rateInterval('cron(0 * * * ? *)')).toBeNull();
  });

  it('matches cron expressions in UTC, with ranges, lists, steps and names', () => {
    const everyQuarter = cronMatcher('cron(0/15 * * * ? *)');
    expect(everyQuarter(new Date('2026-11-21T10:30:00Z'))).toBe(true);
    expect(everyQuarter(new Date('2026-11-21T10:31:00Z'))).toBe(false);
    const weekdayMornings = cronMatcher('cron(0 8 ? * MON-FRI *)');
    expect(weekdayMornings(new Date('2026-11-20T08:00:00Z'))).toBe(true); // a Friday
    expect(weekdayMornings(new Date('2026-11-21T08:00:00Z'))).toBe(false); // a Saturday
    const daily = cronMatcher('cron(0 0 * * ? *)');
    expect(daily(new Date('2026-11-21T00:00:00Z'))).toBe(true);
    const months = cronMatcher('cron(30 2 1 JAN,JUL ? 2026-2027)');
    expect(months(new Date('2026-07-01T02:30:00Z'))).toBe(true);
    expect(months(new Date('2028-07-01T02:30:00Z'))).toBe(false);
  });

  it('refuses malformed cron expressions with a reason', () => {
    expect(() => cronMatcher('cron(0 0 * *)')).toThrow(/6 fields/);
    expect(() => cronMatcher('cron(61 0 * * ? *)')).toThrow(/out of range/);
    expect(() => cronMatcher('cron(0 0 L * ? *)')).toThrow(/not supported/);
  });
});

describe('S3 notification event names', () => {
  it('matches wildcards and exact names', () => {
    expect(eventMatches('s3:ObjectCreated:*', 'ObjectCreated:Put')).toBe(true);
    expect(eventMatches('s3:ObjectCreated:*', 'ObjectRemoved:Delete')).toBe(false);
    expect(eventMatches('s3:ObjectCreated:Copy', 'ObjectCreated:Put')).toBe(false);
  });
});

describe('partial batch failures', () => {
  const batch = [{ MessageId: 'a' }, { MessageId: 'b' }, { MessageId: 'c' }];
  it('deletes all on success, none on error, and all but the reported failures', () => {
    expect(succeededMessages(batch, { ok: true, result: null }, true)).toEqual(batch);
    expect(succeededMessages(batch, { ok: false, error: { errorType: 'E', errorMessage: 'x' } }, true)).toEqual([]);
    expect(succeededMessages(batch, { ok: true, result: { batchItemFailures: [{ itemIdentifier: 'b' }] } }, true)).toEqual([{ MessageId: 'a' }, { MessageId: 'c' }]);
    expect(succeededMessages(batch, { ok: true, result: { batchItemFailures: [{ itemIdentifier: 'b' }] } }, false)).toEqual(batch);
  });

  it('treats an unknown or empty identifier as a failure of the whole batch, as Lambda does', () => {
    expect(succeededMessages(batch, { ok: true, result: { batchItemFailures: [{ itemIdentifier: '' }] } }, true)).toEqual([]);
    expect(succeededMessages(batch, { ok: true, result: { batchItemFailures: [{ itemIdentifier: 'zzz' }] } }, true)).toEqual([]);
  });
});
