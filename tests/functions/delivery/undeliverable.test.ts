// A delivery the sender itself failed on (not an answer of the destination) at its last attempt: SQS moves it
// to the delivery dead-letter queue next, and the dead-letter check only counts that queue, so the sender raises
// the specification's ALERT_DELIVERY system alert for it (once an hour per destination); before the last
// attempt, or for a message that is not a delivery, nothing is raised. The handler does this in its catch.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { listAlerts, type Alert } from '../../../functions/lib/alerts';
import { MAX_ATTEMPTS, reportUndeliverable } from '../../../functions/lib/delivery';
import { createDestination } from '../../../functions/lib/destinations';
import { handler } from '../../../functions/alert-delivery/sender/handler';
import { startAlertChanges, type AlertChanges } from '../alerts/alert-changes';
import { startEntityTable } from '../alerts/entity-table';

// The sender's own failure: sending throws (as when the table or the queue cannot be reached).
vi.mock('../../../functions/lib/delivery', async (original) => ({
  ...(await original<typeof import('../../../functions/lib/delivery')>()),
  sendQueuedDelivery: vi.fn(async () => {
    throw new Error('the entity table throttled every request');
  }),
}));

let stopTable: () => Promise<void>;
let changes: AlertChanges;
const told: Alert[] = [];
const onSystemAlert = async (alert: Alert) => void told.push(alert);

beforeAll(async () => {
  stopTable = (await startEntityTable('undeliverable')).stop;
  changes = await startAlertChanges();
  Object.assign(process.env, { DESTINATIONS_LOCAL_KEY: randomBytes(32).toString('base64') });
});
afterAll(async () => {
  await changes.stop();
  await stopTable();
});

const body = (destinationId: string, alertId = 'f'.repeat(32)) =>
  JSON.stringify({ kind: 'alert-delivery', alertId, destinationId, change: 'CREATED', changedAt: '2026-03-01T10:00:00.000Z' });
const deliveryAlerts = async () =>
  (await listAlerts({ type: 'SYSTEM_ERROR' }, 50)).items.filter((a) => a.systemKind === 'ALERT_DELIVERY');

describe('a delivery that failed in the sender at its last attempt', () => {
  it('raises ALERT_DELIVERY naming the destination and the reason, once an hour per destination', async () => {
    const hook = await createDestination(
      {
        outputType: 'customwebhook',
        displayName: 'Ops hook',
        defaultForSeverity: ['HIGH'],
        alertTypes: ['ALERT'],
        logTypes: [],
        config: { webhookURL: 'https://hooks.example.com/x' },
      },
      { email: 'admin@caracal.local', username: 'admin' },
    );
    const now = new Date('2026-03-01T10:00:00Z');
    expect(
      await reportUndeliverable({ body: body(hook.id), receiveCount: MAX_ATTEMPTS - 1 }, 'boom', { now, onSystemAlert }),
    ).toBe(false);
    expect(await reportUndeliverable({ body: 'not json', receiveCount: MAX_ATTEMPTS }, 'boom', { now, onSystemAlert })).toBe(
      false,
    );
    expect(await deliveryAlerts()).toEqual([]);

    expect(
      await reportUndeliverable({ body: body(hook.id), receiveCount: MAX_ATTEMPTS }, 'the table was throttled', {
        now,
        onSystemAlert,
      }),
    ).toBe(true);
    const [raised] = await deliveryAlerts();
    expect(raised).toMatchObject({
      systemKind: 'ALERT_DELIVERY',
      severity: 'HIGH',
      title: 'Alert delivery to Ops hook failed',
      dedupString: `ALERT_DELIVERY:${hook.id}`,
    });
    expect(raised.description).toContain(`after ${MAX_ATTEMPTS} attempts (the table was throttled)`);
    expect(told.map((a) => a.id)).toEqual([raised.id]);
    // The same hour: no second alert for the destination.
    expect(await reportUndeliverable({ body: body(hook.id), receiveCount: MAX_ATTEMPTS }, 'again', { now, onSystemAlert })).toBe(
      false,
    );
    expect(await deliveryAlerts()).toHaveLength(1);
  });

  it('is raised by the sender handler when sending throws on the last attempt, and the message stays a failure', async () => {
    const hook = await createDestination(
      {
        outputType: 'slack',
        displayName: 'Night hook',
        defaultForSeverity: ['HIGH'],
        alertTypes: ['ALERT'],
        logTypes: [],
        config: { webhookURL: 'https://hooks.slack.com/services/T0/B0/x' },
      },
      { email: 'admin@caracal.local', username: 'admin' },
    );
    const record = (n: number) => ({
      messageId: `m${n}`,
      receiptHandle: `r${n}`,
      body: body(hook.id, 'e'.repeat(32)),
      attributes: { ApproximateReceiveCount: String(n) },
    });
    expect(await handler({ Records: [record(MAX_ATTEMPTS - 1)] })).toEqual({ batchItemFailures: [{ itemIdentifier: 'm9' }] });
    expect((await deliveryAlerts()).filter((a) => a.title === 'Alert delivery to Night hook failed')).toEqual([]);
    expect(await handler({ Records: [record(MAX_ATTEMPTS)] })).toEqual({ batchItemFailures: [{ itemIdentifier: 'm10' }] });
    const [raised] = (await deliveryAlerts()).filter((a) => a.title === 'Alert delivery to Night hook failed');
    expect(raised.dedupString).toBe(`ALERT_DELIVERY:${hook.id}`);
    expect(raised.description).toContain('(the entity table throttled every request)');
  });
});
