// Notifications for other areas to raise: one user (createNotification) or everyone holding a permission
// (notifyUsersWith). Each honours the recipient's preferences (IN_APP per topic, on unless turned off).
// A caller's Lambda needs ENTITY_TABLE (read/write) and, for notifyUsersWith, USER_POOL_ID with
// cognito-idp:ListUsers and cognito-idp:ListUsersInGroup.
import type { Permission } from '../../../core/permissions';
import { channelEnabled, isLevel, isTopic, MESSAGE_MAX, TITLE_MAX, type NewNotification, type Notification } from './model';
import { usersWithPermission } from './recipients';
import { getPreferences, putNotification } from './repository';

export * from './model';

export interface CreateNotificationInput extends NewNotification {
  readonly userId: string;
}

export interface NotifyUsersInput extends NewNotification {
  /** Every enabled user whose role holds this permission is notified. */
  readonly permission: Permission;
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

/** Notifies every enabled user holding the permission; answers the notifications created. */
export async function notifyUsersWith(input: NotifyUsersInput): Promise<Notification[]> {
  const notification = normalise(input);
  const userIds = await usersWithPermission(input.permission);
  const created = await Promise.all(userIds.map((userId) => createNotification({ ...notification, userId })));
  return created.filter((n): n is Notification => n !== null);
}
