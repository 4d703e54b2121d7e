// The demo on the local runtime: seeding creates the demo sources (validated, through the log sources
// repository) and loads the demo detections through bulk upload, and its first round of events raises an
// alert from every alerting demo detection through the real ingest paths, each told on the alert-changes
// queue and so delivered to the demo's webhook destination; seeding again is a no-op, and the administrators' button (generateDemoEvents) sends another round.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { DEMO_DETECTIONS_DIR, demoFunctionName, seedDemo } from '../../demo/seed';
import { api, eventually, startPipelineRuntime, type PipelineRuntime } from './helpers';

let p: PipelineRuntime;
let demoFunction: string;

const ALERTS = `query($input: AlertsInput!) { alerts(input: $input) { edges { node { id detectionId title eventCount } } } }`;
type Alerts = { alerts: { edges: { node: { id: string; detectionId: string; title: string; eventCount: number } }[] } };
const alerts = async () =>
  (await api<Alerts>(p, ALERTS, { input: { type: 'ALERT', pageSize: 100 } })).alerts.edges.map((e) => e.node);

const demoYamlFiles = () =>
  readdirSync(DEMO_DETECTIONS_DIR, { recursive: true, encoding: 'utf8' }).filter((f) => /\.ya?ml$/.test(f)).length;

const ALERTING = [
  'Demo.AWS.ConsoleLoginWithoutMFA',
  'Demo.AWS.RootActivity',
  'Demo.GitHub.RepoMadePublic',
  'Demo.Okta.BruteForceLogins',
  // enrichment: a console login from the demo Tor exit node table's address (demo/lookups)
  'Demo.AWS.ConsoleLoginFromTor',
];

beforeAll(async () => {
  p = await startPipelineRuntime();
  demoFunction = demoFunctionName(p.runtime.functions.values())!;
}, 180_000);

afterAll(async () => {
  await p?.stop();
});

describe('the demo', () => {
  it('seeds sources and detections once, and its events raise alerts from every alerting demo detection', async () => {
    expect(demoFunction).toBeDefined();
    expect(await seedDemo(p.runtime.invoke, demoFunction, `${p.runtime.url}/local/webhook`)).toMatch(
      new RegExp(
        `created the demo sources, loaded ${demoYamlFiles()} demo detections, created the lookup tables demo_tor_exit_nodes, demo_threat_intel and sent \\d+ events`,
      ),
    );
    expect(await seedDemo(p.runtime.invoke, demoFunction)).toMatch(/Demo data is in place/);

    const sources = await api<{ logSources: { edges: { node: { label: string; logTypes: string[] } }[] } }>(
      p,
      'query { logSources(input: {}) { edges { node { label logTypes } } } }',
    );
    expect(sources.logSources.edges.map((e) => e.node).sort((a, b) => a.label.localeCompare(b.label))).toEqual([
      { label: 'Demo HTTP', logTypes: ['Okta.SystemLog', 'GitHub.Audit'] },
      { label: 'Demo S3', logTypes: ['AWS.CloudTrail'] },
    ]);
    // The demo keeps no secret of its own: its HTTP source is signed with a key kept in the source, as every
    // HMAC source's is.
    const { demoState } = await import('../../functions/lib/demo');
    const { getSource } = await import('../../functions/lib/log-sources/repository');
    const state = (await demoState()) as unknown as Record<string, unknown>;
    expect(Object.keys(state).sort()).toEqual(['detectionsLoadedAt', 'httpSourceId', 'pk', 's3SourceId', 'sk']);
    const http = await getSource(String(state.httpSourceId));
    expect(http).toMatchObject({ http: { authType: 'HMAC', hmacAlgorithm: 'sha256' }, secret: { kind: 'hmac' } });

    const detections = await api<{ detections: { edges: { node: { id: string } }[] } }>(
      p,
      'query { detections(input: { search: "demo" }) { edges { node { id } } } }',
    );
    // every demo detection and helper (one YAML file each) was loaded
    expect(detections.detections.edges).toHaveLength(demoYamlFiles());

    const found = await eventually(alerts, (list) => ALERTING.every((id) => list.some((a) => a.detectionId === id)), 90_000);
    expect(found.find((a) => a.detectionId === 'Demo.Okta.BruteForceLogins')!.eventCount).toBeGreaterThanOrEqual(5);
    // The signals-only demo detection raises none.
    expect(found.some((a) => a.detectionId === 'Demo.Okta.AppSignOn')).toBe(false);
  });

  it('tells each alert it raised on the alert-changes queue, whose reader delivers it to the demo webhook destination', async () => {
    const raised = await alerts();
    expect(raised.length).toBeGreaterThanOrEqual(ALERTING.length);
    const DELIVERIES = 'query($id: ID!) { alertDeliveries(alertId: $id) { destinationName status } }';
    type Deliveries = { alertDeliveries: { destinationName: string; status: string }[] };
    for (const alert of raised) {
      const { alertDeliveries } = await eventually(
        () => api<Deliveries>(p, DELIVERIES, { id: alert.id }),
        (r) => r.alertDeliveries.some((d) => d.status === 'DELIVERED'),
        60_000,
      );
      expect(alertDeliveries).toContainEqual({ destinationName: 'Local webhook demo', status: 'DELIVERED' });
    }
  });

  it('sends another round from the administrators button', async () => {
    const result = await api<{ generateDemoEvents: { sent: { logType: string; events: number }[] } }>(
      p,
      'mutation { generateDemoEvents { sentAt sent { logType events } } }',
    );
    expect(result.generateDemoEvents.sent.map((s) => s.logType)).toEqual(['AWS.CloudTrail', 'Okta.SystemLog', 'GitHub.Audit']);
    const before = (await alerts()).reduce((n, a) => n + a.eventCount, 0);
    await eventually(alerts, (list) => list.reduce((n, a) => n + a.eventCount, 0) > before, 90_000);
  });
});
