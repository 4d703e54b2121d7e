// A query-defined lookup table's rows come through the scheduled queries' path (functions/lib/runs
// runQueryRows): occurrence-time placeholders filled relative to the refresh time, the whole lake read when
// there are none, a deadline and a row cap given to the search door, empty columns dropped from each record.
import { describe, expect, it } from 'vitest';
import { MAX_QUERY_ROWS, QUERY_WAIT_MS, queryRecords } from '../../../functions/lib/lookups/query-source';
import type { QueryRunner } from '../../../functions/lib/runs';

const NOW = new Date('2026-05-01T08:00:00.000Z');

function recording(rows: Record<string, unknown>[]) {
  const calls: Parameters<QueryRunner>[] = [];
  const runner: QueryRunner = async (...args) => {
    calls.push(args);
    return rows;
  };
  return { calls, runner };
}

describe('the rows of a query lookup table', () => {
  it('reads the whole lake for a query without placeholders, within the deadline and row cap', async () => {
    const { calls, runner } = recording([{ ip: '203.0.113.9', note: null, hits: 3 }]);
    const started = Date.now();
    expect(
      await queryRecords('SELECT ip, note, count(*) AS hits FROM panther_logs.public.t GROUP BY ip, note', NOW, runner),
    ).toEqual([{ ip: '203.0.113.9', hits: 3 }]);
    const [language, text, range, now, options] = calls[0];
    expect([language, text, range, now]).toEqual([
      'SQL',
      'SELECT ip, note, count(*) AS hits FROM panther_logs.public.t GROUP BY ip, note',
      { from: undefined, to: NOW.toISOString() },
      NOW,
    ]);
    expect(options.maxRows).toBe(MAX_QUERY_ROWS);
    expect(options.deadline! - started).toBeGreaterThanOrEqual(QUERY_WAIT_MS - 1000);
    expect(options.deadline! - started).toBeLessThanOrEqual(QUERY_WAIT_MS + 5000);
  });

  it('fills the placeholders relative to the refresh time and reads only their span', async () => {
    const { calls, runner } = recording([]);
    await queryRecords("SELECT DISTINCT ip FROM panther_logs.public.t WHERE p_occurs_since('1 day')", NOW, runner);
    expect(calls[0][1]).toBe(
      "SELECT DISTINCT ip FROM panther_logs.public.t WHERE (p_event_time BETWEEN TIMESTAMP '2026-04-30 08:00:00.000' AND TIMESTAMP '2026-05-01 08:00:00.000')",
    );
    expect(calls[0][2]).toEqual({ from: '2026-04-30T08:00:00.000Z', to: '2026-05-01T08:00:00.000Z' });
  });

  it('fails with the reason when a placeholder cannot be filled', async () => {
    const { runner } = recording([]);
    await expect(queryRecords("SELECT ip FROM t WHERE p_occurs_since('later')", NOW, runner)).rejects.toThrow(/needs a duration/);
  });
});
