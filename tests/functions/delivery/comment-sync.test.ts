// Jira comment sync (docs/destinations.md) on dynalite and the SQS stand-in, with Jira played by a receiver on
// 127.0.0.1: a comment added to an alert (addAlertComment) publishes COMMENT_ADDED; it goes only to the Jira
// destinations that opened an issue for the alert and sync comments, and is posted to the issue as text with its
// author's name (Cloud: an Atlassian Document, Data Center: a string). Jira's refusal is the delivery's answer.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertChangedMessage } from '../../../core/alerts/messages';
import { addAlertComment, alertActivity, createSystemAlert } from '../../../functions/lib/alerts';
import type { Caller } from '../../../functions/lib/auth';
import {
  alertDeliveries,
  fanOutAlertChange,
  sendQueuedDelivery,
  syncDestinationComment,
  type SendingOptions,
} from '../../../functions/lib/delivery';
import { createDestination } from '../../../functions/lib/destinations';
import { localClientConfig } from '../../../local/services/net';
import { startSqs, type SqsService } from '../../../local/services/sqs';
import { startAlertChanges, type AlertChanges } from '../alerts/alert-changes';
import { startEntityTable } from '../alerts/entity-table';

interface Seen {
  readonly method: string;
  readonly path: string;
  readonly body: Record<string, unknown>;
}

let stopTable: () => Promise<void>;
let queues: SqsService;
let client: SQSClient;
let changes: AlertChanges;
let receiver: Server;
let base: string;
let deliveryUrl: string;
const seen: Seen[] = [];
/** The emulated Jira's issues, each with the comments posted to it. */
const issues = new Map<string, unknown[]>();

function answer(method: string, path: string, body: Record<string, unknown>): [number, unknown] {
  let m: RegExpExecArray | null;
  if (method === 'POST' && (m = /^\/(jira\w*)\/rest\/api\/(2|3)\/issue$/.exec(path))) {
    const key = `SEC-${issues.size + 1}`;
    issues.set(key, []);
    return [201, { id: String(10000 + issues.size), key, self: `${base}/${m[1]}/rest/api/${m[2]}/issue/${key}` }];
  }
  if (method === 'POST' && (m = /^\/jira\w*\/rest\/api\/(2|3)\/issue\/([A-Z]+-\d+)\/comment$/.exec(path))) {
    const comments = issues.get(m[2]);
    if (!comments) return [404, { errorMessages: ['Issue does not exist'] }];
    comments.push(body.body);
    return [201, { id: String(20000 + comments.length), body: body.body }];
  }
  return [404, { errorMessages: [`no route ${method} ${path}`] }];
}

beforeAll(async () => {
  stopTable = (await startEntityTable('comment-sync')).stop;
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
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(out));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  Object.assign(process.env, {
    DELIVERY_QUEUE_URL: deliveryUrl,
    DESTINATIONS_LOCAL_KEY: randomBytes(32).toString('base64'),
    DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true',
    APP_URL: 'http://localhost:3000',
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
  username: 'ana',
  email: 'ana@caracal.local',
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
      results.push(
        await sendQueuedDelivery(
          { body: m.Body!, receiptHandle: m.ReceiptHandle!, receiveCount: Number(m.Attributes?.ApproximateReceiveCount ?? 1) },
          options,
        ),
      );
      await client.send(new DeleteMessageCommand({ QueueUrl: deliveryUrl, ReceiptHandle: m.ReceiptHandle! }));
    }
  }
  return results;
}

const lastChange = (): AlertChangedMessage => changes.published().at(-1)!;

describe('Jira comment sync', () => {
  it('posts a new comment, with its author, to the issues of the Jira destinations that sync comments only', async () => {
    const cloud = await createDestination(
      { outputType: 'jira', displayName: 'Jira Cloud', ...routed, config: jiraConfig('jira', { syncComments: true }) },
      actor,
    );
    const dc = await createDestination(
      {
        outputType: 'jiradatacenter',
        displayName: 'Jira DC',
        ...routed,
        config: jiraConfig('jiradc', { syncComments: true }),
      },
      actor,
    );
    const quiet = await createDestination(
      { outputType: 'jira', displayName: 'Jira quiet', ...routed, config: jiraConfig('jiraquiet', { syncComments: false }) },
      actor,
    );
    await createSystemAlert(
      { kind: 'SOURCE_NO_DATA', title: 'Quiet source', description: 'No data', severity: 'HIGH', dedupKey: 'comment-1' },
      { onCreated: async () => undefined },
    );
    const created = lastChange();
    expect((await fanOutAlertChange(created)).queued.sort()).toEqual([cloud.id, dc.id, quiet.id].sort());
    await drain();
    const keyOf = async (id: string) => (await alertDeliveries(created.alertId)).find((d) => d.destinationId === id)!.reference!;
    const [cloudKey, dcKey, quietKey] = [await keyOf(cloud.id), await keyOf(dc.id), await keyOf(quiet.id)];
    expect(new Set([cloudKey, dcKey, quietKey]).size).toBe(3);

    await addAlertComment({ alertId: created.alertId, text: '  Looked at it.\nA **false** positive: <b>x</b>  ' }, caller);
    const change = lastChange();
    expect(change).toMatchObject({ kind: 'alert-changed', change: 'COMMENT_ADDED', alertId: created.alertId });
    seen.length = 0;
    expect((await fanOutAlertChange(change)).queued.sort()).toEqual([cloud.id, dc.id].sort());
    const results = await drain();
    expect(results.every((r) => r.done)).toBe(true);

    expect(issues.get(cloudKey)).toEqual([
      {
        type: 'doc',
        version: 1,
        content: [
          { type: 'paragraph', content: [{ type: 'text', text: 'ana@caracal.local commented in Caracal:' }] },
          { type: 'paragraph', content: [{ type: 'text', text: 'Looked at it.' }] },
          { type: 'paragraph', content: [{ type: 'text', text: 'A **false** positive: <b>x</b>' }] },
        ],
      },
    ]);
    expect(issues.get(dcKey)).toEqual([
      'ana@caracal.local commented in Caracal:\n\nLooked at it.\nA **false** positive: <b>x</b>',
    ]);
    expect(issues.get(quietKey)).toEqual([]);
    expect(seen.filter((s) => s.path.startsWith('/jiraquiet'))).toEqual([]);
    const dcPost = seen.find((s) => s.path.startsWith('/jiradc/'))!;
    expect(dcPost.path).toBe(`/jiradc/rest/api/2/issue/${dcKey}/comment`);

    const record = (await alertDeliveries(created.alertId)).find((d) => d.destinationId === cloud.id)!;
    expect(record).toMatchObject({ status: 'DELIVERED', lastAnswer: `Comment added to ${cloudKey}`, reference: cloudKey });
    const activity = await alertActivity(created.alertId);
    expect(activity.some((a) => a.kind === 'DELIVERY' && a.answer === `Comment added to ${dcKey}`)).toBe(true);

    // The same change read twice is not posted twice; a second comment is its own change.
    expect((await fanOutAlertChange(change)).queued).toEqual([]);
    await new Promise((r) => setTimeout(r, 5));
    await addAlertComment({ alertId: created.alertId, text: 'Closing.' }, caller);
    await fanOutAlertChange(lastChange());
    await drain();
    expect(issues.get(cloudKey)).toHaveLength(2);
    expect(issues.get(dcKey)?.[1]).toBe('ana@caracal.local commented in Caracal:\n\nClosing.');
  });

  it('an alert no destination opened an issue for: nothing to sync', async () => {
    await createSystemAlert(
      { kind: 'SOURCE_NO_DATA', title: 'Other source', description: 'No data', severity: 'LOW', dedupKey: 'comment-2' },
      { onCreated: async () => undefined },
    );
    const created = lastChange();
    await addAlertComment({ alertId: created.alertId, text: 'Nothing opened' }, caller);
    expect(await fanOutAlertChange(lastChange())).toEqual({ queued: [], skipped: 'no destination syncs comments' });
  });

  it("Jira's refusal is the delivery's answer; types without comment sync and missing issues fail for good", async () => {
    const destination = {
      id: 'd-x',
      outputType: 'jira',
      displayName: 'Jira',
      config: jiraConfig('jira', { syncComments: true }),
    };
    const sync = { alertId: 'a-x', text: 'hello', author: 'bo@example.com' };
    const missing = await syncDestinationComment(destination, { ...sync, reference: 'SEC-999' }, options);
    expect(missing).toMatchObject({ ok: false, statusCode: 404 });
    const none = await syncDestinationComment(destination, { ...sync, reference: '' }, options);
    expect(none).toMatchObject({ ok: false, permanent: true, answer: 'No issue was opened for this alert to sync' });
    const slack = await syncDestinationComment({ ...destination, outputType: 'slack' }, { ...sync, reference: 'X' }, options);
    expect(slack).toMatchObject({ ok: false, permanent: true, answer: 'slack destinations have no comment sync' });
  });
});
