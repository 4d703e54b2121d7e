// A scheduled query's run on dynalite with the SQS stand-in (alerts published): the query goes to the search
// path (a stand-in runner here, given the SQL with its placeholders filled and the range to read) and its rows
// go, as events, to every enabled scheduled rule that names the query (an engine stand-in deciding by the
// rows); matches raise alerts with the rule's dedup and threshold, a failed or timed-out query raises
// DETECTION_ERROR on each rule, and every run is recorded (also under the scheduled rule).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAlerts } from '../../../functions/lib/alerts';
import type { Engine, EngineResult } from '../../../functions/lib/detections';
import { saveDetection } from '../../../functions/lib/detections/repository';
import { scheduledRulesFor } from '../../../functions/lib/detections/content';
import { detectionRuns, executeRun, type QueryRunDeps, type QueryRunner, type RunMessage } from '../../../functions/lib/runs';
import { LakeQueryTimeout } from '../../../functions/lib/lake';
import type { DynamoService } from '../../../local/services/dynamodb';
import { startAlertChanges, type AlertChanges } from '../alerts/alert-changes';
import { startEntityTable } from '../alerts/entity-table';

let service: DynamoService;
let changes: AlertChanges;
beforeAll(async () => {
  service = await startEntityTable('query-run-entities');
  changes = await startAlertChanges();
});
afterAll(async () => {
  await changes.stop();
  await service.stop();
});

const QUERY_NAME = 'Admin Grants';
const query = (sql: string, extra: Record<string, unknown> = {}) => ({
  id: QUERY_NAME,
  type: 'scheduled_query' as const,
  yaml: `QueryName: ${QUERY_NAME}\n`,
  body: null,
  spec: {
    AnalysisType: 'scheduled_query',
    QueryName: QUERY_NAME,
    Enabled: true,
    Query: sql,
    Schedule: { RateMinutes: 60, TimeoutMinutes: 3 },
    ...extra,
  },
});
const rule = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: 'scheduled_rule' as const,
  yaml: `RuleID: ${id}\n`,
  body: 'def rule(event):\n    return event.get("grants", 0) > 3\n',
  spec: {
    AnalysisType: 'scheduled_rule',
    RuleID: id,
    DisplayName: `Many grants (${id})`,
    Enabled: true,
    Severity: 'High',
    Filename: 'r.py',
    ScheduledQueries: [QUERY_NAME],
    ...extra,
  },
});

const SQL =
  "SELECT actor, count(*) AS grants FROM panther_logs.public.okta_systemlog WHERE p_occurs_since('2 hours') GROUP BY actor";
const ROWS = [
  { actor: 'hank', grants: 5 },
  { actor: 'ivy', grants: 2 },
  { actor: 'jo', grants: 9 },
];

/**
 * The engine as the Python one answers: one result list per event, a match where the rule says so; a
 * detection runs on the events of its log types (these rows have none) unless it is named.
 */
const engine: Pick<Engine, 'run'> = {
  run: async (content, events, _lookups, detectionIds) => ({
    load: { loaded: content.detections.length, errors: [] },
    results: events.map((event) =>
      content.detections
        .filter((d) => detectionIds?.includes(d.id))
        .flatMap((d): EngineResult[] =>
          Number(event.grants) > 3
            ? [
                {
                  id: d.id,
                  matched: true,
                  title: `${String(event.actor)} granted ${String(event.grants)}`,
                  dedup: String(event.actor),
                },
              ]
            : [],
        ),
    ),
  }),
};

const calls: { language: string; text: string; from?: string; to: string; deadline?: number; maxRows?: number }[] = [];
const runner: QueryRunner = async (language, text, range, _now, options) => {
  calls.push({ language, text, from: range.from, to: range.to, ...options });
  return ROWS;
};
const deps =
  (r: QueryRunner = runner): (() => QueryRunDeps) =>
  () => ({ runner: r, engine, rulesFor: scheduledRulesFor });

// Runs are timed around the present hour: the dedup store treats windows older than their period as closed.
const HOUR = 3_600_000;
const RUN_AT = Math.floor(Date.now() / HOUR) * HOUR;
const iso = (t: number) => new Date(t).toISOString();
const at = (t: number, seconds = 5) => new Date(t + seconds * 1000);
const lake = (t: number) => iso(t).slice(0, 23).replace('T', ' ');
const message = (runAt = RUN_AT): RunMessage => ({
  detectionId: QUERY_NAME,
  runAt,
  window: { start: runAt - 60 * 60_000, end: runAt },
  timeoutMinutes: 3,
});

describe('a scheduled query run', () => {
  it("runs the query with its placeholders filled and passes each row to the query's enabled scheduled rules", async () => {
    await saveDetection(query(SQL), 'tester', 0);
    await saveDetection(rule('Sched.Grants'), 'tester', 0);
    await saveDetection(rule('Sched.Off', { Enabled: false }), 'tester', 0);
    await saveDetection(rule('Sched.Other', { ScheduledQueries: ['Another Query'] }), 'tester', 0);

    const started = Date.now();
    const run = await executeRun(message(), at(RUN_AT), undefined, deps());
    expect(run).toMatchObject({ detectionId: QUERY_NAME, rows: 3, matches: 2, alerts: 2, timedOut: false, error: null });
    expect(calls).toHaveLength(1);
    expect(calls[0].language).toBe('SQL');
    expect(calls[0].text).toContain(
      `WHERE (p_event_time BETWEEN TIMESTAMP '${lake(RUN_AT - 2 * HOUR)}' AND TIMESTAMP '${lake(RUN_AT)}') GROUP BY actor`,
    );
    // The placeholder asks for 2 hours: the lake is read over them, not just the 1-hour schedule window.
    expect([calls[0].from, calls[0].to]).toEqual([iso(RUN_AT - 2 * HOUR), iso(RUN_AT)]);
    expect(calls[0].maxRows).toBe(10_000);
    expect(calls[0].deadline! - started).toBeGreaterThanOrEqual(3 * 60_000 - 1000);
    expect(calls[0].deadline! - started).toBeLessThanOrEqual(3 * 60_000 + 5000);

    const alerts = (await listAlerts({ type: 'ALERT' }, 10)).items;
    expect(alerts.map((a) => [a.detectionId, a.title, a.severity]).sort()).toEqual([
      ['Sched.Grants', 'hank granted 5', 'HIGH'],
      ['Sched.Grants', 'jo granted 9', 'HIGH'],
    ]);
  });

  it("joins the same alerts on a run within the rule's dedup period", async () => {
    // Within the rule's dedup period (60 minutes by default) the same actors join their alerts.
    const next = await executeRun(message(RUN_AT + HOUR / 2), at(RUN_AT + HOUR / 2), undefined, deps());
    expect(next).toMatchObject({ rows: 3, matches: 2, alerts: 0, error: null });
    expect((await listAlerts({ type: 'ALERT' }, 10)).items).toHaveLength(2);
  });

  it('reads a query without placeholders over its schedule window, or its Lookback window; PantherFlow over the window', async () => {
    await saveDetection(
      query('SELECT DISTINCT actor FROM panther_logs.public.okta_systemlog', { Lookback: true, LookbackWindowSeconds: 7200 }),
      'tester',
      'any',
    );
    calls.length = 0;
    await executeRun(message(), at(RUN_AT, 6), undefined, deps());
    expect(calls[0]).toMatchObject({
      text: 'SELECT DISTINCT actor FROM panther_logs.public.okta_systemlog',
      from: iso(RUN_AT - 2 * HOUR),
    });
    await saveDetection(query('SELECT DISTINCT actor FROM panther_logs.public.okta_systemlog'), 'tester', 'any');
    calls.length = 0;
    await executeRun(message(), at(RUN_AT, 7), undefined, deps());
    expect(calls[0].from).toBe(iso(RUN_AT - HOUR));
    // PantherFlow: compiled by the search door over the window, with the run time as its clock.
    const flow = 'panther_logs.public.okta_systemlog | summarize grants = count() by actor';
    const { Query: _sql, ...rest } = query('').spec;
    await saveDetection({ ...query(''), spec: { ...rest, PantherFlowQuery: flow } }, 'tester', 'any');
    calls.length = 0;
    await executeRun(message(), at(RUN_AT, 8), undefined, deps());
    expect(calls[0]).toMatchObject({ language: 'PANTHERFLOW', text: flow, from: iso(RUN_AT - HOUR), to: iso(RUN_AT) });
    await saveDetection(query(SQL), 'tester', 'any');
  });

  it('records a timed-out run and raises DETECTION_ERROR on each rule; a failed query likewise', async () => {
    const slow: QueryRunner = async () => {
      throw new LakeQueryTimeout('The query ran past its timeout and was cancelled');
    };
    const timedOut = await executeRun(message(RUN_AT + 2 * HOUR), at(RUN_AT + 2 * HOUR), undefined, deps(slow));
    expect(timedOut).toMatchObject({
      timedOut: true,
      rows: 0,
      error: 'Scheduled query Admin Grants ran past its TimeoutMinutes (3) and was cancelled',
    });
    const broken: QueryRunner = async () => {
      throw new Error("lake query FAILED: Table 'okta_systemlog' does not exist");
    };
    const failed = await executeRun(message(RUN_AT + 3 * HOUR), at(RUN_AT + 3 * HOUR), undefined, deps(broken));
    expect(failed).toMatchObject({
      timedOut: false,
      error: expect.stringContaining('Scheduled query Admin Grants failed: lake query FAILED'),
    });
    const errors = (await listAlerts({ type: 'DETECTION_ERROR' }, 10)).items;
    expect(errors.map((a) => [a.detectionId, a.title]).sort()).toEqual([
      ['Sched.Grants', expect.stringContaining('Error in Many grants (Sched.Grants): Scheduled query Admin Grants failed')],
      [
        'Sched.Grants',
        'Error in Many grants (Sched.Grants): Scheduled query Admin Grants ran past its TimeoutMinutes (3) and was cancelled',
      ],
    ]);
  });

  it('lists the runs under the query and under its scheduled rules, newest first', async () => {
    const runs = await detectionRuns(QUERY_NAME);
    expect(runs.map((r) => [r.runAt, r.timedOut])).toEqual([
      [iso(RUN_AT + 3 * HOUR), false],
      [iso(RUN_AT + 2 * HOUR), true],
      [iso(RUN_AT + HOUR / 2), false],
      [iso(RUN_AT), false],
      [iso(RUN_AT), false],
      [iso(RUN_AT), false],
      [iso(RUN_AT), false],
    ]);
    expect((await detectionRuns('Sched.Grants')).map((r) => r.startedAt)).toEqual(runs.map((r) => r.startedAt));
    expect(await detectionRuns('Sched.Other')).toEqual([]);
  });
});
