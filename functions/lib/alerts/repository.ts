// Alerts in the entity table (ENTITY_TABLE).
//
// Keys (every list is a Query, never a Scan):
//   alert     pk = ALERT#<id>  sk = ALERT
//             gsi1pk = ALERT#TYPE#<type>               gsi1sk = <createdAt>#<id>   (the list per alert type)
//             gsi2pk = ALERT#DETECTION#<detectionId>   gsi2sk = <createdAt>#<id>   (the list per detection; absent
//                                                                                   for system alerts)
//             gsi3pk = ALERT#UPDATED#<type>            gsi3sk = <updatedAt>#<id>   (the list per type by last change)
//   activity  pk = ALERT#<id>  sk = ACTIVITY#<at>#<sequence>   (see activity.ts)
// Every change of an alert goes through changeAlert: one conditional UpdateItem on the alert's activity
// sequence (and, for triage, on the revision the caller saw) that also stores the change's activity item.
// The dedup and limiter items of alert creation live under DEDUP# (see dedup-store.ts).
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AlertActivity } from '../../../core/alerts/activity';
import { dynamo } from '../clients';
import { writeIf } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';
import { ApiError } from '../errors';
import {
  ALERT_SEVERITIES,
  ALERT_TYPES,
  type Alert,
  type AlertSeverity,
  type AlertStatus,
  type AlertType,
} from '../../../core/alerts/model';
import { ALERT_NOT_FOUND, activityOf, putActivity, queryActivity, type ActivityInput } from './activity';

const table = () => requireEnv(ENV.entityTable);

export const alertKey = (id: string) => ({ pk: `ALERT#${id}`, sk: 'ALERT' });
const typeList = (type: AlertType) => `ALERT#TYPE#${type}`;
const detectionList = (detectionId: string) => `ALERT#DETECTION#${detectionId}`;
const updatedList = (type: AlertType) => `ALERT#UPDATED#${type}`;
/** An alert's place in the lists, newest first (its sort key, and the position a page's cursor holds). */
export const sortKey = (alert: Pick<Alert, 'createdAt' | 'id'>) => `${alert.createdAt}#${alert.id}`;

interface StoredAlert extends Alert {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  gsi2pk?: string;
  gsi2sk?: string;
  gsi3pk?: string;
  gsi3sk?: string;
  /** The title in lower case, for the title search. */
  titleLower?: string;
  /** The number of the alert's last change (0 before any). */
  activitySeq?: number;
  /** The activity item of the alert's last change, stored with it (see activity.ts). */
  lastActivity?: AlertActivity;
}

function toStored(alert: Alert, activity: AlertActivity): StoredAlert {
  return {
    ...alert,
    ...alertKey(alert.id),
    gsi1pk: typeList(alert.type),
    gsi1sk: sortKey(alert),
    ...(alert.detectionId ? { gsi2pk: detectionList(alert.detectionId), gsi2sk: sortKey(alert) } : {}),
    gsi3pk: updatedList(alert.type),
    gsi3sk: `${alert.updatedAt}#${alert.id}`,
    titleLower: alert.title.toLowerCase(),
    activitySeq: 1,
    lastActivity: activity,
  };
}

export function toAlert(item: Record<string, unknown> | StoredAlert): Alert {
  const {
    pk: _pk,
    sk: _sk,
    gsi1pk: _g1,
    gsi1sk: _g1s,
    gsi2pk: _g2,
    gsi2sk: _g2s,
    gsi3pk: _g3,
    gsi3sk: _g3s,
    titleLower: _tl,
    activitySeq: _seq,
    lastActivity: _last,
    ...alert
  } = item as unknown as StoredAlert;
  // Alerts stored before triage have neither field.
  return { ...alert, assigneeId: alert.assigneeId ?? null, revision: alert.revision ?? 0 };
}

async function getStored(id: string): Promise<StoredAlert | null> {
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: alertKey(id), ConsistentRead: true }));
  return (out.Item as StoredAlert | undefined) ?? null;
}

/**
 * Writes a new alert with its CREATED activity; answers false (and writes nothing) when an alert with that id
 * exists already.
 */
export async function putAlert(alert: Alert): Promise<boolean> {
  const activity = activityOf(alert.id, { kind: 'CREATED', at: alert.createdAt, eventCount: alert.eventCount }, 1);
  const written = await writeIf(() =>
    dynamo().send(
      new PutCommand({ TableName: table(), Item: toStored(alert, activity), ConditionExpression: 'attribute_not_exists(pk)' }),
    ),
  );
  if (written) await putActivity(activity);
  return written;
}

export async function getAlert(id: string): Promise<Alert | null> {
  const stored = await getStored(id);
  return stored ? toAlert(stored) : null;
}

/** One change of an alert, planned on the alert as read. */
export interface AlertChangePlan {
  /** The attributes the change sets. */
  readonly set: Readonly<Record<string, unknown>>;
  /** Attributes added to (ADD), e.g. the event count. */
  readonly add?: Readonly<Record<string, number>>;
  readonly activity: ActivityInput;
  /** Also require the alert's revision to be this one (a triage change made on what the caller saw). */
  readonly revision?: number;
}

const CHANGE_ATTEMPTS = 10;

/**
 * Changes an alert: reads it, asks `plan` what to change (null: nothing to change; it may throw to refuse), and
 * writes the change with its activity in ONE conditional UpdateItem, on condition that no other change came
 * between (the activity sequence read; the revision, when the plan names one). When another change did come
 * between, plans again on the alert as it is now (so a plan naming a revision then refuses with
 * RevisionConflict). Answers the alert as changed, or as read when there was nothing to change.
 */
export async function changeAlert(
  id: string,
  plan: (alert: Alert) => AlertChangePlan | null,
): Promise<{ alert: Alert; changed: boolean; activity: AlertActivity | null }> {
  for (let attempt = 0; attempt < CHANGE_ATTEMPTS; attempt++) {
    const stored = await getStored(id);
    if (!stored) throw new ApiError('NotFound', ALERT_NOT_FOUND);
    if (stored.lastActivity) await putActivity(stored.lastActivity);
    const alert = toAlert(stored);
    const planned = plan(alert);
    if (!planned) return { alert, changed: false, activity: null };
    // The updated-time list follows the alert's updatedAt.
    const change: AlertChangePlan =
      typeof planned.set.updatedAt === 'string'
        ? { ...planned, set: { ...planned.set, gsi3pk: updatedList(alert.type), gsi3sk: `${planned.set.updatedAt}#${id}` } }
        : planned;
    const seq = stored.activitySeq ?? 0;
    const activity = activityOf(id, change.activity, seq + 1);
    const names: Record<string, string> = { '#seq': 'activitySeq', '#last': 'lastActivity' };
    const values: Record<string, unknown> = { ':next': seq + 1, ':last': activity };
    const sets = ['#seq = :next', '#last = :last'];
    Object.entries(change.set).forEach(([field, value], i) => {
      names[`#s${i}`] = field;
      values[`:s${i}`] = value;
      sets.push(`#s${i} = :s${i}`);
    });
    const adds = Object.entries(change.add ?? {}).map(([field, value], i) => {
      names[`#a${i}`] = field;
      values[`:a${i}`] = value;
      return `#a${i} :a${i}`;
    });
    const conditions = ['attribute_exists(pk)', seq ? '#seq = :seq' : 'attribute_not_exists(#seq)'];
    if (seq) values[':seq'] = seq;
    if (change.revision !== undefined) {
      names['#rev'] = 'revision';
      values[':rev'] = change.revision;
      conditions.push(change.revision ? '#rev = :rev' : '(attribute_not_exists(#rev) OR #rev = :rev)');
    }
    let updated: StoredAlert | undefined;
    const written = await writeIf(() =>
      dynamo()
        .send(
          new UpdateCommand({
            TableName: table(),
            Key: alertKey(id),
            UpdateExpression: `SET ${sets.join(', ')}${adds.length ? ` ADD ${adds.join(', ')}` : ''}`,
            ConditionExpression: conditions.join(' AND '),
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
            ReturnValues: 'ALL_NEW',
          }),
        )
        .then((out) => {
          updated = out.Attributes as StoredAlert;
        }),
    );
    if (written && updated) {
      await putActivity(activity);
      return { alert: toAlert(updated), changed: true, activity };
    }
  }
  throw new ApiError('RevisionConflict', 'The alert kept changing; try again');
}

/** An alert's activity, oldest first, with its last change's item whether or not it was put yet. */
export async function alertActivity(id: string): Promise<AlertActivity[]> {
  const [stored, items] = await Promise.all([getStored(id), queryActivity(id)]);
  if (!stored) throw new ApiError('NotFound', ALERT_NOT_FOUND);
  const last = stored.lastActivity;
  if (last && !items.some((a) => a.id === last.id)) {
    await putActivity(last);
    items.push(last);
    items.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
  return items;
}

/** New events joined an existing alert: adds to its count and moves its last event time forward. */
export async function addAlertEvents(id: string, events: number, lastEventAt: string, now: string): Promise<void> {
  await changeAlert(id, (alert) => ({
    set: { updatedAt: now, ...(lastEventAt > alert.lastEventAt ? { lastEventAt } : {}) },
    add: { eventCount: events },
    activity: { kind: 'EVENTS_ADDED', at: now, eventCount: events },
  }));
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
  // An alert gone meanwhile (or not yet readable) takes no events: nothing to join.
  if (!(await getStored(id))) return;
  await changeAlert(id, (alert) => {
    const set: Record<string, unknown> = {};
    if (change.firstEventAt < alert.firstEventAt) set.firstEventAt = change.firstEventAt;
    if (change.lastEventAt > alert.lastEventAt) set.lastEventAt = change.lastEventAt;
    const added = change.eventCount - alert.eventCount;
    if (added > 0) set.eventCount = change.eventCount;
    if (!Object.keys(set).length) return null;
    return {
      set: { ...set, updatedAt: now },
      activity: { kind: 'EVENTS_ADDED', at: now, eventCount: Math.max(added, 0) },
    };
  });
}

export const ALERT_SORTS = ['createdAt', 'updatedAt', 'severity'] as const;
export type AlertSort = (typeof ALERT_SORTS)[number];

export interface AlertFilter {
  readonly type?: AlertType;
  readonly severities?: readonly AlertSeverity[];
  readonly statuses?: readonly AlertStatus[];
  readonly detectionId?: string;
  /** A user id, or null for alerts nobody is assigned. */
  readonly assigneeId?: string | null;
  readonly logType?: string;
  readonly sourceId?: string;
  /** Created at or after / at or before (ISO 8601). */
  readonly createdFrom?: string;
  readonly createdTo?: string;
  /** Part of the title, any case. */
  readonly title?: string;
  /** Default createdAt. */
  readonly sort?: AlertSort;
  /** Default descending (newest, most severe first). */
  readonly ascending?: boolean;
}

export interface AlertPage {
  readonly items: Alert[];
  /** The position after the last item when more follow (opaque to callers). */
  readonly next: string | null;
}

/** Query pages one list may read for one request before the request answers with what it found and a cursor. */
export const MAX_READS_PER_LIST = 8;

/** An alert's position in a list sorted by `sort` (the cursor of its edge). */
export function alertPositionFor(sort: AlertSort = 'createdAt'): (alert: Alert) => string {
  if (sort === 'updatedAt') return (a) => `${a.updatedAt}#${a.id}`;
  if (sort === 'severity') return (a) => `${ALERT_SEVERITIES.indexOf(a.severity)}|${sortKey(a)}`;
  return sortKey;
}

/** Whether `position` can be a position of a list sorted by `sort`. */
export function isAlertPosition(position: string, sort: AlertSort = 'createdAt'): boolean {
  const timeId = /^\d{4}-\d\d-\d\dT[\d:.]+Z#[^#|]+$/;
  if (sort === 'severity') return /^[0-4]\|/.test(position) && timeId.test(position.slice(2));
  return timeId.test(position);
}

interface ListSource {
  readonly index: 'gsi1' | 'gsi2' | 'gsi3';
  readonly pk: string;
}

/**
 * One page of alerts in the order asked (newest created first by default), after the position `after` (from a
 * previous page's `next`). Every read is a Query on an index (never a Scan): the type lists (gsi1, by created
 * time; gsi3, by updated time) or the detection's list (gsi2); a created-time range is a key condition when the
 * list is by created time; the other filters are FilterExpressions on that Query, read on until the page is
 * full or MAX_READS_PER_LIST pages were read, in which case the page answers what it found with a cursor to go
 * on from. Severity order reads the lists once per severity, most severe first (or least, ascending).
 */
export async function listAlerts(filter: AlertFilter, pageSize: number, after?: string): Promise<AlertPage> {
  const sort = filter.sort ?? 'createdAt';
  if (sort !== 'severity') return listPhase(filter, sort, pageSize, after);
  const order = filter.ascending ? [...ALERT_SEVERITIES].reverse() : [...ALERT_SEVERITIES];
  const wanted = order.filter((sev) => !filter.severities?.length || filter.severities.includes(sev));
  let start = 0;
  let position: string | undefined;
  if (after) {
    const phase = ALERT_SEVERITIES[Number(after[0])];
    start = wanted.indexOf(phase);
    if (start < 0) return { items: [], next: null };
    position = after.slice(2);
  }
  const items: Alert[] = [];
  for (let i = start; i < wanted.length; i++) {
    const severity = wanted[i];
    const page = await listPhase(
      { ...filter, severities: [severity], ascending: false },
      'createdAt',
      pageSize - items.length,
      i === start ? position : undefined,
    );
    items.push(...page.items);
    if (page.next !== null) return { items, next: `${ALERT_SEVERITIES.indexOf(severity)}|${page.next}` };
    if (items.length >= pageSize) {
      // This severity is done and the page is full: go on with the next severity, if any.
      const following = wanted[i + 1];
      return { items, next: following ? `${ALERT_SEVERITIES.indexOf(following)}|${LIST_START}` : null };
    }
  }
  return { items, next: null };
}

/** The position before every other (a severity phase starting from its top). */
const LIST_START = '9999-12-31T23:59:59.999Z#~';

async function listPhase(
  filter: AlertFilter,
  sort: 'createdAt' | 'updatedAt',
  pageSize: number,
  after: string | undefined,
): Promise<AlertPage> {
  const ascending = filter.ascending ?? false;
  if (after === LIST_START) after = undefined;
  const types = filter.type ? [filter.type] : ALERT_TYPES;
  const sources: ListSource[] =
    filter.detectionId && sort === 'createdAt'
      ? [{ index: 'gsi2', pk: detectionList(filter.detectionId) }]
      : types.map((type) =>
          sort === 'updatedAt' ? { index: 'gsi3', pk: updatedList(type) } : { index: 'gsi1', pk: typeList(type) },
        );
  const positionOf = sort === 'updatedAt' ? (a: Alert) => `${a.updatedAt}#${a.id}` : sortKey;
  const lists = await Promise.all(sources.map((source) => queryList(source, filter, sort, pageSize + 1, after)));
  // Where every list has been read to: items beyond the least advanced list's frontier wait for the next page.
  const frontiers = lists.map((l) => l.frontier).filter((f): f is string => f !== null);
  const frontier = frontiers.length ? frontiers.reduce((a, b) => (ascending ? (a < b ? a : b) : a > b ? a : b)) : null;
  const before = (a: string, b: string) => (ascending ? a < b : a > b);
  const found = lists
    .flatMap((l) => l.items)
    .filter((a) => frontier === null || !before(frontier, positionOf(a)))
    .sort((a, b) => (before(positionOf(a), positionOf(b)) ? -1 : before(positionOf(b), positionOf(a)) ? 1 : 0));
  const items = found.slice(0, pageSize);
  if (found.length > pageSize) return { items, next: positionOf(items[items.length - 1]) };
  return { items, next: frontier };
}

/** Up to `wanted` matching alerts of one list after `after`, and how far the list was read (null: to its end). */
async function queryList(
  source: ListSource,
  filter: AlertFilter,
  sort: 'createdAt' | 'updatedAt',
  wanted: number,
  after: string | undefined,
): Promise<{ items: Alert[]; frontier: string | null }> {
  const ascending = filter.ascending ?? false;
  const names: Record<string, string> = { '#pk': `${source.index}pk` };
  const values: Record<string, unknown> = { ':pk': source.pk };
  const keys = ['#pk = :pk'];
  const filters = new Filters();
  // The created-time range (and the cursor) as key conditions where the list is by created time.
  let low: string | undefined;
  let high: string | undefined;
  if (sort === 'createdAt') {
    if (filter.createdFrom) low = filter.createdFrom;
    if (filter.createdTo) high = `${filter.createdTo}#~`;
  } else {
    if (filter.createdFrom) filters.add('#createdAt >= :from', { '#createdAt': 'createdAt' }, { ':from': filter.createdFrom });
    if (filter.createdTo) filters.add('#createdAt <= :to', { '#createdAt': 'createdAt' }, { ':to': filter.createdTo });
  }
  if (after) {
    if (ascending) low = low === undefined || after > low ? `${after}\u0000` : low;
    else high = high === undefined || after < high ? after : high;
  }
  if (low !== undefined || high !== undefined) names['#sk'] = `${source.index}sk`;
  if (low !== undefined && high !== undefined) {
    keys.push('#sk BETWEEN :low AND :high');
    values[':low'] = low;
    values[':high'] = high;
  } else if (low !== undefined) {
    keys.push('#sk >= :low');
    values[':low'] = low;
  } else if (high !== undefined) {
    keys.push('#sk < :high');
    values[':high'] = high;
  }
  if (filter.type && source.index === 'gsi2') filters.add('#type = :type', { '#type': 'type' }, { ':type': filter.type });
  filters.oneOf('severity', filter.severities);
  filters.oneOf('status', filter.statuses);
  if (filter.detectionId && source.index !== 'gsi2')
    filters.add('#detectionId = :detectionId', { '#detectionId': 'detectionId' }, { ':detectionId': filter.detectionId });
  if (filter.assigneeId === null)
    filters.add(
      '(attribute_not_exists(#assignee) OR attribute_type(#assignee, :null))',
      { '#assignee': 'assigneeId' },
      { ':null': 'NULL' },
    );
  else if (filter.assigneeId)
    filters.add('#assignee = :assignee', { '#assignee': 'assigneeId' }, { ':assignee': filter.assigneeId });
  if (filter.logType) filters.add('contains(#logTypes, :logType)', { '#logTypes': 'logTypes' }, { ':logType': filter.logType });
  if (filter.sourceId) filters.add('#sourceId = :sourceId', { '#sourceId': 'sourceId' }, { ':sourceId': filter.sourceId });
  if (filter.title)
    filters.add(
      '(contains(#titleLower, :titleLower) OR contains(#title, :title))',
      { '#titleLower': 'titleLower', '#title': 'title' },
      { ':titleLower': filter.title.toLowerCase(), ':title': filter.title },
    );
  const items: Alert[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  let lastSeen: string | null = null;
  for (let reads = 0; reads < MAX_READS_PER_LIST; reads++) {
    const out = await dynamo().send(
      new QueryCommand({
        TableName: table(),
        IndexName: source.index,
        KeyConditionExpression: keys.join(' AND '),
        ...(filters.expression ? { FilterExpression: filters.expression } : {}),
        ExpressionAttributeNames: { ...names, ...filters.names },
        ExpressionAttributeValues: { ...values, ...filters.values },
        ScanIndexForward: ascending,
        Limit: Math.max(wanted, 50),
        ExclusiveStartKey,
      }),
    );
    // A BETWEEN key condition holds its bounds: the item at `after` was on the previous page.
    for (const item of out.Items ?? []) if (item[`${source.index}sk`] !== after) items.push(toAlert(item));
    ExclusiveStartKey = out.LastEvaluatedKey;
    if (!ExclusiveStartKey) return { items: items.slice(0, wanted), frontier: null };
    lastSeen = ExclusiveStartKey[`${source.index}sk`] as string;
    if (items.length >= wanted) break;
  }
  if (items.length >= wanted) {
    const kept = items.slice(0, wanted);
    return {
      items: kept,
      frontier:
        sort === 'updatedAt' ? `${kept[kept.length - 1].updatedAt}#${kept[kept.length - 1].id}` : sortKey(kept[kept.length - 1]),
    };
  }
  return { items, frontier: lastSeen };
}

/** FilterExpression parts with their placeholders. */
class Filters {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  private readonly parts: string[] = [];

  add(part: string, names: Record<string, string>, values: Record<string, unknown>): this {
    this.parts.push(part);
    Object.assign(this.names, names);
    Object.assign(this.values, values);
    return this;
  }

  oneOf(attribute: string, list: readonly unknown[] | undefined): this {
    if (!list?.length) return this;
    const values: Record<string, unknown> = {};
    list.forEach((v, i) => (values[`:${attribute}${i}`] = v));
    return this.add(`#${attribute} IN (${Object.keys(values).join(', ')})`, { [`#${attribute}`]: attribute }, values);
  }

  get expression(): string | undefined {
    return this.parts.length ? this.parts.join(' AND ') : undefined;
  }
}
