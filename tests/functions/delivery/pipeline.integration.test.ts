// The delivery pipeline against the DynamoDB and SQS stand-ins and HTTP receivers on 127.0.0.1 that answer
// 200, 500, 429 and hang: an alert change fans out to one message per destination; the sender delivers within
// seconds and records the attempt (delivery record and alert activity); a message read twice sends once; a
// failing destination is retried (backoff through the message's visibility, Retry-After honoured) until the
// last attempt, then its message is in the dead-letter queue and one ALERT_DELIVERY system alert is raised
// (one an hour per destination); PagerDuty's dedup key stays the alert id when an alert that gained events is
// delivered again, while a Slack webhook takes new alerts only; a retry sends again.
import type { ServerResponse } from 'node:http';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AlertChangedMessage } from '../../../core/alerts/messages';
import type { AlertSeverity } from '../../../core/alerts/model';
import { alertActivity, createSystemAlert, type Alert } from '../../../functions/lib/alerts';
import { alertDeliveries, fanOutAlertChange, retryAlertDelivery } from '../../../functions/lib/delivery';
import { createDestination, deleteDestination } from '../../../functions/lib/destinations';
import { actor, sendingOptions, startDeliveryHarness, type DeliveryHarness } from './harness';

let h: DeliveryHarness;
const systemAlerts: Alert[] = [];
/** What the receiver answers per path prefix; a path not listed answers 200. */
const answers: Record<string, (res: ServerResponse, n: number) => void> = {
  '/down': (res) => res.writeHead(500).end('receiver is down'),
  '/busy': (res, n) => (n === 1 ? res.writeHead(429, { 'retry-after': '2' }).end('slow down') : res.writeHead(200).end('ok')),
  '/hang': () => undefined,
};
const counts = new Map<string, number>();
const options = sendingOptions({
  http: { allowPrivateNetworks: true, timeoutMs: 500 },
  onSystemAlert: async (alert) => void systemAlerts.push(alert),
});

beforeAll(async () => {
  h = await startDeliveryHarness({
    table: 'delivery',
    handler: ({ path }, res) => {
      const prefix = Object.keys(answers).find((p) => path.startsWith(p));
      counts.set(path, (counts.get(path) ?? 0) + 1);
      if (prefix) answers[prefix](res, counts.get(path)!);
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    },
    sending: options,
    serviceEndpoints: { pagerduty: '/pagerduty' },
  });
});

afterAll(() => h.stop());

const created: string[] = [];
afterEach(async () => {
  for (const id of created.splice(0)) await deleteDestination(id);
  h.received.length = 0;
});

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
  return h.lastChange();
}

describe('delivering an alert', () => {
  it('fans out to one message per destination and delivers within seconds, recording the attempt', async () => {
    const a = await destination('customwebhook', 'CRITICAL', {
      webhookURL: `${h.base}/hook/a`,
      customHeaders: [{ name: 'X-Team', value: 'sec' }],
    });
    const b = await destination('customwebhook', 'CRITICAL', { webhookURL: `${h.base}/hook/b` }, 'Second hook');
    const started = Date.now();
    const change = await alertChange('CRITICAL', 'fanout');
    const fanned = await fanOutAlertChange(change);
    expect(fanned.queued.sort()).toEqual([a.id, b.id].sort());
    const results = await h.drain();
    expect(results.map((r) => r.what)).toEqual(['delivered (200)', 'delivered (200)']);
    expect(h.received.map((r) => r.path).sort()).toEqual(['/hook/a', '/hook/b']);
    expect(Math.max(...h.received.map((r) => r.at)) - started).toBeLessThan(5000);
    const toA = h.received.find((r) => r.path === '/hook/a')!;
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
    await destination('customwebhook', 'LOW', { webhookURL: `${h.base}/once` });
    const change = await alertChange('LOW', 'once');
    await fanOutAlertChange(change);
    await h.drain();
    expect(h.received).toHaveLength(1);
    // The alert change read again (an SQS redelivery): nothing is queued for a change delivered already.
    expect((await fanOutAlertChange(change)).queued).toEqual([]);
    expect(await h.drain()).toEqual([]);
    expect(h.received).toHaveLength(1);
  });
});

describe('a failing destination', () => {
  it('is retried until the last attempt, then the message is a dead letter and one ALERT_DELIVERY alert is raised', async () => {
    const down = await destination('customwebhook', 'MEDIUM', { webhookURL: `${h.base}/down` }, 'Down hook');
    const dlqBefore = h.held('delivery-dlq');
    const change = await alertChange('MEDIUM', 'down');
    await fanOutAlertChange(change);
    const results = await h.drain();
    expect(h.received).toHaveLength(10);
    expect(results).toHaveLength(10);
    expect(results.slice(0, 9).every((r) => !r.done && r.what.startsWith('attempt'))).toBe(true);
    expect(results[9]).toMatchObject({ done: false, what: 'failed after 10 attempts: receiver is down', retryInSeconds: 0 });
    // The next receive moves it to the dead-letter queue (maxReceiveCount 10).
    await h.client.send(new ReceiveMessageCommand({ QueueUrl: h.deliveryUrl, WaitTimeSeconds: 0 }));
    expect(h.held('delivery-dlq')).toBe(dlqBefore + 1);
    const [record] = await alertDeliveries(change.alertId);
    expect(record).toMatchObject({ status: 'FAILED', attempts: 10, lastStatusCode: 500, lastAnswer: 'receiver is down' });
    expect(systemAlerts.filter((a) => a.title === 'Alert delivery to Down hook failed')).toHaveLength(1);
    const raised = systemAlerts.at(-1)!;
    expect(raised).toMatchObject({ systemKind: 'ALERT_DELIVERY', severity: 'HIGH', dedupString: `ALERT_DELIVERY:${down.id}` });
    expect((await alertActivity(change.alertId)).filter((x) => x.kind === 'DELIVERY' && x.ok === false)).toHaveLength(10);

    // A second alert failing to the same destination within the hour raises no second system alert ...
    const second = await alertChange('MEDIUM', 'down-again');
    await fanOutAlertChange(second);
    await h.drain();
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
    await destination('customwebhook', 'INFO', { webhookURL: `${h.base}/busy` });
    const change = await alertChange('INFO', 'busy');
    await fanOutAlertChange(change);
    const [first] = await h.drain({ ...options, retryDelay: undefined }, 1);
    expect(first).toEqual({ done: false, what: 'attempt 1 failed: slow down', retryInSeconds: 2 });
    let [record] = await alertDeliveries(change.alertId);
    expect(record).toMatchObject({ status: 'RETRYING', attempts: 1, lastStatusCode: 429 });
    await new Promise((r) => setTimeout(r, 2100));
    expect((await h.drain()).map((r) => r.what)).toEqual(['delivered (200)']);
    [record] = await alertDeliveries(change.alertId);
    expect(record).toMatchObject({ status: 'DELIVERED', attempts: 2, lastStatusCode: 200 });
  });

  it('fails the attempt of a receiver that hangs, at the timeout, and waits before the next', async () => {
    await destination('customwebhook', 'HIGH', { webhookURL: `${h.base}/hang` });
    const change = await alertChange('HIGH', 'hang');
    await fanOutAlertChange(change);
    const [first] = await h.drain({ ...options, retryDelay: undefined }, 1);
    // The message names the time the attempt had left when it started waiting (1 s; 0 s once the machine was slow).
    expect(first).toMatchObject({ done: false, what: expect.stringMatching(/^attempt 1 failed: Timed out after [01] s$/) });
    expect(first.retryInSeconds).toBeGreaterThanOrEqual(12);
    expect(first.retryInSeconds).toBeLessThanOrEqual(18);
    const [record] = await alertDeliveries(change.alertId);
    expect(record).toMatchObject({ status: 'RETRYING', attempts: 1, lastStatusCode: null });
    await h.client.send(new ReceiveMessageCommand({ QueueUrl: h.deliveryUrl, WaitTimeSeconds: 0 }));
  });
});

describe('updates and retries', () => {
  it('delivers an alert that gained events again to PagerDuty with the same dedup key, and not to a Slack webhook', async () => {
    await destination('pagerduty', 'LOW', { integrationKey: '0123456789abcdef0123456789abcdef' });
    await destination('slack', 'LOW', { webhookURL: `${h.base}/slack` });
    const change = await alertChange('LOW', 'pages');
    await fanOutAlertChange(change);
    await h.drain();
    const joined = await alertChange('LOW', 'pages');
    expect(joined.change).toBe('EVENTS_ADDED');
    await fanOutAlertChange(joined);
    await h.drain();
    const pages = h.received.filter((r) => r.path === '/pagerduty/v2/enqueue');
    expect(pages).toHaveLength(2);
    expect(pages.map((p) => p.body.dedup_key)).toEqual([change.alertId, change.alertId]);
    expect(pages.map((p) => p.body.event_action)).toEqual(['trigger', 'trigger']);
    expect(h.received.filter((r) => r.path === '/slack')).toHaveLength(1);
  });

  it('sends again on retry, recording one more attempt', async () => {
    const hook = await destination('customwebhook', 'INFO', { webhookURL: `${h.base}/retry` }, 'Retry hook');
    const change = await alertChange('INFO', 'retry');
    await fanOutAlertChange(change);
    await h.drain();
    const pending = await retryAlertDelivery(change.alertId, hook.id);
    expect(pending).toMatchObject({ status: 'PENDING', attempts: 1 });
    await h.drain();
    expect(h.received.filter((r) => r.path === '/retry').map((r) => r.body.change)).toEqual(['CREATED', 'RETRY']);
    const [record] = await alertDeliveries(change.alertId);
    expect(record).toMatchObject({ status: 'DELIVERED', attempts: 2 });
    await expect(retryAlertDelivery(change.alertId, '00000000-0000-4000-8000-000000000000')).rejects.toThrow(
      'Destination not found',
    );
  });
});
