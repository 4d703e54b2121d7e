// Backfill of the alert indexes' keys (indexes.ts) on alerts stored before those indexes existed: such alerts
// carry only the old generic list keys (gsi1pk = ALERT#TYPE#<type>, every alert ever stored had it; gsi2 per
// detection, gsi3 by last change) and none of the alert indexes' keys, so no alert list shows them.
//
// The old alerts are reached by the key they all carry (a Query of gsi1 per alert type, page by page; alerts
// written since carry no gsi1 key and already have their index keys). Each one gets the keys alertIndexKeys
// computes (the function create and change use), its lower-case title when it lacks one, and loses the old
// generic keys (nothing reads alerts through gsi1..gsi3 any more; so a repeat reads only what is left).
// Each write is conditional on the alert's change count and revision as read: when a change came between, the
// change already wrote the keys (changeAlert writes all of them), and the alert is skipped. Safe to repeat.
import { QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ALERT_TYPES } from '../../../core/alerts/model';
import { dynamo } from '../clients';
import { isConditionFailure } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';
import { alertIndexKeys } from './indexes';
import { toAlert, type StoredAlert } from './stored';

const OLD_KEYS = ['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk'];
const PAGE = 100;
const CONCURRENT_WRITES = 10;

export interface AlertBackfillResult {
  /** Old alerts read (those still carrying the old list keys). */
  readonly examined: number;
  /** Alerts given their index keys (or rid of the old keys). */
  readonly written: number;
  /** Alerts changed between the read and the write (the change wrote their keys). */
  readonly skipped: number;
}

export interface AlertBackfillOptions {
  /** Defaults to the functions' client (AWS_ENDPOINT_URL_DYNAMODB) and ENTITY_TABLE. */
  readonly client?: DynamoDBDocumentClient;
  readonly table?: string;
}

/** Writes the alert indexes' keys on every alert stored before them (see above). */
export async function backfillAlertIndexes(options: AlertBackfillOptions = {}): Promise<AlertBackfillResult> {
  const client = options.client ?? dynamo();
  const table = options.table ?? requireEnv(ENV.entityTable);
  let examined = 0;
  let written = 0;
  let skipped = 0;
  for (const type of ALERT_TYPES) {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await client.send(
        new QueryCommand({
          TableName: table,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': `ALERT#TYPE#${type}` },
          Limit: PAGE,
          ExclusiveStartKey: start,
        }),
      );
      start = page.LastEvaluatedKey;
      const items = (page.Items ?? []) as StoredAlert[];
      const alerts = items.filter((item) => item.sk === 'ALERT' && item.pk?.startsWith('ALERT#'));
      examined += alerts.length;
      for (let i = 0; i < alerts.length; i += CONCURRENT_WRITES) {
        const outcomes = await Promise.all(
          alerts.slice(i, i + CONCURRENT_WRITES).map((item) => backfillOne(client, table, item)),
        );
        written += outcomes.filter(Boolean).length;
        skipped += outcomes.filter((o) => !o).length;
      }
    } while (start);
  }
  return { examined, written, skipped };
}

async function backfillOne(client: DynamoDBDocumentClient, table: string, item: StoredAlert): Promise<boolean> {
  const alert = toAlert(item);
  const keys = alertIndexKeys(alert);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  Object.entries(keys.set).forEach(([field, value], i) => {
    names[`#s${i}`] = field;
    values[`:s${i}`] = value;
    sets.push(`#s${i} = :s${i}`);
  });
  if (item.titleLower === undefined && typeof alert.title === 'string') {
    names['#tl'] = 'titleLower';
    values[':tl'] = alert.title.toLowerCase();
    sets.push('#tl = :tl');
  }
  const present = item as unknown as Record<string, unknown>;
  const removes = [...keys.remove, ...OLD_KEYS]
    .filter((field) => field in present)
    .map((field, i) => {
      names[`#r${i}`] = field;
      return `#r${i}`;
    });
  // On the alert as read: no change (activitySeq) and no triage (revision) since.
  names['#seq'] = 'activitySeq';
  names['#rev'] = 'revision';
  const conditions = ['attribute_exists(pk)'];
  if (item.activitySeq === undefined) conditions.push('attribute_not_exists(#seq)');
  else {
    values[':seq'] = item.activitySeq;
    conditions.push('#seq = :seq');
  }
  if (item.revision === undefined) conditions.push('attribute_not_exists(#rev)');
  else {
    values[':rev'] = item.revision;
    conditions.push('#rev = :rev');
  }
  try {
    await client.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: `SET ${sets.join(', ')}` + (removes.length ? ` REMOVE ${removes.join(', ')}` : ''),
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
