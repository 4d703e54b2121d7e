// Scheduled detections on the local runtime, through the real paths: the demo's events (HTTP ingest → log
// processor → detections) make signals of two demo rules; the scheduler's index holds the demo correlation
// rule and the demo scheduled query; a run of the correlation rule (the run worker, invoked as SQS would,
// reading the signals through the Athena stand-in) raises one alert holding both rules' signals; a run of the
// scheduled query runs its SQL over the lake and passes its rows to the demo scheduled rule in the Python
// engine, which raises its alert; a scheduled query over a table that does not exist raises DETECTION_ERROR on
// the scheduled rule that names it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoFunctionName, seedDemo } from '../../demo/seed';
import { dueRuns, type RunMessage } from '../../functions/lib/runs';
import { api, eventually, startPipelineRuntime, type PipelineRuntime } from './helpers';

let p: PipelineRuntime;
let worker: string;

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
type Run = { detectionId: string; rows: number; matches: number; alerts: number; timedOut: boolean; error: string | null };
const runs = async (id: string) => (await api<{ detectionRuns: Run[] }>(p, RUNS, { id })).detectionRuns;

/** One run, delivered to the run worker as the runs queue would deliver it. */
async function run(detectionId: string, minutes: number): Promise<void> {
  const runAt = Math.ceil(Date.now() / 60_000) * 60_000 + 60_000;
  const message: RunMessage = { detectionId, runAt, window: { start: runAt - minutes * 60_000, end: runAt }, timeoutMinutes: 2 };
  const out = await p.runtime.invoke(worker, { Records: [{ messageId: `m-${detectionId}`, body: JSON.stringify(message) }] });
  expect(out).toMatchObject({ ok: true, result: { batchItemFailures: [] } });
}

beforeAll(async () => {
  p = await startPipelineRuntime();
  worker = [...p.runtime.functions.values()].find((f) => f.spec.logicalId.startsWith('RunsWorkerFunction'))!.spec.name;
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

  it('raises the correlation alert from the two demo rules, with both rules signals as its events', async () => {
    await run('Demo.Okta.BruteForceThenSignOn', 5);
    const [record] = await runs('Demo.Okta.BruteForceThenSignOn');
    expect(record).toMatchObject({ error: null, timedOut: false, alerts: 1 });
    expect(record.rows).toBeGreaterThanOrEqual(6);
    const alert = (await alerts()).find((a) => a.detectionId === 'Demo.Okta.BruteForceThenSignOn');
    expect(alert).toMatchObject({ title: 'Demo: Okta brute force followed by an application sign-on' });
    // Five or more failures and the sign-on after them.
    expect(alert!.eventCount).toBeGreaterThanOrEqual(6);
    expect(Date.parse(alert!.lastEventAt)).toBeGreaterThan(Date.parse(alert!.firstEventAt));
  });

  it('runs the demo scheduled query over the lake and raises the demo scheduled rule alert', async () => {
    await run('Demo.Okta.FailedLoginsByUser', 15);
    const [record] = await runs('Demo.Okta.FailedLoginsByUser');
    expect(record).toMatchObject({ error: null, timedOut: false, alerts: 1, matches: 1 });
    expect(record.rows).toBeGreaterThanOrEqual(1);
    // The scheduled rule's page lists its query's runs.
    expect((await runs('Demo.Okta.ManyFailedLoginsHourly'))[0]).toEqual(record);
    const alert = (await alerts()).find((a) => a.detectionId === 'Demo.Okta.ManyFailedLoginsHourly');
    expect(alert?.title).toMatch(/^[a-z]+@acme\.example failed to sign in to Okta 7 times in an hour$/);
  });

  it('raises DETECTION_ERROR on the scheduled rule when its query fails', async () => {
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
    await run('Broken Query', 60);
    const [record] = await runs('Broken Query');
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
