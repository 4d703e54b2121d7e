import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alertActivity,
  createSystemAlert,
  describeActivity,
  recordAlertActivity,
  type DeliveryActivityInput,
} from '../../../functions/lib/alerts';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../../functions/lib/clients';
import { changeAlert } from '../../../functions/lib/alerts/repository';
import { queryActivity } from '../../../functions/lib/alerts/activity';
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

describe('history and state together', () => {
  it('keeps a change in the history even when its activity item was lost after the write', async () => {
    const { alert } = await raise('activity:d');
    const first = await changeAlert(alert.id, () => ({
      set: { status: 'TRIAGED', revision: 1 },
      activity: { kind: 'STATUS_CHANGED', at: '2026-03-01T10:05:00.000Z', from: 'OPEN', to: 'TRIAGED' },
      revision: 0,
    }));
    // As if the process stopped between the alert's update and the activity item's put.
    await dynamo().send(
      new DeleteCommand({
        TableName: process.env.ENTITY_TABLE,
        Key: { pk: `ALERT#${alert.id}`, sk: `ACTIVITY#${first.activity!.id}` },
      }),
    );
    expect((await queryActivity(alert.id)).map((a) => a.kind)).toEqual(['CREATED']);
    // The alert carries its last change: reading the history puts it back.
    expect((await alertActivity(alert.id)).map((a) => a.kind)).toEqual(['CREATED', 'STATUS_CHANGED']);
    expect((await queryActivity(alert.id)).map((a) => a.kind)).toEqual(['CREATED', 'STATUS_CHANGED']);

    // And the next change puts the previous one before it replaces it on the alert.
    const second = await changeAlert(alert.id, () => ({
      set: { status: 'RESOLVED', revision: 2 },
      activity: { kind: 'STATUS_CHANGED', at: '2026-03-01T10:06:00.000Z', from: 'TRIAGED', to: 'RESOLVED' },
      revision: 1,
    }));
    await dynamo().send(
      new DeleteCommand({
        TableName: process.env.ENTITY_TABLE,
        Key: { pk: `ALERT#${alert.id}`, sk: `ACTIVITY#${second.activity!.id}` },
      }),
    );
    await changeAlert(alert.id, () => ({
      set: {},
      activity: { kind: 'COMMENT', at: '2026-03-01T10:07:00.000Z', text: 'done' },
    }));
    expect((await queryActivity(alert.id)).map((a) => a.to ?? a.kind)).toEqual(['CREATED', 'TRIAGED', 'RESOLVED', 'COMMENT']);
  });

  it('refuses a change planned on a revision that moved, writing nothing', async () => {
    const { alert } = await raise('activity:e');
    await changeAlert(alert.id, () => ({
      set: { revision: 1 },
      activity: { kind: 'ASSIGNEE_CHANGED', at: '2026-03-01T10:01:00.000Z' },
      revision: 0,
    }));
    await expect(
      changeAlert(alert.id, (current) => {
        if (current.revision !== 0) throw new Error('changed');
        return { set: { revision: 1 }, activity: { kind: 'ASSIGNEE_CHANGED', at: '2026-03-01T10:02:00.000Z' }, revision: 0 };
      }),
    ).rejects.toThrow('changed');
    expect((await alertActivity(alert.id)).map((a) => a.kind)).toEqual(['CREATED', 'ASSIGNEE_CHANGED']);
  });
});
