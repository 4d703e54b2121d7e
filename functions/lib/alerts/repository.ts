// Alerts in the entity table (ENTITY_TABLE).
//
// Keys (every list is a Query, newest first with ScanIndexForward false; never a Scan):
//   alert   pk = ALERT#<id>  sk = ALERT
//           gsi1pk = ALERT#TYPE#<type>               gsi1sk = <createdAt>#<id>   (the list per alert type)
//           gsi2pk = ALERT#DETECTION#<detectionId>   gsi2sk = <createdAt>#<id>   (the list per detection; absent
//                                                                                 for system alerts)
// A list of every type merges the three type lists (a page from each, newest first). Severity and status
// filters are applied to the queried list (FilterExpression), read page by page until a page is full.
// The dedup and limiter items of alert creation live under DEDUP# (see dedup-store.ts).
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../clients';
import { Conditions, queryItems, writeIf } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';
import { ALERT_TYPES, type Alert, type AlertSeverity, type AlertStatus, type AlertType } from '../../../core/alerts/model';

const table = () => requireEnv(ENV.entityTable);

export const alertKey = (id: string) => ({ pk: `ALERT#${id}`, sk: 'ALERT' });
const typeList = (type: AlertType) => `ALERT#TYPE#${type}`;
const detectionList = (detectionId: string) => `ALERT#DETECTION#${detectionId}`;
/** An alert's place in the lists, newest first (its sort key, and the position a page's cursor holds). */
export const sortKey = (alert: Pick<Alert, 'createdAt' | 'id'>) => `${alert.createdAt}#${alert.id}`;

interface StoredAlert extends Alert {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  gsi2pk?: string;
  gsi2sk?: string;
}

function toStored(alert: Alert): StoredAlert {
  return {
    ...alert,
    ...alertKey(alert.id),
    gsi1pk: typeList(alert.type),
    gsi1sk: sortKey(alert),
    ...(alert.detectionId ? { gsi2pk: detectionList(alert.detectionId), gsi2sk: sortKey(alert) } : {}),
  };
}

function toAlert(item: Record<string, unknown>): Alert {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g1s, gsi2pk: _g2, gsi2sk: _g2s, ...alert } = item as unknown as StoredAlert;
  return alert;
}

/** Writes a new alert; answers false (and writes nothing) when an alert with that id exists already. */
export async function putAlert(alert: Alert): Promise<boolean> {
  return writeIf(() =>
    dynamo().send(new PutCommand({ TableName: table(), Item: toStored(alert), ConditionExpression: 'attribute_not_exists(pk)' })),
  );
}

export async function getAlert(id: string): Promise<Alert | null> {
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: alertKey(id), ConsistentRead: true }));
  return out.Item ? toAlert(out.Item) : null;
}

/** New events joined an existing alert: adds to its count and moves its last event time forward. */
export async function addAlertEvents(id: string, events: number, lastEventAt: string, now: string): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: alertKey(id),
      UpdateExpression: 'ADD eventCount :n SET updatedAt = :now',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':n': events, ':now': now },
    }),
  );
  await writeIf(() =>
    dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: alertKey(id),
        UpdateExpression: 'SET lastEventAt = :t',
        ConditionExpression: 'attribute_exists(pk) AND lastEventAt < :t',
        ExpressionAttributeValues: { ':t': lastEventAt },
      }),
    ),
  );
}

/**
 * Events joined a detection alert's window: its count becomes the window's count (kept when a concurrent
 * writer already set a larger one) and its event times widen to include `firstEventAt`..`lastEventAt`.
 */
export async function joinAlert(
  id: string,
  change: { eventCount: number; firstEventAt: string; lastEventAt: string },
  now: string,
): Promise<void> {
  const steps: [string, string, unknown][] = [
    ['eventCount', '<', change.eventCount],
    ['firstEventAt', '>', change.firstEventAt],
    ['lastEventAt', '<', change.lastEventAt],
  ];
  for (const [field, op, value] of steps)
    await writeIf(() =>
      dynamo().send(
        new UpdateCommand({
          TableName: table(),
          Key: alertKey(id),
          UpdateExpression: 'SET #f = :v, updatedAt = :now',
          ConditionExpression: `attribute_exists(pk) AND #f ${op} :v`,
          ExpressionAttributeNames: { '#f': field },
          ExpressionAttributeValues: { ':v': value, ':now': now },
        }),
      ),
    );
}

export interface AlertFilter {
  readonly type?: AlertType;
  readonly severities?: readonly AlertSeverity[];
  readonly statuses?: readonly AlertStatus[];
  readonly detectionId?: string;
}

export interface AlertPage {
  readonly items: Alert[];
  /** The position after the last item when more follow (opaque to callers). */
  readonly next: string | null;
}

/** One page of alerts, newest first, after the position `after` (from a previous page's `next`). */
export async function listAlerts(filter: AlertFilter, pageSize: number, after?: string): Promise<AlertPage> {
  const lists: { index: 'gsi1' | 'gsi2'; pk: string }[] = filter.detectionId
    ? [{ index: 'gsi2', pk: detectionList(filter.detectionId) }]
    : (filter.type ? [filter.type] : ALERT_TYPES).map((type) => ({ index: 'gsi1' as const, pk: typeList(type) }));
  const typeFilter = filter.detectionId ? filter.type : undefined;
  const found = (await Promise.all(lists.map((list) => queryList(list.index, list.pk, filter, typeFilter, pageSize + 1, after))))
    .flat()
    .sort((a, b) => (sortKey(a) < sortKey(b) ? 1 : sortKey(a) > sortKey(b) ? -1 : 0));
  const items = found.slice(0, pageSize);
  return { items, next: found.length > pageSize ? sortKey(items[items.length - 1]) : null };
}

/** Up to `wanted` matching alerts of one list, newest first, older than `after`. */
async function queryList(
  index: 'gsi1' | 'gsi2',
  pk: string,
  filter: AlertFilter,
  type: AlertType | undefined,
  wanted: number,
  after: string | undefined,
): Promise<Alert[]> {
  const names: Record<string, string> = { '#pk': `${index}pk` };
  const values: Record<string, unknown> = { ':pk': pk };
  if (after) {
    names['#sk'] = `${index}sk`;
    values[':after'] = after;
  }
  const conditions = new Conditions().oneOf('severity', filter.severities).oneOf('status', filter.statuses);
  if (type) conditions.equals('type', type);
  const { items } = await queryItems(
    conditions.filter({
      TableName: table(),
      IndexName: index,
      KeyConditionExpression: after ? '#pk = :pk AND #sk < :after' : '#pk = :pk',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
      Limit: Math.max(wanted, 25),
    }),
    { map: toAlert, until: (found) => found.length >= wanted },
  );
  return items.slice(0, wanted);
}
