import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../../functions/lib/clients';
import { createSystemAlert, getAlert, listAlerts, type Alert } from '../../../functions/lib/alerts';
import { startAlertChanges, type AlertChanges } from './alert-changes';
import { startEntityTable } from './entity-table';

let stop: () => Promise<void>;
let changes: AlertChanges;
beforeAll(async () => {
  stop = (await startEntityTable('system-alerts')).stop;
  changes = await startAlertChanges();
});
afterAll(async () => {
  await changes.stop();
  await stop();
});

const told: Alert[] = [];
const onCreated = async (alert: Alert) => {
  told.push(alert);
};
const input = {
  kind: 'SOURCE_NO_DATA' as const,
  title: 'Source "web" has not received data for 1 hour',
  description: 'No events since 10:00',
  severity: 'MEDIUM' as const,
  sourceId: 'src-1',
  dedupKey: 'SOURCE_NO_DATA:src-1',
};

describe('createSystemAlert', () => {
  it('opens one alert per dedup key and counts repeats on it while it is open', async () => {
    const first = await createSystemAlert(input, { now: new Date('2026-01-01T10:00:00Z'), onCreated });
    const second = await createSystemAlert(input, { now: new Date('2026-01-01T11:00:00Z'), onCreated });
    expect(first.created).toBe(true);
    expect(second.created).toBe(false);
    expect(second.alert.id).toBe(first.alert.id);
    expect(second.alert.eventCount).toBe(2);
    expect(second.alert.lastEventAt).toBe('2026-01-01T11:00:00.000Z');
    expect(first.alert).toMatchObject({ type: 'SYSTEM_ERROR', systemKind: 'SOURCE_NO_DATA', status: 'OPEN', sourceId: 'src-1' });
    expect(told.map((a) => a.id)).toEqual([first.alert.id]);
  });

  it('opens a new alert once the previous one is resolved', async () => {
    const open = await createSystemAlert(input, { onCreated });
    await dynamo().send(
      new UpdateCommand({
        TableName: 'system-alerts',
        Key: { pk: `ALERT#${open.alert.id}`, sk: 'ALERT' },
        UpdateExpression: 'SET #s = :s',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': 'RESOLVED' },
      }),
    );
    const next = await createSystemAlert(input, { onCreated });
    expect(next.created).toBe(true);
    expect(next.alert.id).not.toBe(open.alert.id);
    expect((await getAlert(open.alert.id))?.status).toBe('RESOLVED');
  });

  it('concurrent raises of a new key open exactly one alert', async () => {
    const key = { ...input, dedupKey: 'SOURCE_NO_DATA:src-2', sourceId: 'src-2' };
    const results = await Promise.all(Array.from({ length: 5 }, () => createSystemAlert(key, { onCreated })));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.alert.id)).size).toBe(1);
    expect((await getAlert(results[0].alert.id))?.eventCount).toBe(5);
    const told = changes.published().filter((m) => m.alertId === results[0].alert.id);
    expect(told.map((m) => m.change).sort()).toEqual(['CREATED', 'EVENTS_ADDED', 'EVENTS_ADDED', 'EVENTS_ADDED', 'EVENTS_ADDED']);
  });

  it('lists system alerts newest first, by type and status', async () => {
    const page = await listAlerts({ type: 'SYSTEM_ERROR', statuses: ['OPEN'] }, 10);
    expect(page.items.every((a) => a.type === 'SYSTEM_ERROR' && a.status === 'OPEN')).toBe(true);
    const times = page.items.map((a) => a.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('publishes every raise: the alert created, then events added while it is open', async () => {
    const key = { ...input, dedupKey: 'SOURCE_NO_DATA:src-changes', sourceId: 'src-changes' };
    const before = changes.published().length;
    const first = await createSystemAlert(key, { now: new Date('2026-01-02T10:00:00Z'), onCreated });
    await createSystemAlert(key, { now: new Date('2026-01-02T11:00:00Z'), onCreated });
    expect(changes.published().slice(before)).toEqual([
      {
        kind: 'alert-changed',
        change: 'CREATED',
        alertId: first.alert.id,
        alertType: 'SYSTEM_ERROR',
        changedAt: '2026-01-02T10:00:00.000Z',
      },
      {
        kind: 'alert-changed',
        change: 'EVENTS_ADDED',
        alertId: first.alert.id,
        alertType: 'SYSTEM_ERROR',
        changedAt: '2026-01-02T11:00:00.000Z',
      },
    ]);
  });
});
