// Pure pieces of the runtime's event routing: schedules, S3 event matching, partial batch failures.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventMatches } from '../../local/events/s3-notifications';
import { cronMatcher, rateInterval, startSchedules, type Schedule } from '../../local/events/schedules';
import type { StackTemplate } from '../../local/template';
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

describe('firing schedules', () => {
  afterEach(() => vi.useRealTimers());
  const stack = { stackName: 'S', account: '000000000000', region: 'us-east-1', resources: {}, assemblyDir: '' } as StackTemplate;

  it('fires rate and cron rules at their targets with a Scheduled Event, and stops', () => {
    vi.useFakeTimers({ now: new Date('2026-11-21T10:00:30Z') });
    const fired: Array<{ arn: string; event: { 'detail-type': string; time: string; resources: string[] } }> = [];
    const schedules: Schedule[] = [
      {
        ruleName: 'every-minute',
        expression: 'rate(1 minute)',
        targets: [{ arn: 'arn:aws:lambda:us-east-1:000000000000:function:a', input: undefined }],
      },
      {
        ruleName: 'at-ten-past',
        expression: 'cron(10 10 * * ? *)',
        targets: [{ arn: 'arn:aws:lambda:us-east-1:000000000000:function:b', input: { fixed: true } }],
      },
    ];
    const stop = startSchedules(
      schedules,
      stack,
      (arn, event) => fired.push({ arn, event: event as never }),
      () => undefined,
    );
    vi.advanceTimersByTime(60_000);
    expect(fired.map((f) => f.arn)).toEqual(['arn:aws:lambda:us-east-1:000000000000:function:a']);
    expect(fired[0].event).toMatchObject({
      'detail-type': 'Scheduled Event',
      resources: ['arn:aws:events:us-east-1:000000000000:rule/every-minute'],
    });
    vi.advanceTimersByTime(10 * 60_000);
    expect(fired.filter((f) => f.arn.endsWith(':b')).map((f) => f.event)).toEqual([{ fixed: true }]);
    stop();
    const count = fired.length;
    vi.advanceTimersByTime(5 * 60_000);
    expect(fired.length).toBe(count);
  });

  it('fires rate rules as many times as often under a test time scale, and refuses a scale below 1', () => {
    vi.useFakeTimers({ now: new Date('2026-11-21T10:00:30Z') });
    let fired = 0;
    const every = (expression: string): Schedule => ({ ruleName: expression, expression, targets: [{ arn: 'a', input: {} }] });
    const stop = startSchedules(
      [every('rate(1 minute)'), every('rate(5 minutes)')],
      stack,
      () => fired++,
      () => undefined,
      30,
    );
    vi.advanceTimersByTime(10_000);
    // every 2 s and every 10 s
    expect(fired).toBe(5 + 1);
    stop();
    expect(() =>
      startSchedules(
        [],
        stack,
        () => undefined,
        () => undefined,
        0.5,
      ),
    ).toThrow(/at least 1/);
  });

  it('reports a schedule it cannot run instead of failing the others', () => {
    const errors: string[] = [];
    const stop = startSchedules(
      [{ ruleName: 'bad', expression: 'cron(0 0 L * ? *)', targets: [] }],
      stack,
      () => undefined,
      (m) => errors.push(m),
    );
    stop();
    expect(errors).toEqual(['schedule bad: cron L, W and # are not supported locally: cron(0 0 L * ? *)']);
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
    expect(succeededMessages(batch, { ok: true, result: { batchItemFailures: [{ itemIdentifier: 'b' }] } }, true)).toEqual([
      { MessageId: 'a' },
      { MessageId: 'c' },
    ]);
    expect(succeededMessages(batch, { ok: true, result: { batchItemFailures: [{ itemIdentifier: 'b' }] } }, false)).toEqual(
      batch,
    );
  });

  it('treats an unknown or empty identifier as a failure of the whole batch, as Lambda does', () => {
    expect(succeededMessages(batch, { ok: true, result: { batchItemFailures: [{ itemIdentifier: '' }] } }, true)).toEqual([]);
    expect(succeededMessages(batch, { ok: true, result: { batchItemFailures: [{ itemIdentifier: 'zzz' }] } }, true)).toEqual([]);
  });
});
