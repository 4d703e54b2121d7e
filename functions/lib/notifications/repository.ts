// Notifications and notification preferences in the entity table (ENTITY_TABLE).
//
// Keys (every list is a Query, newest first with ScanIndexForward false):
//   notification  pk = NOTIF#<userId>  sk = N#<id>
//                 gsi1pk = NOTIF#<userId>#INBOX | NOTIF#<userId>#ARCHIVED   gsi1sk = <id>
//                 gsi2pk = NOTIF#<userId>#UNREAD (only while unread and not archived)  gsi2sk = <id>
//   preferences   pk = NOTIF#<userId>  sk = PREFERENCES  { preferences: [{ topic, channels: [{ name, enabled }] }] }
// An id is `<creation time in ms, 13 digits>-<uuid>`, so ids sort by creation and a user's key is derived
// from the caller and the id alone: nobody reaches another user's notifications by guessing an id.
// "Inbox, all" pages gsi1 INBOX; "Inbox, unread" pages gsi2 (and counts it); "Archived" pages gsi1 ARCHIVED.
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../clients';
import { queryCount } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';
import type {
  NewNotification,
  Notification,
  NotificationChange,
  NotificationLevel,
  NotificationList,
  NotificationScope,
  NotificationTopic,
  TopicPreference,
} from '../../../core/notifications';

const ID_PATTERN = /^\d{13}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const isNotificationId = (value: unknown): value is string => typeof value === 'string' && ID_PATTERN.test(value);

export const newNotificationId = (createdAt: Date) => `${String(createdAt.getTime()).padStart(13, '0')}-${randomUUID()}`;

const partition = (userId: string) => `NOTIF#${userId}`;
const notificationKey = (userId: string, id: string) => ({ pk: partition(userId), sk: `N#${id}` });
const preferencesKey = (userId: string) => ({ pk: partition(userId), sk: 'PREFERENCES' });

const listKey = (userId: string, list: NotificationList) => `${partition(userId)}#${list}`;

interface StoredNotification {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  gsi2pk?: string;
  gsi2sk?: string;
  id: string;
  userId: string;
  topic: NotificationTopic;
  level: NotificationLevel;
  title: string;
  message: string;
  createdAt: string;
  readAt?: string;
  archivedAt?: string;
  alertId?: string;
}

/** The list keys of a notification in a given state. */
function listKeys(userId: string, id: string, state: { readAt?: string | null; archivedAt?: string | null }) {
  return {
    gsi1pk: listKey(userId, state.archivedAt ? 'ARCHIVED' : 'INBOX'),
    gsi1sk: id,
    ...(!state.archivedAt && !state.readAt ? { gsi2pk: listKey(userId, 'UNREAD'), gsi2sk: id } : {}),
  };
}

function toNotification(item: StoredNotification): Notification {
  return {
    id: item.id,
    userId: item.userId,
    topic: item.topic,
    level: item.level,
    title: item.title,
    message: item.message,
    createdAt: item.createdAt,
    readAt: item.readAt ?? null,
    archivedAt: item.archivedAt ?? null,
    alertId: item.alertId ?? null,
  };
}

const table = () => requireEnv(ENV.entityTable);

export async function putNotification(userId: string, input: NewNotification, createdAt = new Date()): Promise<Notification> {
  const id = newNotificationId(createdAt);
  const item: StoredNotification = {
    ...notificationKey(userId, id),
    ...listKeys(userId, id, {}),
    id,
    userId,
    topic: input.topic,
    level: input.level,
    title: input.title,
    message: input.message,
    createdAt: createdAt.toISOString(),
    ...(input.alertId ? { alertId: input.alertId } : {}),
  };
  await dynamo().send(new PutCommand({ TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
  return toNotification(item);
}

export async function getNotification(userId: string, id: string): Promise<Notification | null> {
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: notificationKey(userId, id), ConsistentRead: true }));
  return out.Item ? toNotification(out.Item as StoredNotification) : null;
}

export interface NotificationPage {
  readonly items: Notification[];
  /** The id of the last item when more follow. */
  readonly lastId: string | null;
}

/** The index a list is kept in: the unread part of the inbox in gsi2, the inbox and the archive in gsi1. */
const indexOf = (list: NotificationList) => (list === 'UNREAD' ? 'gsi2' : 'gsi1');

/** The Query of a user's list. */
function listQuery(userId: string, list: NotificationList) {
  const index = indexOf(list);
  return {
    TableName: table(),
    IndexName: index,
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': `${index}pk` },
    ExpressionAttributeValues: { ':pk': listKey(userId, list) },
  };
}

/** One page of a list, newest first, starting after the notification `afterId`. */
export async function listNotifications(
  userId: string,
  list: NotificationList,
  pageSize: number,
  afterId?: string,
): Promise<NotificationPage> {
  const out = await dynamo().send(
    new QueryCommand({
      ...listQuery(userId, list),
      ScanIndexForward: false,
      Limit: pageSize + 1,
      ...(afterId ? { ExclusiveStartKey: startKey(userId, list, afterId) } : {}),
    }),
  );
  const items = ((out.Items ?? []) as StoredNotification[]).map(toNotification);
  const more = items.length > pageSize;
  const page = more ? items.slice(0, pageSize) : items;
  return { items: page, lastId: more ? page[page.length - 1].id : null };
}

function startKey(userId: string, list: NotificationList, afterId: string) {
  const index = indexOf(list);
  return { ...notificationKey(userId, afterId), [`${index}pk`]: listKey(userId, list), [`${index}sk`]: afterId };
}

/** How many notifications a list holds (a keys-only count of its index partition). */
export async function countNotifications(userId: string, list: NotificationList): Promise<number> {
  return queryCount(listQuery(userId, list));
}

const ATTEMPTS = 3;

/**
 * Applies a change to one notification and moves it between lists. The write is conditional on the state it
 * was computed from (no transactions needed): a concurrent change makes it re-read and retry.
 */
export async function updateNotification(
  userId: string,
  id: string,
  change: NotificationChange,
  /** The state the caller just read, saving the first read; a stale one only costs a retry. */
  known?: Notification,
): Promise<Notification | null> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = attempt === 0 && known?.id === id ? known : await getNotification(userId, id);
    if (!current) return null;
    const next = {
      readAt: change.readAt !== undefined ? change.readAt : current.readAt,
      archivedAt: change.archivedAt !== undefined ? change.archivedAt : current.archivedAt,
    };
    if (next.readAt === current.readAt && next.archivedAt === current.archivedAt) return current;
    const keys = listKeys(userId, id, next);
    const set: string[] = ['gsi1pk = :gsi1pk'];
    const remove: string[] = [];
    const values: Record<string, unknown> = { ':gsi1pk': keys.gsi1pk };
    for (const field of ['readAt', 'archivedAt'] as const) {
      if (next[field]) {
        set.push(`${field} = :${field}`);
        values[`:${field}`] = next[field];
      } else remove.push(field);
    }
    if (keys.gsi2pk) {
      set.push('gsi2pk = :gsi2pk', 'gsi2sk = :gsi2sk');
      Object.assign(values, { ':gsi2pk': keys.gsi2pk, ':gsi2sk': keys.gsi2sk });
    } else remove.push('gsi2pk', 'gsi2sk');
    const conditions = ['attribute_exists(pk)'];
    for (const field of ['readAt', 'archivedAt'] as const) {
      if (current[field]) {
        conditions.push(`${field} = :was_${field}`);
        values[`:was_${field}`] = current[field];
      } else conditions.push(`attribute_not_exists(${field})`);
    }
    try {
      const out = await dynamo().send(
        new UpdateCommand({
          TableName: table(),
          Key: notificationKey(userId, id),
          UpdateExpression: `SET ${set.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`,
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toNotification(out.Attributes as StoredNotification);
    } catch (err) {
      if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
    }
  }
  throw new Error(`notification ${id} kept changing while being updated`);
}

const BULK_CONCURRENCY = 8;

/** Applies a change to every notification of a scope that it would change; answers how many changed. */
export async function updateNotifications(userId: string, scope: NotificationScope, change: NotificationChange): Promise<number> {
  // Marking the inbox read only concerns its unread items, which the sparse unread list holds.
  const list: NotificationList = scope === 'INBOX' && change.readAt && change.archivedAt === undefined ? 'UNREAD' : scope;
  // The ids are gathered first: the changed items leave the list being paged.
  const affected: Notification[] = [];
  let afterId: string | undefined;
  do {
    const page = await listNotifications(userId, list, 500, afterId);
    for (const n of page.items) {
      if (
        (change.readAt !== undefined && !!n.readAt !== !!change.readAt) ||
        (change.archivedAt !== undefined && !!n.archivedAt !== !!change.archivedAt)
      )
        affected.push(n);
    }
    afterId = page.lastId ?? undefined;
  } while (afterId);
  let changed = 0;
  for (let i = 0; i < affected.length; i += BULK_CONCURRENCY) {
    const results = await Promise.all(
      affected.slice(i, i + BULK_CONCURRENCY).map((n) => updateNotification(userId, n.id, change, n)),
    );
    changed += results.filter(Boolean).length;
  }
  return changed;
}

export async function getPreferences(userId: string): Promise<TopicPreference[]> {
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: preferencesKey(userId) }));
  return (out.Item?.preferences as TopicPreference[] | undefined) ?? [];
}

export async function putPreferences(userId: string, preferences: readonly TopicPreference[]): Promise<void> {
  await dynamo().send(
    new PutCommand({ TableName: table(), Item: { ...preferencesKey(userId), preferences, updatedAt: new Date().toISOString() } }),
  );
}
