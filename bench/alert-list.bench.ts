// The alert list at 10,000 alerts, through GraphQL on the local runtime (HTTP, the guard, the api function,
// dynalite): the first page, filtered pages (each served by its alert index, functions/lib/alerts/indexes.ts; a
// rare title, the unassigned), and the other sorts (last updated: alertUpdated; severity: the severity partitions
// once per severity). bench/alerts-volume.bench.ts measures every filter at 50,000 alerts. Figures: median and p95 of sequential calls, and each p95 as a ratio to the p95 of reading one
// alert by id (`alert(id)`: one GetItem through the same stack) measured in the same run, so the figures
// compare across machines. Every list read is a Query (tests/functions/alerts/triage.integration.test.ts
// proves no Scan is sent).
import { resolve } from 'node:path';
import type { Alert, AlertSeverity, AlertStatus } from '../core/alerts/model';
import { putAlert } from '../functions/lib/alerts/repository';
import { ensureSynthesized, ensureWebBuilt } from '../local/build';
import { graphql, signIn, startTestRuntime } from '../tests/local/harness';
import { TEST_ASSEMBLY } from '../tests/setup/global';

const ROOT = resolve(import.meta.dirname, '..');
const COUNT = 10_000;
const SAMPLES = 25;
const PASSWORD = 'Bench-Alerts-2026!';
const SEVERITIES: AlertSeverity[] = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'];
const STATUSES: AlertStatus[] = ['OPEN', 'OPEN', 'TRIAGED', 'RESOLVED', 'CLOSED'];
const TYPES = ['ALERT', 'ALERT', 'ALERT', 'DETECTION_ERROR', 'SYSTEM_ERROR'] as const;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
};

function alertOf(i: number): Alert {
  const created = new Date(Date.UTC(2026, 9, 1) + i * 60_000).toISOString();
  const updated = new Date(Date.UTC(2026, 9, 1) + ((i * 7919) % COUNT) * 60_000).toISOString();
  const type = TYPES[i % TYPES.length];
  return {
    id: `bench${String(i).padStart(27, '0')}`,
    type,
    title: i % 100 === 0 ? `Rare exfiltration pattern ${i}` : `Suspicious console login from 203.0.113.${i % 250}`,
    severity: SEVERITIES[i % SEVERITIES.length],
    status: STATUSES[(i >> 1) % STATUSES.length],
    detectionId: type === 'SYSTEM_ERROR' ? null : `Bench.Rule.${i % 40}`,
    systemKind: type === 'SYSTEM_ERROR' ? 'SOURCE_NO_DATA' : null,
    sourceId: `source-${i % 8}`,
    description: 'A benchmark alert with a sentence of description.',
    logTypes: [['AWS.CloudTrail', 'Okta.SystemLog', 'GitHub.Audit'][i % 3]],
    eventCount: 1 + (i % 9),
    firstEventAt: created,
    lastEventAt: created,
    createdAt: created,
    updatedAt: updated > created ? updated : created,
    dedupString: `203.0.113.${i % 250}`,
    alertContext: { ip: `203.0.113.${i % 250}`, user: `user${i % 50}` },
    runbook: 'Check who signed in and from where.',
    reference: 'https://example.com/runbooks/console-login',
    signalsTable: type === 'SYSTEM_ERROR' ? null : 'panther_signals.aws_cloudtrail',
    assigneeId: i % 3 === 0 ? null : `user-${i % 5}`,
    revision: 0,
  };
}

ensureWebBuilt(ROOT);
ensureSynthesized(ROOT, TEST_ASSEMBLY);
const runtime = await startTestRuntime();
try {
  const api = [...runtime.functions.values()].find((f) => f.spec.logicalId.startsWith('ApiApiFunction'))!;
  Object.assign(process.env, api.spec.environment);
  const seedStart = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < COUNT) await putAlert(alertOf(next++));
    }),
  );
  console.log(`seeded ${COUNT} alerts in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

  const [admin] = runtime.createdUsers;
  const token = (await signIn(runtime, admin.username, admin.temporaryPassword, PASSWORD)).idToken;
  const call = async (query: string, variables: Record<string, unknown>) => {
    const { body } = await graphql(runtime, { query, variables }, token);
    if (body.errors?.length) throw new Error(body.errors.map((e) => String(e.message)).join('; '));
    return body.data as Record<string, { edges?: unknown[] }>;
  };
  const measure = async (run: () => Promise<unknown>) => {
    for (let w = 0; w < 3; w++) await run();
    const times: number[] = [];
    for (let s = 0; s < SAMPLES; s++) {
      const start = performance.now();
      await run();
      times.push(performance.now() - start);
    }
    return { median: percentile(times, 0.5), p95: percentile(times, 0.95) };
  };

  const ONE = 'query($id: ID!) { alert(id: $id) { id title status } }';
  const baseline = await measure(() => call(ONE, { id: alertOf(4321).id }));
  console.log(
    `baseline, one alert by id (GetItem through GraphQL): median ${baseline.median.toFixed(1)} ms, p95 ${baseline.p95.toFixed(1)} ms`,
  );

  const LIST =
    'query($input: AlertsInput!) { alerts(input: $input) { edges { node { id title severity status assigneeId createdAt } } pageInfo { hasNextPage endCursor } } }';
  const cases: [string, Record<string, unknown>][] = [
    ['first page (25, newest first, every type)', {}],
    ['filtered: Critical + Open alerts', { type: 'ALERT', severity: ['CRITICAL'], status: ['OPEN'] }],
    ['filtered: unassigned, log type AWS.CloudTrail', { assignee: 'unassigned', logType: 'AWS.CloudTrail' }],
    ['filtered: matching nothing (reads are capped, a cursor goes on)', { assignee: 'unassigned', logType: 'Okta.SystemLog' }],
    ['filtered: rare title (1 in 100)', { title: 'exfiltration' }],
    ['filtered: created in one day', { createdFrom: '2026-10-03T00:00:00Z', createdTo: '2026-10-03T23:59:59Z' }],
    ['sorted by last update', { sort: 'updatedAt' }],
    ['sorted by severity', { sort: 'severity' }],
  ];
  for (const [name, input] of cases) {
    let shown = 0;
    const figures = await measure(async () => {
      const data = await call(LIST, { input: { pageSize: 25, ...input } });
      shown = data.alerts.edges?.length ?? 0;
    });
    console.log(
      `${name}: ${shown} shown; median ${figures.median.toFixed(1)} ms, p95 ${figures.p95.toFixed(1)} ms ` +
        `(p95 ${(figures.p95 / baseline.p95).toFixed(1)}x the one-alert read)`,
    );
  }
} finally {
  await runtime.stop();
}
