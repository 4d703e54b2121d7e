// Alerts in the entity table (ENTITY_TABLE).
//
// Keys (every list is a Query, never a Scan):
//   alert     pk = ALERT#<id>  sk = ALERT, and the keys of the alert indexes (one per list filter, indexes.ts)
//   activity  pk = ALERT#<id>  sk = ACTIVITY#<at>#<sequence>   (see activity.ts)
// Every change of an alert goes through changeAlert: one conditional UpdateItem on the alert's activity
// sequence (and, for triage, on the revision the caller saw) that also stores the change's activity item and
// moves the alert in the indexes its change concerns (status, assignee, last change).
// The dedup and limiter items of alert creation live under DEDUP# (see dedup-store.ts). The lists: list.ts.
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AlertActivity } from '../../../core/alerts/activity';
import { dynamo } from '../clients';
import { writeIf } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';
import { ApiError } from '../errors';
import type { Alert } from '../../../core/alerts/model';
import {
  ALERT_NOT_FOUND,
  activityOf,
  compactActivity,
  fullActivity,
  putActivity,
  queryActivity,
  type ActivityInput,
} from './activity';
import { alertIndexKeys } from './indexes';
import { alertKey, toAlert, toStored, type StoredAlert } from './stored';

const table = () => requireEnv(ENV.entityTable);

export { alertKey, toAlert } from './stored';

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
      new PutCommand({
        TableName: table(),
        Item: toStored(alert, compactActivity(activity)),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
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
    // The alert moves in the indexes of what the change sets (status, assignee, last change).
    const keys = alertIndexKeys({ ...alert, ...(planned.set as Partial<Alert>) });
    const change: AlertChangePlan = { ...planned, set: { ...planned.set, ...keys.set } };
    const seq = stored.activitySeq ?? 0;
    const activity = activityOf(id, change.activity, seq + 1);
    const names: Record<string, string> = { '#seq': 'activitySeq', '#last': 'lastActivity' };
    const values: Record<string, unknown> = { ':next': seq + 1, ':last': compactActivity(activity) };
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
    const removes = keys.remove.map((field, i) => {
      names[`#r${i}`] = field;
      return `#r${i}`;
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
            UpdateExpression:
              `SET ${sets.join(', ')}` +
              (adds.length ? ` ADD ${adds.join(', ')}` : '') +
              (removes.length ? ` REMOVE ${removes.join(', ')}` : ''),
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
  const last = stored.lastActivity && fullActivity(stored.lastActivity);
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
 * Answers the alert as it is now, or null when it does not exist (gone meanwhile, or not yet readable).
 */
export async function joinAlert(
  id: string,
  change: { eventCount: number; firstEventAt: string; lastEventAt: string },
  now: string,
): Promise<Alert | null> {
  try {
    const { alert } = await changeAlert(id, (alert) => {
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
    return alert;
  } catch (error) {
    if (error instanceof ApiError && error.errorType === 'NotFound') return null;
    throw error;
  }
}

export {
  ALERT_SORTS,
  alertPositionFor,
  isAlertPosition,
  listAlerts,
  sortKey,
  type AlertFilter,
  type AlertPage,
  type AlertSort,
} from './list';
