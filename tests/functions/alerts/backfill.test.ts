// The alert indexes' backfill: alerts stored before the indexes (old generic list keys only) are listed after
// it, with the keys create/change write; a repeat writes nothing; an alert changed between the backfill's read
// and its write is skipped (the change wrote its keys).
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../../core/alerts/model';
import { backfillAlertIndexes } from '../../../functions/lib/alerts';
import { alertIndexKeys, isIndexKey } from '../../../functions/lib/alerts/indexes';
import { changeAlert, listAlerts } from '../../../functions/lib/alerts/repository';
import { dynamo } from '../../../functions/lib/clients';
import type { DynamoService } from '../../../local/services/dynamodb';
import { startEntityTable } from './entity-table';

let service: DynamoService;
beforeAll(async () => {
  service = await startEntityTable('backfill-entities');
});
afterAll(() => service?.stop());

function oldAlert(n: number, over: Partial<Alert> = {}): Alert {
  const at = new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString();
  return {
    id: `old-${String(n).padStart(3, '0')}`,
    type: 'ALERT',
    title: `Old Alert ${n}`,
    severity: n % 2 ? 'HIGH' : 'LOW',
    status: 'OPEN',
    detectionId: 'det-1',
    systemKind: null,
    sourceId: null,
    description: null,
    logTypes: ['AWS.CloudTrail'],
    eventCount: 1,
    firstEventAt: at,
    lastEventAt: at,
    createdAt: at,
    updatedAt: at,
    dedupString: `d${n}`,
    alertContext: null,
    runbook: null,
    reference: null,
    signalsTable: 'aws_cloudtrail',
    assigneeId: null,
    revision: 0,
    ...over,
  };
}

/** An alert as stored before the alert indexes: the generic list keys, no index keys, no revision. */
async function putOld(alert: Alert): Promise<void> {
  const { revision: _revision, ...rest } = alert;
  const sortKey = `${alert.createdAt}#${alert.id}`;
  await dynamo().send(
    new PutCommand({
      TableName: 'backfill-entities',
      Item: {
        ...rest,
        pk: `ALERT#${alert.id}`,
        sk: 'ALERT',
        gsi1pk: `ALERT#TYPE#${alert.type}`,
        gsi1sk: sortKey,
        ...(alert.detectionId ? { gsi2pk: `ALERT#DETECTION#${alert.detectionId}`, gsi2sk: sortKey } : {}),
        gsi3pk: `ALERT#UPDATED#${alert.type}`,
        gsi3sk: `${alert.updatedAt}#${alert.id}`,
        titleLower: alert.title.toLowerCase(),
        activitySeq: 1,
      },
    }),
  );
}

const stored = async (id: string) =>
  (await dynamo().send(new GetCommand({ TableName: 'backfill-entities', Key: { pk: `ALERT#${id}`, sk: 'ALERT' } }))).Item!;

describe('backfillAlertIndexes', () => {
  it('makes alerts stored without index keys listable, with the keys create/change write; a repeat writes nothing', async () => {
    const olds = Array.from({ length: 230 }, (_, n) =>
      oldAlert(n, n % 10 === 0 ? { type: 'SYSTEM_ERROR', detectionId: null, sourceId: 'src-1', logTypes: [] } : {}),
    );
    for (let i = 0; i < olds.length; i += 25) await Promise.all(olds.slice(i, i + 25).map(putOld));
    // Before: no list shows them.
    expect((await listAlerts({}, 50)).items).toHaveLength(0);
    expect((await listAlerts({ type: 'SYSTEM_ERROR' }, 50)).items).toHaveLength(0);

    const first = await backfillAlertIndexes();
    expect(first).toEqual({ examined: 230, written: 230, skipped: 0 });

    const all: Alert[] = [];
    let after: string | undefined;
    do {
      const page = await listAlerts({ type: 'ALERT' }, 100, after);
      all.push(...page.items);
      after = page.next ?? undefined;
    } while (after);
    expect(all).toHaveLength(207);
    expect((await listAlerts({ type: 'SYSTEM_ERROR', sourceId: 'src-1' }, 50)).items).toHaveLength(23);
    expect((await listAlerts({ type: 'ALERT', severities: ['HIGH'], statuses: ['OPEN'] }, 200)).items).toHaveLength(115);
    expect((await listAlerts({ type: 'ALERT', title: 'alert 7' }, 200)).items.map((a) => a.id)).toContain('old-007');

    // The item carries exactly the keys alertIndexKeys computes, and no old generic key.
    const item = await stored('old-010');
    const expected = alertIndexKeys({ ...olds[10] });
    for (const [k, v] of Object.entries(expected.set)) expect(item[k]).toBe(v);
    for (const k of expected.remove) expect(item[k]).toBeUndefined();
    expect(Object.keys(item).filter((k) => k.startsWith('gsi'))).toEqual([]);
    expect(Object.keys(item).filter(isIndexKey).sort()).toEqual(Object.keys(expected.set).sort());

    // Safe to repeat: the old alerts are no longer in the generic list the backfill reads.
    expect(await backfillAlertIndexes()).toEqual({ examined: 0, written: 0, skipped: 0 });
  });

  it('skips an alert changed between its read and its write (the change wrote its keys)', async () => {
    const alert = oldAlert(500, { id: 'raced', severity: 'CRITICAL' });
    await putOld(alert);
    const real = dynamo();
    let raced = false;
    const client = {
      send: async (command: Parameters<DynamoDBDocumentClient['send']>[0]) => {
        if (command.constructor.name === 'UpdateCommand' && !raced) {
          raced = true;
          await changeAlert('raced', () => ({
            set: { status: 'TRIAGED', updatedAt: '2026-02-01T00:00:00.000Z' },
            activity: { kind: 'STATUS_CHANGED', at: '2026-02-01T00:00:00.000Z', from: 'OPEN', to: 'TRIAGED' },
          }));
        }
        return real.send(command as never);
      },
    } as unknown as DynamoDBDocumentClient;
    expect(await backfillAlertIndexes({ client })).toEqual({ examined: 1, written: 0, skipped: 1 });
    const listed = await listAlerts({ type: 'ALERT', statuses: ['TRIAGED'], severities: ['CRITICAL'] }, 10);
    expect(listed.items.map((a) => a.id)).toEqual(['raced']);
    // A repeat finds the change's keys in place and only drops the old generic keys.
    expect(await backfillAlertIndexes()).toEqual({ examined: 1, written: 1, skipped: 0 });
    expect(Object.keys(await stored('raced')).filter((k) => k.startsWith('gsi'))).toEqual([]);
    expect((await stored('raced')).aSpk).toBe('A#ALERT#TRIAGED');
  });
});
