// The delivery pipeline against the DynamoDB and SQS stand-ins and HTTP receivers on 127.0.0.1 that answer
// 200, 500, 429 and hang: an alert change fans out to one message per destination; the sender delivers within
// seconds and records the attempt (delivery record and alert activity); a message read twice sends once; a
// failing destination is retried (backoff through the message's visibility, Retry-After honoured) until the
// last attempt, then its message is in the dead-letter queue and one ALERT_DELIVERY system alert is raised
// (one an hour per destination); PagerDuty's dedup key stays the alert id when an alert that gained events is
// delivered again, while a Slack webhook takes new alerts only; a retry sends again.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AlertChangedMessage } from '../../../core/alerts/messages';
import type { AlertSeverity } from '../../../core/alerts/model';
import { alertActivity, createSystemAlert, type Alert } from '../../../functions/lib/alerts';
import {
  alertDeliveries,
  delayRetry,
  fanOutAlertChange,
  retryAlertDelivery,
  sendQueuedDelivery,
  type SendingOptions,
} from '../../../functions/lib/delivery';
import { createDestination, deleteDestination } from '../../../functions/lib/destinations';
import { localClientConfig } from '../../../local/services/net';
import { startSqs, type SqsService } from '../../../local/services/sqs';
import { startAlertChanges, type AlertChanges } from '../alerts/alert-changes';
import { startEntityTable } from '../alerts/entity-table';

interface Received {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Record<string, unknown>;
  readonly at: number;
}

let stopTable: () => Promise<void>;
let queues: SqsService;
let client: SQSClient;
let changes: AlertChanges;
let receiver: Server;
let base: string;
let deliveryUrl: string;
const received: Received[] = [];
const systemAlerts: Alert[] = [];
/** What the receiver answers per path prefix; a path not listed answers 200. */
const answers: Record<string, (res: ServerResponse, n: number) => void> = {
  '/down': (res) => res.writeHead(500).end('receiver is down'),
  '/busy': (res, n) => (n === 1 ? res.writeHead(429, { 'retry-after': '2' }).end('slow down') : res.writeHead(200).end('ok')),
  '/hang': () => undefined,
};

beforeAll(async () => {
  stopTable = (await startEntityTable('delivery')).stop;
  queues = await startSqs('us-east-1');
  changes = await startAlertChanges(queues);
  client = new SQSClient(localClientConfig(queues.endpoint, 'us-east-1'));
  const dlq = queues.server.createQueue('delivery-dlq', { region: 'us-east-1' });
  deliveryUrl = queues.server.createQueue('delivery', {
    region: 'us-east-1',
    attributes: {
      VisibilityTimeout: '180',
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.queueArn, maxReceiveCount: 10 }),
    },
  }).queueUrl;
  const counts = new Map<string, number>();
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString() || '{}'), at: Date.now() });
      const prefix = Object.keys(answers).find((p) => path.startsWith(p));
      counts.set(path, (counts.get(path) ?? 0) + 1);
      if (prefix) answers[prefix](res, counts.get(path)!);
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  Object.assign(process.env, {
    DELIVERY_QUEUE_URL: deliveryUrl,
    DESTINATIONS_LOCAL_KEY: randomBytes(32).toString('base64'),
    DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true',
    APP_URL: 'http://localhost:3000',
    DELIVERY_SERVICE_ENDPOINTS: JSON.stringify({ pagerduty: `${base}/pagerduty` }),
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

const created: string[] = [];
afterEach(async () => {
  for (const id of created.splice(0)) await deleteDestination(id);
  received.length = 0;
});

const actor = { email: 'admin@caracal.local', username: 'admin' };

/** A destination taking system errors of one severity (each test its own, so tests do not see each other's). */
async function destination(
  outputType: string,
  severity: AlertSeverity,
  config: Record<string, unknown>,
  name = `${outputType} ${severity}`,
) {
  const saved = await createDestination(
    { outputType, displayName: name, defaultForSeverity: [severity], alertTypes: ['SYSTEM_ERROR'], logTypes: [], config },
    actor,
  );
  created.push(saved.id);
  return saved;
}

/** Raises (or joins) a system alert of `severity` and answers the change it published. */
async function alertChange(severity: AlertSeverity, dedupKey: string): Promise<AlertChangedMessage> {
  await createSystemAlert(
    { kind: 'SOURCE_NO_DATA', title: `No data <b>${dedupKey}</b>`, description: 'Quiet source', severity, dedupKey },
    { onCreated: async () => undefined },
  );
  return changes.published().at(-1)!;
}

const options: SendingOptions = {
  retryDelay: () => 0,
  http: { allowPrivateNetworks: true, timeoutMs: 500 },
  onSystemAlert: async (alert) => void systemAlerts.push(alert),
};

/** Plays the sender function for what is queued: receive, send, delete what is done, delay what failed. */
async function drain(
  sending: SendingOptions = options,
  rounds = 20,
): Promise<Array<{ done: boolean; what: string; retryInSeconds?: number }>> {
  const results: Array<{ done: boolean; what: string; retryInSeconds?: number }> = [];
  for (let round = 0; round < rounds; round++) {
    const out = await client.send(
      new ReceiveMessageCommand({
        QueueUrl: deliveryUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 0,
        MessageSystemAttributeNames: ['All'],
      }),
    );
    const messages = out.Messages ?? [];
    if (!messages.length) break;
    for (const m of messages) {
      const result = await sendQueuedDelivery(
        { body: m.Body!, receiptHandle: m.ReceiptHandle!, receiveCount: Number(m.Attributes?.ApproximateReceiveCount ?? 1) },
        sending,
      );
      results.push(result);
      if (result.done) await client.send(new DeleteMessageCommand({ QueueUrl: deliveryUrl, ReceiptHandle: m.ReceiptHandle! }));
      else await delayRetry(m.ReceiptHandle!, result.retryInSeconds);
    }
  }
  return results;
}

const held = (name: string) => queues.server.inspectQueue(name)!.messages.ready.length;

describe('delivering an alert', () => {
  it('fans out to one message per destination and delivers within seconds, recording the attempt', async () => {
    const a = await destination('customwebhook', 'CRITICAL', {
      webhookURL: `${base}/hook/a`,
      customHeaders: [{ name: 'X-Team', value: 'sec' }],
    });
    const b = await destination('customwebhook', 'CRITICAL', { webhookURL: `${base}/hook/b` }, 'Second hook');
    const started = Date.now();
    const change = await alertChange('CRITICAL', 'fanout');
    const fanned = await fanOutAlertChange(change);
    expect(fanned.queued.sort()).toEqual([a.id, b.id].sort());
    const results = await drain();
    expect(results.map((r) => r.what)).toEqual(['delivered (200)', 'delivered (200)']);
    expect(received.map((r) => r.path).sort()).toEqual(['/hook/a', '/hook/b']);
    expect(Math.max(...received.map((r) => r.at)) - started).toBeLessThan(5000);
    const toA = received.find((r) => r.path === '/hook/a')!;
    expect(toA.headers['x-team']).toBe('sec');
    expect(toA.body).toMatchObject({
      id: change.alertId,
      change: 'CREATED',
      type: 'SYSTEM_ERROR',
      title: 'No data <b>fanout</b>',
      link: `http://localhost:3000/alerts-and-errors/${change.alertId}/`,
      destination: { id: a.id, name: a.displayName },
    });

    const deliveries = await alertDeliveries(change.alertId);
    expect(deliveries).toHaveLength(2);
    for (const d of deliveries)
      expect(d).toMatchObject({ status: 'DELIVERED', attempts: 1, lastStatusCode: 200, lastAnswer: 'ok' });
    const activity = (await alertActivity(change.alertId)).filter((x) => x.kind === 'DELIVERY');
    expect(activity.map((x) => [x.destinationName, x.ok, x.statusCode]).sort()).toEqual(
      [
        [a.displayName, true, 200],
        [b.displayName, true, 200],
      ].sort(),
    );
  });

  it('sends a change once, however often its message or the alert change is read', async () => {
    await destination('customwebhook', 'LOW', { webhookURL: `${base}/once` });
    const change = await alertChange('LOW', 'once');
    await fanOutAlertChange(change);
    await drain();
    expect(received).toHaveLength(1);
    // The alert change read again (an SQS redelivery): nothing is queued for a change delivered already.
    expect((await fanOutAlertChange(change)).queued).toEqual([]);
    expect(await drain()).toEqual([]);
    expect(received).toHaveLength(1);
  });
});

describe('a failing destination', () => {
  it('is retried until the last attempt, then the message is a dead letter and one ALERT_DELIVERY alert is raised', async () => {
    const down = await destination('customwebhook', 'MEDIUM', { webhookURL: `${base}/down` }, 'Down hook');
    const dlqBefore = held('delivery-dlq');
    const change = await alertChange('MEDIUM', 'down');
    await fanOutAlertChange(change);
    const results = await drain();
    expect(received).toHaveLength(10);
    expect(results).toHaveLength(10);
    expect(results.slice(0, 9).every((r) => !r.done && r.what.startsWith('attempt'))).toBe(true);
    expect(results[9]).toMatchObject({ done: false, what: 'failed after 10 attempts: receiver is down', retryInSeconds: 0 });
    // The next receive moves it to the dead-letter queue (maxReceiveCount 10).
    await client.send(new ReceiveMessageCommand({ QueueUrl: deliveryUrl, WaitTimeSeconds: 0 }));
    expect(held('delivery-dlq')).toBe(dlqBefore + 1);
    const [record] = await alertDeliveries(change.alertId);
    expect(record).toMatchObject({ status: 'FAILED', attempts: 10, lastStatusCode: 500, lastAnswer: 'receiver is down' });
    expect(systemAlerts.filter((a) => a.title === 'Alert delivery to Down hook failed')).toHaveLength(1);
    const raised = systemAlerts.at(-1)!;
    expect(raised).toMatchObject({ systemKind: 'ALERT_DELIVERY', severity: 'HIGH', dedupString: `ALERT_DELIVERY:${down.id}` });
    expect((await alertActivity(change.alertId)).filter((x) => x.kind === 'DELIVERY' && x.ok === false)).toHaveLength(10);

    // A second alert failing to the same destination within the hour raises no second system alert ...
    const second = await alertChange('MEDIUM', 'down-again');
    await fanOutAlertChange(second);
    await drain();
    expect(systemAlerts.filter((a) => a.systemKind === 'ALERT_DELIVERY')).toHaveLength(1);
    // ... and the ALERT_DELIVERY alert is never delivered to the destination it is about.
    expect(
      (
        await fanOutAlertChange({
          kind: 'alert-changed',
          change: 'CREATED',
          alertId: raised.id,
          alertType: 'SYSTEM_ERROR',
          changedAt: raised.createdAt,
        })
      ).queued,
    ).not.toContain(down.id);
  }, 60_000);

  it('honours Retry-After on a 429 and delivers on the next attempt', async () => {
    await destination('customwebhook', 'INFO', { webhookURL: `${base}/busy` });
    const change = await alertChange('INFO', 'busy');
    await fanOutAlertChange(change);
    const [first] = await drain({ ...options, retryDelay: undefined }, 1);
    expect(first).toEqual({ done: false, what: 'attempt 1 failed: slow down', retryInSeconds: 2 });
    let [record] = await alertDeliveries(change.alertId);
    expect(record).toMatchObject({ status: 'RETRYING', attempts: 1, lastStatusCode: 429 });
    await new Promise((r) => setTimeout(r, 2100));
    expect((await drain()).map((r) => r.what)).toEqual(['delivered (200)']);
    [record] = await alertDeliveries(change.alertId);
    expect(record).toMatchObject({ status: 'DELIVERED', attempts: 2, lastStatusCode: 200 });
  });

  it('fails the attempt of a receiver that hangs, at the timeout, and waits before the next', async () => {
    await destination('customwebhook', 'HIGH', { webhookURL: `${base}/hang` });
    const change = await alertChange('HIGH', 'hang');
    await fanOutAlertChange(change);
    const [first] = await drain({ ...options, retryDelay: undefined }, 1);
    expect(first).toMatchObject({ done: false, what: 'attempt 1 failed: Timed out after 1 s' });
    expect(first.retryInSeconds).toBeGreaterThanOrEqual(12);
    expect(first.retryInSeconds).toBeLessThanOrEqual(18);
    const [record] = await alertDeliveries(change.alertId);
    expect(record).toMatchObject({ status: 'RETRYING', attempts: 1, lastStatusCode: null });
    await client.send(new ReceiveMessageCommand({ QueueUrl: deliveryUrl, WaitTimeSeconds: 0 }));
  });
});

describe('updates and retries', () => {
  it('delivers an alert that gained events again to PagerDuty with the same dedup key, and not to a Slack webhook', async () => {
    await destination('pagerduty', 'LOW', { integrationKey: '0123456789abcdef0123456789abcdef' });
    await destination('slack', 'LOW', { webhookURL: `${base}/slack` });
    const change = await alertChange('LOW', 'pages');
    await fanOutAlertChange(change);
    await drain();
    const joined = await alertChange('LOW', 'pages');
    expect(joined.change).toBe('EVENTS_ADDED');
    await fanOutAlertChange(joined);
    await drain();
    const pages = received.filter((r) => r.path === '/pagerduty/v2/enqueue');
    expect(pages).toHaveLength(2);
    expect(pages.map((p) => p.body.dedup_key)).toEqual([change.alertId, change.alertId]);
    expect(pages.map((p) => p.body.event_action)).toEqual(['trigger', 'trigger']);
    expect(received.filter((r) => r.path === '/slack')).toHaveLength(1);
  });

  it('sends again on retry, recording one more attempt', async () => {
    const hook = await destination('customwebhook', 'INFO', { webhookURL: `${base}/retry` }, 'Retry hook');
    const change = await alertChange('INFO', 'retry');
    await fanOutAlertChange(change);
    await drain();
    const pending = await retryAlertDelivery(change.alertId, hook.id);
    expect(pending).toMatchObject({ status: 'PENDING', attempts: 1 });
    await drain();
    expect(received.filter((r) => r.path === '/retry').map((r) => r.body.change)).toEqual(['CREATED', 'RETRY']);
    const [record] = await alertDeliveries(change.alertId);
    expect(record).toMatchObject({ status: 'DELIVERED', attempts: 2 });
    await expect(retryAlertDelivery(change.alertId, '00000000-0000-4000-8000-000000000000')).rejects.toThrow(
      'Destination not found',
    );
  });
});
