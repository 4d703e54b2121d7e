import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alertActivity,
  createSystemAlert,
  describeActivity,
  recordAlertActivity,
  type DeliveryActivityInput,
} from '../../../functions/lib/alerts';
import { startAlertChanges, type AlertChanges } from './alert-changes';
import { startEntityTable } from './entity-table';

let stop: () => Promise<void>;
let changes: AlertChanges;
beforeAll(async () => {
  stop = (await startEntityTable('alert-activity')).stop;
  changes = await startAlertChanges();
});
afterAll(async () => {
  await changes.stop();
  await stop();
});

const raise = (key: string, now = new Date('2026-03-01T10:00:00Z')) =>
  createSystemAlert(
    { kind: 'SOURCE_NO_DATA', title: 'No data', description: 'none', severity: 'LOW', dedupKey: key },
    { now, onCreated: async () => {} },
  );

describe('alert activity', () => {
  it('records the creation and every occurrence that joins', async () => {
    const { alert } = await raise('activity:a');
    await raise('activity:a', new Date('2026-03-01T11:00:00Z'));
    const items = await alertActivity(alert.id);
    expect(items.map((a) => [a.kind, a.eventCount])).toEqual([
      ['CREATED', 1],
      ['EVENTS_ADDED', 1],
    ]);
  });

  it('adds delivery attempts with recordAlertActivity, shown as sentences', async () => {
    const { alert } = await raise('activity:b');
    await recordAlertActivity(alert.id, {
      kind: 'DELIVERY',
      destinationId: 'd1',
      destinationName: 'Slack #sec',
      ok: false,
      statusCode: 500,
      answer: 'x'.repeat(900),
      at: '2026-03-01T10:00:01Z',
    });
    await recordAlertActivity(alert.id, {
      kind: 'DELIVERY',
      destinationId: 'd1',
      destinationName: 'Slack #sec',
      ok: true,
      statusCode: 200,
      at: '2026-03-01T10:00:05Z',
    });
    const items = (await alertActivity(alert.id)).filter((a) => a.kind === 'DELIVERY');
    expect(items).toHaveLength(2);
    expect(items[0].answer).toHaveLength(500);
    expect(describeActivity({ ...items[0], answer: 'Internal error' })).toBe('Delivery to Slack #sec failed: 500 Internal error');
    expect(describeActivity(items[1])).toBe('Delivered to Slack #sec');
  });

  it('refuses an attempt on an alert that does not exist, or a malformed one', async () => {
    await expect(
      recordAlertActivity('nope', { kind: 'DELIVERY', destinationId: 'd', destinationName: 'D', ok: true }),
    ).rejects.toThrow('Alert not found');
    const { alert } = await raise('activity:c');
    await expect(
      recordAlertActivity(alert.id, { kind: 'DELIVERY', destinationId: '', destinationName: 'D', ok: true }),
    ).rejects.toThrow('destinationId is required');
    await expect(recordAlertActivity(alert.id, { kind: 'COMMENT' } as unknown as DeliveryActivityInput)).rejects.toThrow(
      "kind must be 'DELIVERY'",
    );
  });
});
