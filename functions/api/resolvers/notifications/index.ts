// The notification centre's API (graphql/notifications.graphql). Every operation works on the caller's own
// notifications: the user id always comes from the caller, never from the arguments.
import {
  changeNotification,
  changeNotifications,
  isNotificationId,
  listUserNotifications,
  notificationCounts,
  notificationPreferences,
  saveNotificationPreferences,
  unreadNotificationCount,
} from '../../../lib/notifications';
import { toApiNotification } from '../../presenters/notification';
import { connection, decodeCursor, inputOf, pageSizeOf, type PageRule } from '../arguments';
import { defineResolvers } from '../types';

export const NOTIFICATIONS_PAGE: PageRule = { default: 100, max: 500 };

export const notificationResolvers = defineResolvers({
  'Query.notifications': async (event, caller) => {
    const input = inputOf(event);
    const pageSize = pageSizeOf(input.pageSize, NOTIFICATIONS_PAGE);
    const after = decodeCursor(input.cursor, isNotificationId);
    const which = { archived: input.archived === true, unreadOnly: input.unreadOnly === true };
    const page = await listUserNotifications(caller.id, which, pageSize, after);
    return connection(page.items, (n) => n.id, { next: page.lastId, after }, toApiNotification);
  },
  'Query.unreadNotificationCount': (_event, caller) => unreadNotificationCount(caller.id),
  'Query.notificationCounts': (_event, caller) => notificationCounts(caller.id),
  'Query.notificationPreferences': (_event, caller) => notificationPreferences(caller.id),
  'Mutation.putNotificationPreferences': (event, caller) => saveNotificationPreferences(caller.id, inputOf(event).preferences),
  'Mutation.updateNotification': async (event, caller) => toApiNotification(await changeNotification(caller.id, inputOf(event))),
  'Mutation.updateUserNotifications': async (event, caller) => ({
    updated: await changeNotifications(caller.id, inputOf(event)),
  }),
});
