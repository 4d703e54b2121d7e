// Status sync (docs/destinations.md) on dynalite and the SQS stand-in, with Jira and Asana played by a receiver
// on 127.0.0.1: a new alert opens a Jira issue and an Asana task (their key and gid kept with the delivery);
// when the alert's status changes, the change goes only to destinations with status sync on, Jira's issue takes
// the transition to the status the statusMap names, Asana's task is completed and reopened; a workflow with no
// transition to the mapped status fails with the statuses it could reach.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertChangedMessage } from '../../../core/alerts/messages';
import { createSystemAlert, updateAlertStatus, alertActivity } from '../../../functions/lib/alerts';
import type { Caller } from '../../../functions/lib/auth';
import { alertDeliveries, fanOutAlertChange, sendQueuedDelivery, type SendingOptions } from '../../../functions/lib/delivery';
import { createDestination } from '../../../functions/lib/destinations';
import { localClientConfig } from '../../../local/services/net';
import { startSqs, type SqsService } from '../../../local/services/sqs';
import { startAlertChanges, type AlertChanges } from '../alerts/alert-changes';
import { startEntityTable } from '../alerts/entity-table';

interface Seen {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
}

let stopTable: () => Promise<void>;
let queues: SqsService;
let client: SQSClient;
let changes: AlertChanges;
let receiver: Server;
let base: string;
let deliveryUrl: string;
const seen: Seen[] = [];
/** The emulated Jira issues' statuses, and Asana's tasks' completion. */
const issues = new Map<string, string>();
const tasks = new Map<string, boolean>();
const WORKFLOW: Record<string, string[]> = {
  'To Do': ['In Progress', 'Closed'],
  'In Progress': ['To Do', 'Closed'],
  Closed: ['To Do'],
};
const transitionsFrom = (status: string) =>
  (WORKFLOW[status] ?? []).map((to, i) => ({
    id: String(11 + i + Object.keys(WORKFLOW).indexOf(status) * 10),
    name: `Move to ${to}`,
    to: { name: to },
  }));

function answer(method: string, path: string, body: Record<string, unknown>): [number, unknown] {
  let m: RegExpExecArray | null;
  if (method === 'POST' && /^\/jira\d?\/rest\/api\/3\/issue$/.test(path)) {
    const key = `SEC-${issues.size + 1}`;
    issues.set(key, 'To Do');
    return [201, { id: String(10000 + issues.size), key, self: `${base}/rest/api/3/issue/${key}` }];
  }
  if ((m = /^\/jira\d?\/rest\/api\/3\/issue\/([A-Z]+-\d+)(\/transitions)?$/.exec(path.split('?')[0]))) {
    const status = issues.get(m[1]);
    if (!status) return [404, { errorMessages: ['Issue does not exist'] }];
    if (!m[2]) return [200, { key: m[1], fields: { status: { name: status } } }];
    const transitions = transitionsFrom(status);
    if (method === 'GET') return [200, { transitions }];
    const chosen = transitions.find((t) => t.id === (body.transition as { id?: string })?.id);
    if (!chosen) return [400, { errorMessages: ['No such transition'] }];
    issues.set(m[1], chosen.to.name);
    return [204, null];
  }
  if (method === 'POST' && path === '/asana/tasks') {
    const gid = String(1_200_000 + tasks.size);
    tasks.set(gid, false);
    return [201, { data: { gid, resource_type: 'task', name: (body.data as { name?: string }).name } }];
  }
  if (method === 'PUT' && (m = /^\/asana\/tasks\/(\d+)$/.exec(path))) {
    tasks.set(m[1], (body.data as { completed: boolean }).completed);
    return [200, { data: { gid: m[1], completed: tasks.get(m[1]) } }];
  }
  return [404, { error: `no route ${method} ${path}` }];
}

beforeAll(async () => {
  stopTable = (await startEntityTable('status-sync')).stop;
  queues = await startSqs('us-east-1');
  changes = await startAlertChanges(queues);
  client = new SQSClient(localClientConfig(queues.endpoint, 'us-east-1'));
  deliveryUrl = queues.server.createQueue('delivery', { region: 'us-east-1' }).queueUrl;
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      seen.push({ method: req.method ?? '', path: req.url ?? '', body });
      const [status, out] = answer(req.method ?? '', req.url ?? '', body);
      res.writeHead(status, { 'content-type': 'application/json' }).end(out === null ? '' : JSON.stringify(out));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  Object.assign(process.env, {
    DELIVERY_QUEUE_URL: deliveryUrl,
    DESTINATIONS_LOCAL_KEY: randomBytes(32).toString('base64'),
    DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true',
    APP_URL: 'http://localhost:3000',
    DELIVERY_SERVICE_ENDPOINTS: JSON.stringify({ asana: `${base}/asana` }),
  });
});

afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  client.destroy();
  await changes.stop();
  await queues.stop();
  await stopTable();
});

const actor = { email: 'admin@caracal.local', username: 'admin' };
const caller: Caller = {
  id: 'u-1',
  username: 'admin',
  email: 'admin@caracal.local',
  enabled: true,
  role: { id: 'admin', name: 'Admin' },
  permissions: ['AlertRead', 'AlertModify'],
};
const options: SendingOptions = {
  retryDelay: () => 0,
  http: { allowPrivateNetworks: true, timeoutMs: 2000 },
  onSystemAlert: async () => undefined,
};
const routed = { defaultForSeverity: ['HIGH'], alertTypes: ['SYSTEM_ERROR'], logTypes: [] };
const jiraConfig = (path: string, extra: Record<string, unknown>) => ({
  orgDomain: `${base}/${path}`,
  projectKey: 'SEC',
  userName: 'bot@example.com',
  apiKey: 'jira-token',
  issueType: 'Task',
  ...extra,
});

async function drain() {
  const results: Array<{ done: boolean; what: string }> = [];
  for (let round = 0; round < 10; round++) {
    const out = await client.send(
      new ReceiveMessageCommand({
        QueueUrl: deliveryUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 0,
        MessageSystemAttributeNames: ['All'],
      }),
    );
    if (!out.Messages?.length) break;
    for (const m of out.Messages) {
      const result = await sendQueuedDelivery(
        { body: m.Body!, receiptHandle: m.ReceiptHandle!, receiveCount: Number(m.Attributes?.ApproximateReceiveCount ?? 1) },
        options,
      );
      results.push(result);
      await client.send(new DeleteMessageCommand({ QueueUrl: deliveryUrl, ReceiptHandle: m.ReceiptHandle! }));
    }
  }
  return results;
}

const lastChange = (): AlertChangedMessage => changes.published().at(-1)!;

describe('status sync', () => {
  it('moves the Jira issue through its workflow and completes/reopens the Asana task, only where it is on', async () => {
    const jira = await createDestination(
      {
        outputType: 'jira',
        displayName: 'Jira synced',
        ...routed,
        config: jiraConfig('jira', { syncStatus: true, statusMapResolved: 'closed' }),
      },
      actor,
    );
    const quiet = await createDestination(
      { outputType: 'jira', displayName: 'Jira quiet', ...routed, config: jiraConfig('jira2', { syncStatus: false }) },
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
    const created = lastChange();
    expect((await fanOutAlertChange(created)).queued.sort()).toEqual([jira.id, quiet.id, asana.id].sort());
    await drain();
    const deliveries = await alertDeliveries(created.alertId);
    const byId = new Map(deliveries.map((d) => [d.destinationId, d]));
    expect(byId.get(jira.id)).toMatchObject({ status: 'DELIVERED', reference: 'SEC-1' });
    expect(byId.get(quiet.id)).toMatchObject({ status: 'DELIVERED', reference: 'SEC-2' });
    expect(byId.get(asana.id)).toMatchObject({ status: 'DELIVERED', reference: '1200000' });

    // Triaged: Jira's "In Progress" (the default map), Asana stays incomplete; the quiet Jira is left alone.
    const triaged = await updateAlertStatus({ id: created.alertId, status: 'TRIAGED', revision: 0 }, caller);
    seen.length = 0;
    expect((await fanOutAlertChange(lastChange())).queued.sort()).toEqual([jira.id, asana.id].sort());
    await drain();
    expect(issues.get('SEC-1')).toBe('In Progress');
    expect(issues.get('SEC-2')).toBe('To Do');
    expect(tasks.get('1200000')).toBe(false);
    expect(seen.filter((s) => s.path.startsWith('/jira2'))).toEqual([]);
    const transition = seen.find((s) => s.method === 'POST' && s.path.endsWith('/transitions'))!;
    expect(transition.body).toEqual({ transition: { id: '11' } }); // To Do → In Progress

    // Resolved: the map says "closed" (case does not matter); the task is completed.
    const resolved = await updateAlertStatus({ id: created.alertId, status: 'RESOLVED', revision: triaged.revision }, caller);
    await fanOutAlertChange(lastChange());
    await drain();
    expect(issues.get('SEC-1')).toBe('Closed');
    expect(tasks.get('1200000')).toBe(true);

    // Reopened: back to "To Do", the task incomplete again.
    const reopened = await updateAlertStatus({ id: created.alertId, status: 'OPEN', revision: resolved.revision }, caller);
    await fanOutAlertChange(lastChange());
    await drain();
    expect(issues.get('SEC-1')).toBe('To Do');
    expect(tasks.get('1200000')).toBe(false);
    await updateAlertStatus({ id: created.alertId, status: 'RESOLVED', revision: reopened.revision }, caller);
    await fanOutAlertChange(lastChange());
    await drain();
    expect(issues.get('SEC-1')).toBe('Closed');
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
        config: jiraConfig('jira', { syncStatus: true, statusMapTriaged: 'Waiting for support' }),
      },
      actor,
    );
    await createSystemAlert(
      { kind: 'SOURCE_NO_DATA', title: 'Quiet source 2', description: 'No data', severity: 'HIGH', dedupKey: 'sync-2' },
      { onCreated: async () => undefined },
    );
    const created = lastChange();
    await fanOutAlertChange(created);
    await drain();
    const key = (await alertDeliveries(created.alertId)).find((d) => d.destinationId === jira.id)!.reference!;
    await updateAlertStatus({ id: created.alertId, status: 'TRIAGED', revision: 0 }, caller);
    await fanOutAlertChange(lastChange());
    const [result] = (await drain()).filter((r) => r.what.includes(key));
    expect(result).toMatchObject({ done: true });
    expect(result.what).toContain(`${key} has no transition to "Waiting for support" (reachable: In Progress, Closed)`);
    expect((await alertDeliveries(created.alertId)).find((d) => d.destinationId === jira.id)).toMatchObject({
      status: 'FAILED',
    });
    expect(issues.get(key)).toBe('To Do');
  });
});
