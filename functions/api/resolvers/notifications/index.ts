// The notification centre's API (graphql/notifications.graphql). Every operation works on the caller's own
// notifications: the user id always comes from the caller, never from the arguments.
import type { AppSyncResolverEvent } from '../../../lib/appsync';
import type { Caller } from '../../../lib/auth';
import {
  changeNotification,
  changeNotifications,
  isNotificationId,
  listUserNotifications,
  notificationCounts,
  notificationPreferences,
  saveNotificationPreferences,
  unreadNotificationCount,
  type Notification,
} from '../../../lib/notifications';
import { connection, decodeCursor, inputOf, pageSizeOf, type Args, type PageRule } from '../arguments';
import type { ResolverMap } from '../types';

export const NOTIFICATIONS_PAGE: PageRule = { default: 100, max: 500 };

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

async function notifications(event: AppSyncResolverEvent<Args>, caller: Caller) {
  const input = inputOf(event);
  const pageSize = pageSizeOf(input.pageSize, NOTIFICATIONS_PAGE);
  const after = decodeCursor(input.cursor, isNotificationId);
  const which = { archived: input.archived === true, unreadOnly: input.unreadOnly === true };
  const page = await listUserNotifications(caller.id, which, pageSize, after);
  return connection(page.items, (n) => n.id, { next: page.lastId, after }, toGraphql);
}

export const notificationResolvers: ResolverMap = {
  'Query.notifications': notifications,
  'Query.unreadNotificationCount': (_event, caller) => unreadNotificationCount(caller.id),
  'Query.notificationCounts': (_event, caller) => notificationCounts(caller.id),
  'Query.notificationPreferences': (_event, caller) => notificationPreferences(caller.id),
  'Mutation.putNotificationPreferences': (event, caller) => saveNotificationPreferences(caller.id, inputOf(event).preferences),
  'Mutation.updateNotification': async (event, caller) => toGraphql(await changeNotification(caller.id, inputOf(event))),
  'Mutation.updateUserNotifications': async (event, caller) => ({
    updated: await changeNotifications(caller.id, inputOf(event)),
  }),
};
