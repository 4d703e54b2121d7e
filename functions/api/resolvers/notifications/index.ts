// The notification centre's API. Every operation works on the caller's own notifications: the user id
// always comes from the caller, never from the arguments.
import type { AppSyncResolverEvent } from '../../../lib/appsync';
import type { Caller } from '../../../lib/auth/caller';
import { ApiError } from '../../../lib/errors';
import { completePreferences, type Notification } from '../../../lib/notifications/model';
import {
  countNotifications,
  getPreferences,
  listNotifications,
  putPreferences,
  updateNotification,
  updateNotifications,
  isNotificationId,
  type NotificationList,
} from '../../../lib/notifications/repository';
import type { ResolverMap } from '../types';
import { connection, decodeCursor, inputOf, pageSizeOf } from '../arguments';
import { changeOf, notificationIdOf, NOTIFICATIONS_PAGE, preferencesOf, UNREAD_ONLY_INBOX } from './input';

export const NOTIFICATION_NOT_FOUND = 'Notification not found';

const toGraphql = (n: Notification) => ({
  id: n.id,
  userId: n.userId,
  topic: n.topic,
  level: n.level,
  title: n.title,
  message: n.message,
  createdAt: n.createdAt,
  readAt: n.readAt,
  archivedAt: n.archivedAt,
  metadata: { alertId: n.alertId },
});

type Input = { input?: Record<string, unknown> };

async function notifications(event: AppSyncResolverEvent<Input>, caller: Caller) {
  const input = inputOf(event);
  const pageSize = pageSizeOf(input.pageSize, NOTIFICATIONS_PAGE);
  const afterId = decodeCursor(input.cursor, isNotificationId);
  const archived = input.archived === true;
  const unreadOnly = input.unreadOnly === true;
  if (archived && unreadOnly) throw new ApiError('InvalidInput', UNREAD_ONLY_INBOX);
  const list: NotificationList = archived ? 'ARCHIVED' : unreadOnly ? 'UNREAD' : 'INBOX';
  const page = await listNotifications(caller.id, list, pageSize, afterId);
  return connection(page.items, (n) => n.id, { next: page.lastId, after: afterId }, toGraphql);
}

async function updateOne(event: AppSyncResolverEvent<Input>, caller: Caller) {
  const input = inputOf(event);
  const change = changeOf(input);
  const id = notificationIdOf(input.id);
  const updated = id ? await updateNotification(caller.id, id, change) : null;
  if (!updated) throw new ApiError('NotFound', NOTIFICATION_NOT_FOUND);
  return toGraphql(updated);
}

async function updateAll(event: AppSyncResolverEvent<Input>, caller: Caller) {
  const input = inputOf(event);
  if (input.scope !== 'INBOX' && input.scope !== 'ARCHIVED')
    throw new ApiError('InvalidInput', 'scope must be INBOX or ARCHIVED');
  return { updated: await updateNotifications(caller.id, input.scope, changeOf(input)) };
}

async function putNotificationPreferences(event: AppSyncResolverEvent<Input>, caller: Caller) {
  const given = preferencesOf(inputOf(event).preferences);
  const current = completePreferences(await getPreferences(caller.id));
  const merged = current.map((p) => {
    const change = given.find((g) => g.topic === p.topic);
    return change ? { topic: p.topic, channels: p.channels.map((c) => change.channels.find((g) => g.name === c.name) ?? c) } : p;
  });
  await putPreferences(caller.id, merged);
  return merged;
}

export const notificationResolvers: ResolverMap = {
  'Query.notifications': notifications,
  'Query.unreadNotificationCount': async (_event, caller) => countNotifications(caller.id, 'UNREAD'),
  'Query.notificationCounts': async (_event, caller) => {
    const [unread, inbox, archived] = await Promise.all(
      (['UNREAD', 'INBOX', 'ARCHIVED'] as const).map((list) => countNotifications(caller.id, list)),
    );
    return { unread, inbox, archived };
  },
  'Query.notificationPreferences': async (_event, caller) => completePreferences(await getPreferences(caller.id)),
  'Mutation.putNotificationPreferences': putNotificationPreferences,
  'Mutation.updateNotification': updateOne,
  'Mutation.updateUserNotifications': updateAll,
};
