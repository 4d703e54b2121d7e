// The notification centre: each user's notifications, raised by other areas (createNotification for one user,
// notifyUsers for several) and listed, counted and changed by their owner, and each user's preferences. A
// notification honours its recipient's preferences (IN_APP per topic, on unless turned off). Every service
// takes the user whose notifications it works on: the caller's own id, never one from a request's arguments.
// A caller's Lambda needs ENTITY_TABLE (read/write).
import {
  channelEnabled,
  completePreferences,
  isLevel,
  isTopic,
  mergePreferences,
  MESSAGE_MAX,
  NOTIFICATION_NOT_FOUND,
  NOTIFICATION_SCOPES,
  SCOPE_REQUIRED,
  TITLE_MAX,
  UNREAD_ONLY_INBOX,
  type NewNotification,
  type Notification,
  type NotificationScope,
  type TopicPreference,
} from '../../../core/notifications';
import { ApiError } from '../errors';
import { changeOf, notificationIdOf, preferencesOf } from './input';
import {
  countNotifications,
  getPreferences,
  listNotifications,
  putNotification,
  putPreferences,
  updateNotification,
  updateNotifications,
  type NotificationPage,
} from './repository';

export * from '../../../core/notifications';
export { isNotificationId, type NotificationPage } from './repository';

/** A change as asked (the API's input): a timestamp sets, null unsets, absent keeps; checked by changeOf. */
export type ChangeInput = { readonly readAt?: string | null; readonly archivedAt?: string | null };

export interface CreateNotificationInput extends NewNotification {
  readonly userId: string;
}

function normalise(input: NewNotification): NewNotification {
  if (!isTopic(input.topic)) throw new Error(`Unknown notification topic: ${String(input.topic)}`);
  if (!isLevel(input.level)) throw new Error(`Unknown notification level: ${String(input.level)}`);
  const title = String(input.title ?? '').trim();
  if (!title) throw new Error('A notification needs a title');
  return {
    topic: input.topic,
    level: input.level,
    title: title.slice(0, TITLE_MAX),
    message: String(input.message ?? '').slice(0, MESSAGE_MAX),
    ...(input.alertId ? { alertId: String(input.alertId) } : {}),
  };
}

/** Stores a notification for one user; null when the user turned that topic's in-app notifications off. */
export async function createNotification(input: CreateNotificationInput): Promise<Notification | null> {
  if (!input.userId) throw new Error('A notification needs a userId');
  const notification = normalise(input);
  const preferences = await getPreferences(input.userId);
  if (!channelEnabled(preferences, notification.topic, 'IN_APP')) return null;
  return putNotification(input.userId, notification);
}

/** Stores one notification for each of these users; answers the notifications created. */
export async function notifyUsers(userIds: readonly string[], input: NewNotification): Promise<Notification[]> {
  const notification = normalise(input);
  const created = await Promise.all(userIds.map((userId) => createNotification({ ...notification, userId })));
  return created.filter((n): n is Notification => n !== null);
}

/** One page of a user's inbox (all of it, or its unread part) or archive, newest first, after `afterId`. */
export async function listUserNotifications(
  userId: string,
  which: { readonly archived: boolean; readonly unreadOnly: boolean },
  pageSize: number,
  afterId: string | undefined,
): Promise<NotificationPage> {
  if (which.archived && which.unreadOnly) throw new ApiError('InvalidInput', UNREAD_ONLY_INBOX);
  return listNotifications(userId, which.archived ? 'ARCHIVED' : which.unreadOnly ? 'UNREAD' : 'INBOX', pageSize, afterId);
}

export const unreadNotificationCount = (userId: string): Promise<number> => countNotifications(userId, 'UNREAD');

export async function notificationCounts(userId: string): Promise<{ unread: number; inbox: number; archived: number }> {
  const [unread, inbox, archived] = await Promise.all(
    (['UNREAD', 'INBOX', 'ARCHIVED'] as const).map((list) => countNotifications(userId, list)),
  );
  return { unread, inbox, archived };
}

/** Marks one of the user's notifications read or unread, archived or not (`input`: id, readAt, archivedAt). */
export async function changeNotification(userId: string, input: ChangeInput & { readonly id: string }): Promise<Notification> {
  const change = changeOf(input);
  const id = notificationIdOf(input.id);
  const updated = id ? await updateNotification(userId, id, change) : null;
  if (!updated) throw new ApiError('NotFound', NOTIFICATION_NOT_FOUND);
  return updated;
}

/** Applies a change to every notification of the inbox or the archive (`input`: scope, readAt, archivedAt). */
export async function changeNotifications(
  userId: string,
  input: ChangeInput & { readonly scope: NotificationScope },
): Promise<number> {
  if (!(NOTIFICATION_SCOPES as readonly unknown[]).includes(input.scope)) throw new ApiError('InvalidInput', SCOPE_REQUIRED);
  return updateNotifications(userId, input.scope, changeOf(input));
}

/** A user's preferences, every topic and channel, the ones never saved on. */
export async function notificationPreferences(userId: string): Promise<TopicPreference[]> {
  return completePreferences(await getPreferences(userId));
}

/** Saves the given topics' channel settings; the others keep theirs. Answers every preference. */
export async function saveNotificationPreferences(userId: string, given: readonly TopicPreference[]): Promise<TopicPreference[]> {
  const preferences = preferencesOf(given);
  const merged = mergePreferences(await getPreferences(userId), preferences);
  await putPreferences(userId, merged);
  return merged;
}
