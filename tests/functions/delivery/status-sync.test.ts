// Status sync (docs/destinations.md) on dynalite and the SQS stand-in, with Jira and Asana played by a receiver
// on 127.0.0.1: a new alert opens a Jira issue and an Asana task (their key and gid kept with the delivery);
// when the alert's status changes, the change goes only to destinations with status sync on, Jira's issue takes
// the transition to the status the statusMap names, Asana's task is completed and reopened; a workflow with no
// transition to the mapped status fails with the statuses it could reach.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSystemAlert, updateAlertStatus, alertActivity } from '../../../functions/lib/alerts';
import { alertDeliveries, fanOutAlertChange } from '../../../functions/lib/delivery';
import { createDestination } from '../../../functions/lib/destinations';
import { actor, fakeTrackers, reply, routed, startDeliveryHarness, triager, type DeliveryHarness } from './harness';

let h: DeliveryHarness;
const fake = fakeTrackers(() => h.base);
const { issues, tasks } = fake;

beforeAll(async () => {
  h = await startDeliveryHarness({
    table: 'status-sync',
    handler: (request, res) =>
      fake.handle(request, res) || reply(res, 404, { error: `no route ${request.method} ${request.path}` }),
    serviceEndpoints: { asana: '/asana' },
  });
});

afterAll(() => h.stop());

const caller = triager('admin');
const status = (key: string) => issues.get(key)?.status;

describe('status sync', () => {
  it('moves the Jira issue through its workflow and completes/reopens the Asana task, only where it is on', async () => {
    const jira = await createDestination(
      {
        outputType: 'jira',
        displayName: 'Jira synced',
        ...routed,
        config: h.jiraConfig('jira', { syncStatus: true, statusMapResolved: 'closed' }),
      },
      actor,
    );
    const quiet = await createDestination(
      { outputType: 'jira', displayName: 'Jira quiet', ...routed, config: h.jiraConfig('jira2', { syncStatus: false }) },
      actor,
    );
    const asana = await createDestination(
      {
        outputType: 'asana',
        displayName: 'Asana synced',
        ...routed,
        config: { personalAccessToken: 'asana-token', projectGids: ['42'], syncAlertStatus: true },
      },
      actor,
    );
    await createSystemAlert(
      { kind: 'SOURCE_NO_DATA', title: 'Quiet source', description: 'No data', severity: 'HIGH', dedupKey: 'sync-1' },
      { onCreated: async () => undefined },
    );
    const created = h.lastChange();
    expect((await fanOutAlertChange(created)).queued.sort()).toEqual([jira.id, quiet.id, asana.id].sort());
    await h.drain();
    const deliveries = await alertDeliveries(created.alertId);
    const byId = new Map(deliveries.map((d) => [d.destinationId, d]));
    expect(byId.get(jira.id)).toMatchObject({ status: 'DELIVERED', reference: 'SEC-1' });
    expect(byId.get(quiet.id)).toMatchObject({ status: 'DELIVERED', reference: 'SEC-2' });
    expect(byId.get(asana.id)).toMatchObject({ status: 'DELIVERED', reference: '1200000' });

    // Triaged: Jira's "In Progress" (the default map), Asana stays incomplete; the quiet Jira is left alone.
    const triaged = await updateAlertStatus({ id: created.alertId, status: 'TRIAGED', revision: 0 }, caller);
    h.received.length = 0;
    expect((await fanOutAlertChange(h.lastChange())).queued.sort()).toEqual([jira.id, asana.id].sort());
    await h.drain();
    expect(status('SEC-1')).toBe('In Progress');
    expect(status('SEC-2')).toBe('To Do');
    expect(tasks.get('1200000')).toBe(false);
    expect(h.received.filter((s) => s.path.startsWith('/jira2'))).toEqual([]);
    const transition = h.received.find((s) => s.method === 'POST' && s.path.endsWith('/transitions'))!;
    expect(transition.body).toEqual({ transition: { id: '11' } }); // To Do → In Progress

    // Resolved: the map says "closed" (case does not matter); the task is completed.
    const resolved = await updateAlertStatus({ id: created.alertId, status: 'RESOLVED', revision: triaged.revision }, caller);
    await fanOutAlertChange(h.lastChange());
    await h.drain();
    expect(status('SEC-1')).toBe('Closed');
    expect(tasks.get('1200000')).toBe(true);

    // Reopened: back to "To Do", the task incomplete again.
    const reopened = await updateAlertStatus({ id: created.alertId, status: 'OPEN', revision: resolved.revision }, caller);
    await fanOutAlertChange(h.lastChange());
    await h.drain();
    expect(status('SEC-1')).toBe('To Do');
    expect(tasks.get('1200000')).toBe(false);
    await updateAlertStatus({ id: created.alertId, status: 'RESOLVED', revision: reopened.revision }, caller);
    await fanOutAlertChange(h.lastChange());
    await h.drain();
    expect(status('SEC-1')).toBe('Closed');
    const record = (await alertDeliveries(created.alertId)).find((d) => d.destinationId === jira.id)!;
    expect(record).toMatchObject({ status: 'DELIVERED', lastAnswer: 'SEC-1 moved to Closed', reference: 'SEC-1' });
    const activity = (await alertActivity(created.alertId)).filter(
      (a) => a.kind === 'DELIVERY' && a.destinationName === 'Jira synced',
    );
    expect(activity.map((a) => a.answer)).toContain('SEC-1 moved to In Progress');
  });

  it('fails, naming what the workflow allows, when no transition leads to the mapped status', async () => {
    const jira = await createDestination(
      {
        outputType: 'jira',
        displayName: 'Jira odd map',
        ...routed,
        config: h.jiraConfig('jira', { syncStatus: true, statusMapTriaged: 'Waiting for support' }),
      },
      actor,
    );
    await createSystemAlert(
      { kind: 'SOURCE_NO_DATA', title: 'Quiet source 2', description: 'No data', severity: 'HIGH', dedupKey: 'sync-2' },
      { onCreated: async () => undefined },
    );
    const created = h.lastChange();
    await fanOutAlertChange(created);
    await h.drain();
    const key = (await alertDeliveries(created.alertId)).find((d) => d.destinationId === jira.id)!.reference!;
    await updateAlertStatus({ id: created.alertId, status: 'TRIAGED', revision: 0 }, caller);
    await fanOutAlertChange(h.lastChange());
    const [result] = (await h.drain()).filter((r) => r.what.includes(key));
    expect(result).toMatchObject({ done: true });
    expect(result.what).toContain(`${key} has no transition to "Waiting for support" (reachable: In Progress, Closed)`);
    expect((await alertDeliveries(created.alertId)).find((d) => d.destinationId === jira.id)).toMatchObject({
      status: 'FAILED',
    });
    expect(status(key)).toBe('To Do');
  });
});
