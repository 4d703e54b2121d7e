// Scheduled detections on the local runtime, run by the real schedule: the runtime starts with
// scheduleTimeScale 30, so the template's one-minute EventBridge rule fires the scheduler function every 2 s
// through the same rule, target, scheduler pass, runs queue, queue poller and run worker as `npm start`.
// The demo's events (HTTP ingest → log processor → detections) make signals of two demo rules. The demo
// correlation rule runs every 5 minutes and the demo scheduled query every 15: rather than wait for their next
// slot, a test moves the detection's next run in the scheduler's index to now (what the clock reaching it does)
// and waits for the scheduler to queue that run and the worker to record it. The correlation run (reading the
// signals through the Athena stand-in) raises one alert whose events are both rules' signals; the scheduled
// query runs its SQL over the lake and passes its rows to the demo scheduled rule in the Python engine, which
// raises its alert; a scheduled query over a table that does not exist raises DETECTION_ERROR on the scheduled
// rule that names it. The file takes about as long as the demo's first alerts (runtime start and seeding);
// each scheduled run then lands within a few seconds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoFunctionName, seedDemo } from '../../demo/seed';
import { dueRuns, putScheduledRun } from '../../functions/lib/detections';
import { api, eventually, startPipelineRuntime, type PipelineRuntime } from './helpers';

let p: PipelineRuntime;

const ALERTS = `query($input: AlertsInput!) { alerts(input: $input) {
  edges { node { id type detectionId title eventCount firstEventAt lastEventAt } } } }`;
interface AlertNode {
  id: string;
  type: string;
  detectionId: string;
  title: string;
  eventCount: number;
  firstEventAt: string;
  lastEventAt: string;
}
const alerts = async (type = 'ALERT') =>
  (await api<{ alerts: { edges: { node: AlertNode }[] } }>(p, ALERTS, { input: { type, pageSize: 100 } })).alerts.edges.map(
    (e) => e.node,
  );
const RUNS = `query($id: ID!) { detectionRuns(id: $id) { detectionId runAt windowStart rows matches alerts timedOut error } }`;
type Run = {
  detectionId: string;
  runAt: string;
  rows: number;
  matches: number;
  alerts: number;
  timedOut: boolean;
  error: string | null;
};
const runs = async (id: string) => (await api<{ detectionRuns: Run[] }>(p, RUNS, { id })).detectionRuns;
const EVENTS = `query($input: AlertEventsInput!) { alertEvents(input: $input) { edges { node } } }`;

/**
 * Makes the detection's next scheduled run due now in the scheduler's index, then waits for the scheduler (on
 * its own timer) to queue it and the run worker to record it; returns that run.
 */
async function nextScheduledRun(detectionId: string): Promise<Run> {
  const [scheduled] = (await dueRuns(Date.now() + 400 * 86_400_000, 1000)).filter((r) => r.detectionId === detectionId);
  expect(scheduled, `${detectionId} in the scheduler index`).toBeDefined();
  const runAt = Date.now() - 1000;
  await putScheduledRun({ ...scheduled, nextRunAt: runAt });
  const started = Date.now();
  const list = await eventually(
    () => runs(detectionId),
    (l) => l.some((r) => Date.parse(r.runAt) === runAt),
    90_000,
  );
  const run = list.find((r) => Date.parse(r.runAt) === runAt);
  expect(run, `a run of ${detectionId} at ${new Date(runAt).toISOString()}`).toBeDefined();
  // The scheduler moved the detection's next run past now.
  const [after] = (await dueRuns(Date.now() + 400 * 86_400_000, 1000)).filter((r) => r.detectionId === detectionId);
  expect(after.nextRunAt).toBeGreaterThan(runAt);
  console.log(`${detectionId}: scheduled run recorded ${Date.now() - started} ms after it fell due`);
  return run!;
}

beforeAll(async () => {
  p = await startPipelineRuntime({ scheduleTimeScale: 30 });
  await seedDemo(p.runtime.invoke, demoFunctionName(p.runtime.functions.values())!, `${p.runtime.url}/local/webhook`);
  // The brute force alert means its signals (and the sign-on signals of the same round) are in the lake.
  await eventually(alerts, (list) => list.some((a) => a.detectionId === 'Demo.Okta.BruteForceLogins'), 90_000);
}, 240_000);

afterAll(async () => {
  await p?.stop();
});

describe('scheduled detections on the local runtime', () => {
  it('keeps the demo correlation rule and scheduled query in the scheduler index', async () => {
    const due = (await dueRuns(Date.now() + 16 * 60_000)).map((d) => d.detectionId);
    expect(due).toEqual(expect.arrayContaining(['Demo.Okta.BruteForceThenSignOn', 'Demo.Okta.FailedLoginsByUser']));
  });

  it('raises the correlation alert from the two demo rules in its next scheduled run, with both rules signals as its events', async () => {
    const record = await nextScheduledRun('Demo.Okta.BruteForceThenSignOn');
    expect(record).toMatchObject({ error: null, timedOut: false });
    expect(record.rows).toBeGreaterThanOrEqual(6);
    expect(record.matches).toBeGreaterThanOrEqual(1);
    // Raised by this run, or (when a 5-minute slot passed while the demo was seeding) by the one before it:
    // a match is raised once.
    const all = await runs('Demo.Okta.BruteForceThenSignOn');
    expect(all.reduce((n, r) => n + r.alerts, 0)).toBeGreaterThanOrEqual(1);
    const alert = (await alerts()).find((a) => a.detectionId === 'Demo.Okta.BruteForceThenSignOn');
    expect(alert).toMatchObject({ title: 'Demo: Okta brute force followed by an application sign-on' });
    // Five or more failures and the sign-on after them.
    expect(alert!.eventCount).toBeGreaterThanOrEqual(6);
    expect(Date.parse(alert!.lastEventAt)).toBeGreaterThan(Date.parse(alert!.firstEventAt));
    const { alertEvents } = await api<{ alertEvents: { edges: { node: string }[] } }>(p, EVENTS, {
      input: { alertId: alert!.id, pageSize: 50 },
    });
    const events = alertEvents.edges.map((e) => JSON.parse(e.node) as { p_rule_id: string; p_event_time: string });
    expect(events).toHaveLength(alert!.eventCount);
    const times = (rule: string) => events.filter((e) => e.p_rule_id === rule).map((e) => Date.parse(e.p_event_time));
    const failures = times('Demo.Okta.BruteForceLogins');
    const signOns = times('Demo.Okta.AppSignOn');
    expect(failures.length).toBeGreaterThanOrEqual(5);
    expect(signOns.length).toBeGreaterThanOrEqual(1);
    expect(failures.length + signOns.length).toBe(events.length);
    expect(Math.max(...failures)).toBeLessThanOrEqual(Math.min(...signOns));
  });

  it('runs the demo scheduled query over the lake in its next scheduled run and raises the demo scheduled rule alert', async () => {
    const record = await nextScheduledRun('Demo.Okta.FailedLoginsByUser');
    expect(record).toMatchObject({ error: null, timedOut: false, alerts: 1, matches: 1 });
    expect(record.rows).toBeGreaterThanOrEqual(1);
    // The scheduled rule's page lists its query's runs.
    expect((await runs('Demo.Okta.ManyFailedLoginsHourly')).find((r) => r.runAt === record.runAt)).toEqual(record);
    const alert = (await alerts()).find((a) => a.detectionId === 'Demo.Okta.ManyFailedLoginsHourly');
    expect(alert?.title).toMatch(/^[a-z]+@acme\.example failed to sign in to Okta 7 times in an hour$/);
  });

  it('raises DETECTION_ERROR on the scheduled rule when its query fails in its scheduled run', async () => {
    const save = `mutation($input: SaveDetectionInput!) { createDetection(input: $input) { id } }`;
    await api(p, save, {
      input: {
        yaml: `AnalysisType: scheduled_query\nQueryName: Broken Query\nEnabled: true\nQuery: SELECT * FROM panther_logs.public.no_such_table WHERE p_occurs_since('1 hour') LIMIT 10\nSchedule:\n  RateMinutes: 60\n  TimeoutMinutes: 1\n`,
      },
    });
    await api(p, save, {
      input: {
        yaml: `AnalysisType: scheduled_rule\nRuleID: Broken.Rule\nFilename: r.py\nEnabled: true\nSeverity: Low\nScheduledQueries: [Broken Query]\n`,
        body: 'def rule(event):\n    return True\n',
      },
    });
    const record = await nextScheduledRun('Broken Query');
    expect(record.error).toMatch(/^Scheduled query Broken Query failed: /);
    const errors = await alerts('DETECTION_ERROR');
    expect(errors.find((a) => a.detectionId === 'Broken.Rule')?.title).toMatch(
      /^Error in Broken.Rule: Scheduled query Broken Query failed/,
    );
  });

  it('refreshes a query-defined lookup table through the same query path, keeping the last good data when it fails', async () => {
    const TABLE = `mutation($input: LookupTableInput!) { createLookupTable(input: $input) { id status } }`;
    const REFRESH = `mutation($id: ID!) { refreshLookupTable(id: $id) { status rowCount version lastError columns { name } } }`;
    const UPDATE = `mutation($id: ID!, $input: LookupTableInput!) { updateLookupTable(id: $id, input: $input) { id } }`;
    const input = (query: string) => ({
      name: 'failed_login_users',
      primaryKey: 'user_email',
      keyType: 'STRING',
      enabled: true,
      source: { kind: 'QUERY', refreshMinutes: 60, query },
      associations: [],
    });
    const good = `SELECT actor.alternateId AS user_email, count(*) AS failures FROM panther_logs.public.okta_systemlog
      WHERE p_occurs_since('1 hour') AND outcome.result = 'FAILURE' GROUP BY actor.alternateId`;
    const { createLookupTable } = await api<{ createLookupTable: { id: string; status: string } }>(p, TABLE, {
      input: input(good),
    });
    // Saving reads the source once (the API runs the query); a refresh reads it again as a new version.
    expect(['READY', 'WAITING_FOR_SEARCH']).toContain(createLookupTable.status);
    type Refreshed = {
      refreshLookupTable: {
        status: string;
        rowCount: number;
        version: number;
        lastError: string | null;
        columns: { name: string }[];
      };
    };
    const first = (await api<Refreshed>(p, REFRESH, { id: createLookupTable.id })).refreshLookupTable;
    expect(first).toMatchObject({ status: 'READY', lastError: null });
    expect(first.version).toBeGreaterThanOrEqual(1);
    expect(first.rowCount).toBeGreaterThanOrEqual(1);
    expect(first.columns.map((c) => c.name).sort()).toEqual(['failures', 'user_email']);

    await api(p, UPDATE, { id: createLookupTable.id, input: input('SELECT * FROM panther_logs.public.no_such_table') });
    const failed = (await api<Refreshed>(p, REFRESH, { id: createLookupTable.id })).refreshLookupTable;
    expect(failed).toMatchObject({ status: 'REFRESH_FAILED', version: first.version, rowCount: first.rowCount });
    expect(failed.lastError).toMatch(/no_such_table/);
    const system = await alerts('SYSTEM_ERROR');
    expect(system.map((a) => a.title)).toContain('Lookup table failed_login_users could not be refreshed');
  });
});
