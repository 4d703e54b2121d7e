// Saved and scheduled queries: which query an item holds, the save checks (limit clause where required,
// time placeholders flagged, rate or cron, timeout bounds, read-only SQL) and the placeholders a run fills.
import { describe, expect, it } from 'vitest';
import {
  aggregates,
  fillTimePlaceholders,
  limitOf,
  LIMIT_REQUIRED,
  limitTooLarge,
  loadRepository,
  NO_TIME_PLACEHOLDER,
  queryNameProblem,
  queryOf,
  queryProblems,
  queryWarnings,
  requiresLimitClause,
  saveProblems,
  TIMEOUT_RANGE,
  usesTimePlaceholder,
} from '../../../core/detections';

const RUN_AT = Date.parse('2024-05-01T12:00:00.000Z');
const scheduled = (
  query: Record<string, unknown>,
  schedule: Record<string, unknown> = { RateMinutes: 60, TimeoutMinutes: 5 },
) => ({
  AnalysisType: 'scheduled_query',
  QueryName: 'Q',
  Enabled: true,
  Schedule: schedule,
  ...query,
});

describe('the query an item holds', () => {
  it('reads Query, AthenaQuery and SnowflakeQuery as SQL and PantherFlowQuery as PantherFlow', () => {
    expect(queryOf({ Query: 'SELECT 1' })).toEqual({ key: 'Query', language: 'SQL', text: 'SELECT 1' });
    expect(queryOf({ AthenaQuery: 'SELECT 2' })?.language).toBe('SQL');
    expect(queryOf({ PantherFlowQuery: 'panther_logs.public.okta_systemlog | limit 5' })?.language).toBe('PANTHERFLOW');
    expect(queryOf({})).toBeUndefined();
  });
});

describe('the limit clause', () => {
  it('finds the outermost LIMIT of SQL, not one inside a subquery, a string or a comment', () => {
    expect(limitOf('SQL', 'SELECT * FROM t LIMIT 100')).toBe(100);
    expect(limitOf('SQL', 'SELECT * FROM (SELECT * FROM t LIMIT 5) x')).toBeUndefined();
    expect(limitOf('SQL', "SELECT 'LIMIT 5' FROM t -- LIMIT 10")).toBeUndefined();
    expect(limitOf('PANTHERFLOW', 'panther_logs.public.t | where a == 1 | limit 20')).toBe(20);
    expect(limitOf('PANTHERFLOW', 'panther_logs.public.t // | limit 20')).toBeUndefined();
  });

  it('is required of a scheduled query that returns events, not of one that aggregates', () => {
    expect(aggregates('SQL', 'SELECT actor, count(*) FROM t GROUP BY actor')).toBe(true);
    expect(aggregates('SQL', 'SELECT DISTINCT actor FROM t')).toBe(true);
    expect(aggregates('SQL', 'SELECT * FROM (SELECT a FROM t GROUP BY a) x')).toBe(false);
    expect(aggregates('PANTHERFLOW', 't | summarize count() by actor')).toBe(true);
    expect(requiresLimitClause({ Query: 'SELECT * FROM t' })).toBe(true);

    const events = scheduled({ Query: "SELECT * FROM panther_logs.public.t WHERE p_occurs_since('1 hour')" });
    expect(queryProblems('scheduled_query', events)).toEqual([{ path: 'Query', message: LIMIT_REQUIRED }]);
    const grouped = scheduled({
      Query: "SELECT actor, count(*) AS n FROM panther_logs.public.t WHERE p_occurs_since('1 day') GROUP BY actor",
    });
    expect(queryProblems('scheduled_query', grouped)).toEqual([]);
    const big = scheduled({ Query: "SELECT * FROM panther_logs.public.t WHERE p_occurs_since('1 hour') LIMIT 50000" });
    expect(queryProblems('scheduled_query', big)).toEqual([{ path: 'Query', message: limitTooLarge(50000) }]);
    // A saved query never runs on a schedule: no limit needed.
    expect(queryProblems('saved_query', { Query: 'SELECT * FROM panther_logs.public.t' })).toEqual([]);
  });
});

describe('the schedule and the SQL', () => {
  it('checks the cron expression, the timeout bounds and that the SQL only reads the lake', () => {
    const q = { Query: "SELECT a, count(*) FROM panther_logs.public.t WHERE p_occurs_since('1 hour') GROUP BY a" };
    expect(queryProblems('scheduled_query', scheduled(q, { CronExpression: '0 0 * * *', TimeoutMinutes: 2 }))).toEqual([]);
    expect(queryProblems('scheduled_query', scheduled(q, { CronExpression: '61 * * * *', TimeoutMinutes: 2 }))).toEqual([
      { path: 'Schedule.CronExpression', message: "CronExpression minute '61' must be from 0 to 59" },
    ]);
    expect(queryProblems('scheduled_query', scheduled(q, { CronExpression: '0 0 30 2 *', TimeoutMinutes: 2 }))).toEqual([
      { path: 'Schedule.CronExpression', message: 'The cron expression never fires' },
    ]);
    expect(queryProblems('scheduled_query', scheduled(q, { RateMinutes: 15, TimeoutMinutes: 11 }))).toEqual([
      { path: 'Schedule.TimeoutMinutes', message: TIMEOUT_RANGE },
    ]);
    expect(queryProblems('saved_query', { Query: 'DELETE FROM panther_logs.public.t' })[0]).toMatchObject({ path: 'Query' });
  });

  it('refuses what the YAML shape refuses: both rate and cron, a rate under 2, a timeout under 1', () => {
    const load = (schedule: string) =>
      loadRepository(
        [
          {
            path: 'q.yml',
            text: `AnalysisType: scheduled_query\nQueryName: Q\nEnabled: true\nQuery: SELECT 1\nSchedule:\n${schedule}`,
          },
        ],
        () => false,
      ).issues.map((i) => i.message);
    expect(load('  RateMinutes: 15\n  CronExpression: "0 0 * * *"\n  TimeoutMinutes: 2\n').join()).toMatch(
      /only one of them is allowed/,
    );
    expect(load('  RateMinutes: 1\n  TimeoutMinutes: 2\n').join()).toMatch(/at least 2/);
    expect(load('  RateMinutes: 15\n  TimeoutMinutes: 0\n').join()).toMatch(/at least 1/);
    expect(load('  RateMinutes: 15\n').join()).toMatch(/TimeoutMinutes/);
  });

  it("accepts the reference tool's own template: RateMinutes 0 beside a CronExpression means no rate", () => {
    const text =
      'AnalysisType: scheduled_query\nQueryName: ScheduledQuery_Example\nEnabled: true\nQuery: SELECT 1\n' +
      'Schedule:\n  CronExpression: "0 0 29 2 *"\n  RateMinutes: 0\n  TimeoutMinutes: 2\n';
    const repository = loadRepository([{ path: 'q.yml', text }], () => false);
    expect(repository.issues).toEqual([]);
    expect(repository.items[0].spec.Schedule).toEqual({ CronExpression: '0 0 29 2 *', TimeoutMinutes: 2 });
    // Without a cron, 0 is a rate, and refused as one.
    const alone = text.replace('  CronExpression: "0 0 29 2 *"\n', '');
    expect(
      loadRepository([{ path: 'q.yml', text: alone }], () => false)
        .issues.map((i) => i.message)
        .join(),
    ).toMatch(/at least 2/);
  });

  it('names queries by QueryName, spaces allowed, line breaks and edge spaces not', () => {
    expect(queryNameProblem('Okta Investigate MFA and Password resets')).toBeUndefined();
    expect(queryNameProblem(' Q')).toBeDefined();
    expect(queryNameProblem('a\nb')).toBeDefined();
    expect(
      saveProblems('scheduled_query', scheduled({ Query: 'SELECT DISTINCT a FROM panther_logs.public.t' }), new Set()),
    ).toEqual([]);
  });
});

describe('time placeholders', () => {
  it('flags a query with neither an occurrence-time placeholder nor p_event_time', () => {
    expect(queryWarnings({ Query: 'SELECT DISTINCT a FROM panther_logs.public.t' })).toEqual([NO_TIME_PLACEHOLDER]);
    expect(queryWarnings({ Query: "SELECT a FROM t WHERE p_occurs_since('1 hour') LIMIT 1" })).toEqual([]);
    expect(usesTimePlaceholder('SQL', "SELECT a FROM t WHERE p_event_time > now() - interval '1' hour")).toBe(true);
    expect(usesTimePlaceholder('SQL', "SELECT 'p_occurs_since(1)' FROM t")).toBe(false);
    expect(usesTimePlaceholder('PANTHERFLOW', 't | where p_event_time > time.ago(1h)')).toBe(true);
  });

  it('fills them relative to the run time, with an optional table alias, and reports the span they read', () => {
    const since = fillTimePlaceholders(
      "SELECT * FROM t e WHERE p_occurs_since('15 minutes', e) AND x = 'p_occurs_since(1)'",
      RUN_AT,
    );
    expect(since.sql).toBe(
      "SELECT * FROM t e WHERE (\"e\".p_event_time BETWEEN TIMESTAMP '2024-05-01 11:45:00.000' AND TIMESTAMP '2024-05-01 12:00:00.000') AND x = 'p_occurs_since(1)'",
    );
    expect([since.from, since.to]).toEqual([RUN_AT - 15 * 60_000, RUN_AT]);
    // The public content writes the span bare, and seconds as a number.
    expect(fillTimePlaceholders('SELECT 1 FROM t WHERE p_occurs_since(1 hour)', RUN_AT).from).toBe(RUN_AT - 3_600_000);
    expect(fillTimePlaceholders('SELECT 1 FROM t WHERE p_occurs_since(600)', RUN_AT).from).toBe(RUN_AT - 600_000);
    const between = fillTimePlaceholders(
      "SELECT 1 FROM t WHERE p_occurs_between('2024-04-01T00:00:00Z', '2024-04-02T00:00:00Z')",
      RUN_AT,
    );
    expect(between.sql).toContain(
      "p_event_time BETWEEN TIMESTAMP '2024-04-01 00:00:00.000' AND TIMESTAMP '2024-04-02 00:00:00.000'",
    );
    expect(between.from).toBe(Date.parse('2024-04-01T00:00:00Z'));
    const around = fillTimePlaceholders("SELECT 1 FROM t WHERE p_occurs_around('2024-04-01T00:00:00Z', '1 hour')", RUN_AT);
    expect(around.sql).toContain("BETWEEN TIMESTAMP '2024-03-31 23:00:00.000' AND TIMESTAMP '2024-04-01 01:00:00.000'");
    expect(fillTimePlaceholders('SELECT 1 FROM t', RUN_AT)).toEqual({ sql: 'SELECT 1 FROM t' });
  });

  it('refuses placeholders it cannot fill, with the reason (at save time too)', () => {
    expect(() => fillTimePlaceholders("SELECT 1 FROM t WHERE p_occurs_since('soon')", RUN_AT)).toThrow(/needs a duration/);
    expect(() => fillTimePlaceholders('SELECT 1 FROM t WHERE p_occurs_between(1)', RUN_AT)).toThrow(/takes 2 arguments/);
    expect(() => fillTimePlaceholders("SELECT 1 FROM t WHERE p_occurs_after('yesterday')", RUN_AT)).toThrow(/needs a timestamp/);
    expect(
      queryProblems('saved_query', { Query: "SELECT 1 FROM panther_logs.public.t WHERE p_occurs_since('soon')" })[0],
    ).toMatchObject({
      path: 'Query',
      message: expect.stringContaining('needs a duration'),
    });
  });
});
