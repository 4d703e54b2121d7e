// Who is calling: the signed-in user's role and permissions, read fresh on every request so that a role
// change or a deactivation takes effect on the next request, not the next sign-in.
//
// Keys in the entity table (ENTITY_TABLE):
//   user record  pk = USER#<sub>  sk = USER   { roleId, enabled, ... }  (written by the users area)
//   role record  pk = ROLE#<id>   sk = ROLE   { name, permissions }     (written by the roles area)
// The built-in Admin role lives in core (every permission) and is never stored. The token's groups play no
// part: a user without a user record is no caller (the guard refuses them, bar the first administrator's
// bootstrap, functions/lib/users/bootstrap.ts).
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ADMIN_ROLE, isPermission, withImpliedReads, type Permission } from '../../../core/permissions';
import type { CognitoIdentity } from '../appsync';
import { dynamo } from '../clients';
import { ENV, requireEnv } from '../env';

export interface Caller {
  /** The user's id (Cognito `sub`). */
  readonly id: string;
  readonly username: string;
  readonly email: string;
  readonly enabled: boolean;
  readonly role: { readonly id: string; readonly name: string } | null;
  readonly permissions: readonly Permission[];
}

export const userKey = (id: string) => ({ pk: `USER#${id}`, sk: 'USER' });
export const roleKey = (id: string) => ({ pk: `ROLE#${id}`, sk: 'ROLE' });

interface StoredUser {
  readonly roleId?: string;
  readonly enabled?: boolean;
}

interface StoredRole {
  readonly name: string;
  readonly permissions: string[];
}

/** The caller behind a verified identity, or null when they have no user record. */
export async function loadCaller(identity: CognitoIdentity): Promise<Caller | null> {
  const TableName = requireEnv(ENV.entityTable);
  const user = await getItem<StoredUser>(TableName, userKey(identity.sub));
  if (!user) return null;
  const role = user.roleId ? await loadRole(TableName, user.roleId) : null;
  return {
    id: identity.sub,
    username: identity.username,
    email: typeof identity.claims.email === 'string' ? identity.claims.email : '',
    enabled: user.enabled !== false,
    role: role ? { id: role.id, name: role.name } : null,
    permissions: role ? role.permissions : [],
  };
}

async function loadRole(TableName: string, id: string): Promise<{ id: string; name: string; permissions: Permission[] } | null> {
  if (id === ADMIN_ROLE.id) return { id, name: ADMIN_ROLE.name, permissions: [...ADMIN_ROLE.permissions] };
  const role = await getItem<StoredRole>(TableName, roleKey(id));
  if (!role) return null;
  return { id, name: role.name, permissions: withImpliedReads(role.permissions.filter(isPermission)) };
}

async function getItem<T>(TableName: string, Key: Record<string, string>): Promise<T | undefined> {
  const out = await dynamo().send(new GetCommand({ TableName, Key, ConsistentRead: true }));
  return out.Item as T | undefined;
}
