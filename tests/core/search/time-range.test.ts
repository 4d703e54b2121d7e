// Time ranges (the twelve presets and custom ranges) and the partition filters they put on every query.
import { describe, expect, it } from 'vitest';
import { eventTimeFilter, partitionFilter, resolveTimeRange, TIME_RANGE_PRESETS } from '../../../core/search/time-range';
import { builderSql, BuilderError } from '../../../core/search/builder';

const NOW = new Date('2026-03-10T12:34:56.000Z');

describe('resolveTimeRange', () => {
  it("has the specification's presets", () => {
    expect(TIME_RANGE_PRESETS).toEqual([
      'PT20M',
      'PT1H',
      'PT3H',
      'PT6H',
      'PT12H',
      'PT24H',
      'P3D',
      'P1W',
      'P1M',
      'P3M',
      'P6M',
      'PAllTime',
    ]);
  });

  it.each([
    ['PT20M', '2026-03-10T12:14:56.000Z'],
    ['PT24H', '2026-03-09T12:34:56.000Z'],
    ['P3D', '2026-03-07T12:34:56.000Z'],
    ['P1W', '2026-03-03T12:34:56.000Z'],
    ['P1M', '2026-02-10T12:34:56.000Z'],
    ['P6M', '2025-09-10T12:34:56.000Z'],
  ])('%s starts at %s', (preset, from) => {
    expect(resolveTimeRange({ preset }, NOW)).toEqual({ from, to: NOW.toISOString() });
  });

  it('all time has no start', () => expect(resolveTimeRange({ preset: 'PAllTime' }, NOW)).toEqual({ to: NOW.toISOString() }));

  it('takes a custom range and refuses bad ones', () => {
    expect(resolveTimeRange({ from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' }, NOW)).toEqual({
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-01-02T00:00:00.000Z',
    });
    expect(() => resolveTimeRange({ preset: 'P2W' }, NOW)).toThrow('timeRange.preset must be one of PT20M');
    expect(() => resolveTimeRange({}, NOW)).toThrow('timeRange needs a preset or a from time');
    expect(() => resolveTimeRange({ from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' }, NOW)).toThrow('before');
    expect(() => resolveTimeRange({ preset: 'P1W', from: '2026-01-01T00:00:00Z' }, NOW)).toThrow('not both');
  });
});

describe('partitionFilter', () => {
  it('names each day of a short range', () => {
    expect(partitionFilter({ from: '2026-02-28T22:00:00.000Z', to: '2026-03-01T01:00:00.000Z' })).toBe(
      '((year = 2026 AND month = 2 AND day = 28) OR (year = 2026 AND month = 3 AND day = 1))',
    );
    expect(partitionFilter({ from: '2026-03-10T12:00:00.000Z', to: '2026-03-10T12:20:00.000Z' }, (c) => `t.${c}`)).toBe(
      '(t.year = 2026 AND t.month = 3 AND t.day = 10)',
    );
  });

  it('names the months of a long range, and nothing for all time', () => {
    expect(partitionFilter({ from: '2025-09-10T00:00:00.000Z', to: '2026-03-10T00:00:00.000Z' })).toBe(
      '(year * 100 + month BETWEEN 202509 AND 202603 AND year BETWEEN 2025 AND 2026)',
    );
    expect(partitionFilter({ to: NOW.toISOString() })).toBe('TRUE');
  });

  it('bounds the event time', () => {
    expect(eventTimeFilter({ from: '2026-03-10T12:00:00.000Z', to: '2026-03-10T12:20:00.000Z' })).toBe(
      "p_event_time BETWEEN TIMESTAMP '2026-03-10 12:00:00.000' AND TIMESTAMP '2026-03-10 12:20:00.000'",
    );
  });
});

describe('builderSql', () => {
  const range = { from: '2026-03-10T12:00:00.000Z', to: '2026-03-10T12:20:00.000Z' };
  it('searches log types with the range, conditions, fields and limit', () => {
    const sql = builderSql(
      {
        logTypes: ['AWS.CloudTrail'],
        conditions: {
          kind: 'group',
          conjunction: 'or',
          items: [
            { kind: 'condition', target: 'eventName', operator: 'in', value: ['A', "B'C"] },
            { kind: 'condition', target: 'userIdentity.userName', operator: 'contains', value: '50%_off' },
          ],
        },
        fields: ['eventName'],
        limit: 10,
      },
      range,
    );
    expect(sql).toBe(
      `SELECT * FROM (SELECT "p_event_time" AS "p_event_time", "eventName" AS "eventName" FROM "panther_logs"."aws_cloudtrail" WHERE (year = 2026 AND month = 3 AND day = 10) AND p_event_time BETWEEN TIMESTAMP '2026-03-10 12:00:00.000' AND TIMESTAMP '2026-03-10 12:20:00.000' AND ("eventName" IN ('A', 'B''C') OR CAST("userIdentity"."userName" AS varchar) LIKE '%50\\%\\_off%' ESCAPE '\\')) ORDER BY "p_event_time" DESC LIMIT 10`,
    );
  });

  it('refuses what it cannot express', () => {
    expect(() => builderSql({ logTypes: [] }, range)).toThrow(BuilderError);
    expect(() => builderSql({ logTypes: ['A'], fields: ['a"; DROP'] }, range)).toThrow('is not a field name');
    expect(() => builderSql({ logTypes: ['A'], limit: 0 }, range)).toThrow('limit must be');
  });
});
