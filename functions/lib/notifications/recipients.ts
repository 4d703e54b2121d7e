// Who holds a permission: every enabled user of the user pool whose role grants it. The user pool is the
// directory (ListUsers, paged); the entity table holds each user's role (USER#<sub>, see ../auth/caller.ts).
// A user with no user record yet (the first administrator, created by the deployment) takes the Admin role
// from membership of the Cognito group of that name, as the guard does.
// Needs cognito-idp:ListUsers and cognito-idp:ListUsersInGroup on USER_POOL_ID, and read on ENTITY_TABLE.
import { ListUsersCommand, ListUsersInGroupCommand, type UserType } from '@aws-sdk/client-cognito-identity-provider';
import { BatchGetCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { ADMIN_ROLE, hasPermissions, isPermission, withImpliedReads, type Permission } from '../../../core/permissions';
import { roleKey, userKey } from '../auth/caller';
import { cognito, dynamo } from '../clients';
import { ENV, requireEnv } from '../env';

interface DirectoryUser {
  readonly id: string;
  readonly enabled: boolean;
}

const subOf = (user: UserType) => user.Attributes?.find((a) => a.Name === 'sub')?.Value ?? user.Username;

async function directoryUsers(UserPoolId: string): Promise<DirectoryUser[]> {
  const users: DirectoryUser[] = [];
  let PaginationToken: string | undefined;
  do {
    const page = await cognito().send(new ListUsersCommand({ UserPoolId, PaginationToken, Limit: 60 }));
    for (const user of page.Users ?? []) {
      const id = subOf(user);
      if (id) users.push({ id, enabled: user.Enabled !== false });
    }
    PaginationToken = page.PaginationToken;
  } while (PaginationToken);
  return users;
}

async function adminGroupMembers(UserPoolId: string): Promise<Set<string>> {
  const ids = new Set<string>();
  let NextToken: string | undefined;
  do {
    const page = await cognito().send(
      new ListUsersInGroupCommand({ UserPoolId, GroupName: ADMIN_ROLE.id, NextToken, Limit: 60 }),
    );
    for (const user of page.Users ?? []) {
      const id = subOf(user);
      if (id) ids.add(id);
    }
    NextToken = page.NextToken;
  } while (NextToken);
  return ids;
}

const BATCH = 100;

/** Items by key from the entity table (BatchGet in batches of 100, unprocessed keys retried). */
async function batchGet<T>(TableName: string, keys: Array<{ pk: string; sk: string }>): Promise<Map<string, T>> {
  const found = new Map<string, T>();
  for (let i = 0; i < keys.length; i += BATCH) {
    let Keys: Array<Record<string, unknown>> | undefined = keys.slice(i, i + BATCH);
    for (let attempt = 0; Keys?.length && attempt < 5; attempt++) {
      const out: BatchGetCommandOutput = await dynamo().send(new BatchGetCommand({ RequestItems: { [TableName]: { Keys } } }));
      for (const item of out.Responses?.[TableName] ?? []) found.set(item.pk as string, item as T);
      Keys = out.UnprocessedKeys?.[TableName]?.Keys;
    }
  }
  return found;
}

/** The ids of every enabled user whose role holds the permission. */
export async function usersWithPermission(permission: Permission): Promise<string[]> {
  const UserPoolId = requireEnv(ENV.userPoolId);
  const TableName = requireEnv(ENV.entityTable);
  const [users, admins] = await Promise.all([directoryUsers(UserPoolId), adminGroupMembers(UserPoolId)]);
  const enabled = users.filter((u) => u.enabled);
  const records = await batchGet<{ roleId?: string; enabled?: boolean }>(
    TableName,
    enabled.map((u) => userKey(u.id)),
  );
  const roleOf = new Map<string, string | undefined>();
  for (const user of enabled) {
    const record = records.get(userKey(user.id).pk);
    if (record?.enabled === false) continue;
    roleOf.set(user.id, record ? record.roleId : admins.has(user.id) ? ADMIN_ROLE.id : undefined);
  }
  const roleIds = [...new Set([...roleOf.values()].filter((id): id is string => !!id && id !== ADMIN_ROLE.id))];
  const roles = await batchGet<{ permissions?: unknown[] }>(
    TableName,
    roleIds.map((id) => roleKey(id)),
  );
  const grants = (roleId: string | undefined): boolean => {
    if (!roleId) return false;
    if (roleId === ADMIN_ROLE.id) return true;
    const stored = roles.get(roleKey(roleId).pk)?.permissions ?? [];
    return hasPermissions(withImpliedReads(stored.filter(isPermission)), [permission]);
  };
  return [...roleOf].filter(([, roleId]) => grants(roleId)).map(([id]) => id);
}
