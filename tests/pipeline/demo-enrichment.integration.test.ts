// The demo's enrichment on the local runtime: seeding creates the demo lookup tables from the files bundled in
// demo/lookups (a Tor exit list and threat-intel indicators, documentation addresses), before the first round
// of events; the log processor enriches the demo CloudTrail events (p_enrichment), and the demo detection that
// reads the enrichment (Demo.AWS.ConsoleLoginFromTor) raises an alert, Critical since the address is also in the
// threat-intel table, whose events and context carry the tables' rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoFunctionName, demoLookupTables, seedDemo } from '../../demo/seed';
import { api, eventually, startPipelineRuntime, type PipelineRuntime } from './helpers';

let p: PipelineRuntime;

beforeAll(async () => {
  p = await startPipelineRuntime();
}, 180_000);

afterAll(async () => {
  await p?.stop();
});

interface AlertNode {
  id: string;
  detectionId: string;
  title: string;
  severity: string;
  alertContext: string | null;
}

describe('the demo, enriched', () => {
  it('seeds the bundled lookup tables and raises an alert from the detection that reads their enrichment', async () => {
    const demoFunction = demoFunctionName(p.runtime.functions.values())!;
    expect(await seedDemo(p.runtime.invoke, demoFunction)).toMatch(
      /created the lookup tables demo_tor_exit_nodes, demo_threat_intel/,
    );

    const { lookupTables } = await api<{
      lookupTables: { name: string; status: string; rowCount: number; provider: string; associations: { logType: string }[] }[];
    }>(p, 'query { lookupTables { name status rowCount provider associations { logType } } }');
    const bundled = demoLookupTables();
    expect(lookupTables.map((t) => t.name).sort()).toEqual(bundled.map((t) => String(t.input.name)).sort());
    expect(lookupTables.find((t) => t.name === 'demo_tor_exit_nodes')).toMatchObject({
      status: 'READY',
      rowCount: 4,
      provider: 'TOR_EXIT_NODES',
    });
    expect(lookupTables.find((t) => t.name === 'demo_threat_intel')).toMatchObject({ status: 'READY', rowCount: 4 });

    const ALERTS = `query($input: AlertsInput!) { alerts(input: $input) { edges { node { id detectionId title severity alertContext } } } }`;
    const list = async () =>
      (
        await api<{ alerts: { edges: { node: AlertNode }[] } }>(p, ALERTS, { input: { type: 'ALERT', pageSize: 100 } })
      ).alerts.edges.map((e) => e.node);
    const alerts = await eventually(list, (all) => all.some((a) => a.detectionId === 'Demo.AWS.ConsoleLoginFromTor'), 90_000);
    const tor = alerts.find((a) => a.detectionId === 'Demo.AWS.ConsoleLoginFromTor')!;
    expect(tor.title).toMatch(/^AWS console login by \[\w+\] from Tor exit node 198\.51\.100\.201$/);
    expect(tor.severity).toBe('CRITICAL');
    expect(JSON.parse(tor.alertContext!)).toMatchObject({
      sourceIPAddress: '198.51.100.201',
      torExitNode: { ip: '198.51.100.201' },
      threatIntel: 'Demo: anonymizing relay seen in credential stuffing against SSO portals',
    });

    // The alert's events, as stored in the lake, carry both tables' rows under p_enrichment.
    const EVENTS = 'query($input: AlertEventsInput!) { alertEvents(input: $input) { edges { node } } }';
    const events = await eventually(
      () => api<{ alertEvents: { edges: { node: string }[] } }>(p, EVENTS, { input: { alertId: tor.id } }),
      (r) => r.alertEvents.edges.length > 0,
      60_000,
    );
    const event = JSON.parse(events.alertEvents.edges[0].node) as Record<string, unknown>;
    // a lake column of JSON text, as json fields are
    const enrichment: unknown = typeof event.p_enrichment === 'string' ? JSON.parse(event.p_enrichment) : event.p_enrichment;
    expect(enrichment).toMatchObject({
      demo_tor_exit_nodes: { sourceIPAddress: { ip: '198.51.100.201' } },
      demo_threat_intel: { sourceIPAddress: { value: '198.51.100.201', type: 'ip-src' } },
    });
    // Events from addresses no table lists are not enriched, and raise nothing from this detection.
    expect(
      alerts.filter((a) => a.detectionId === 'Demo.AWS.ConsoleLoginFromTor').every((a) => a.title.includes('198.51.100.201')),
    ).toBe(true);
  });
});
