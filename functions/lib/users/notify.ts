// Telling people, through the notification centre: one user what an administrator changed about their account,
// or everyone holding a permission. A user holds a permission through the role their user record names, while
// enabled; a user without a record holds nothing, bar the Admin group's members before the first
// administrator's bootstrap (the guard honours the group for that bootstrap only, bootstrap.ts).
// Needs cognito-idp:ListUsers and cognito-idp:ListUsersInGroup on USER_POOL_ID, and ENTITY_TABLE.
import { ADMIN_ROLE, hasPermissions, type Permission } from '../../../core/permissions';
import { createNotification, notifyUsers, type NewNotification, type Notification } from '../notifications';
import { bootstrapHappened } from './admins';
import { listAdminGroupMembers, listDirectoryUsers } from './directory';
import { getUserRecords } from './records';
import { getRoles } from './roles';

/** Tells a user about a change to their account; a notification that cannot be stored never undoes the change. */
export async function notifyUser(userId: string, title: string, message: string): Promise<void> {
  try {
    await createNotification({ userId, topic: 'SYSTEM_NOTIFICATION', level: 'INFO', title, message });
  } catch (err) {
    console.warn(`Notification for ${userId} not stored: ${(err as Error).message}`);
  }
}

/** The ids of every enabled user whose role holds the permission. */
export async function usersWithPermission(permission: Permission): Promise<string[]> {
  const users = (await listDirectoryUsers()).filter((user) => user.enabled);
  const [records, vouched] = await Promise.all([
    getUserRecords(users.map((user) => user.id)),
    bootstrapHappened().then(async (happened) => new Set(happened ? [] : await listAdminGroupMembers())),
  ]);
  const roleOf = new Map<string, string>();
  for (const { id } of users) {
    const record = records.get(id);
    if (record?.enabled) roleOf.set(id, record.roleId);
    else if (!record && vouched.has(id)) roleOf.set(id, ADMIN_ROLE.id);
  }
  const roles = await getRoles([...roleOf.values()]);
  return [...roleOf].filter(([, roleId]) => hasPermissions(roles.get(roleId)?.permissions, [permission])).map(([id]) => id);
}

export interface NotifyUsersInput extends NewNotification {
  /** Every enabled user whose role holds this permission is notified. */
  readonly permission: Permission;
}

/** Notifies every enabled user holding the permission; answers the notifications created. */
export async function notifyUsersWith({ permission, ...notification }: NotifyUsersInput): Promise<Notification[]> {
  return notifyUsers(await usersWithPermission(permission), notification);
}
