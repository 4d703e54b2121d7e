// Roles in the entity table (ENTITY_TABLE). The built-in Admin role lives in core and is never stored.
//
// Keys:
//   role        pk = ROLE#<uuid>             sk = ROLE       { id, name, permissions, members, createdAt, updatedAt }
//               gsi1pk = ROLE#LIST           gsi1sk = <lower-cased name>#<uuid>   (the list, by name)
//   name claim  pk = ROLE#NAME#<lower-cased name>  sk = ROLE#NAME  { roleId }
// A name claim is taken with a conditional put before a role takes the name and released after it gives it
// up, so two roles never share a name (case-insensitively) without transactions.
// `members` holds a seat for every user record naming the role: a user's seat is added, on condition that the
// role exists, before their record names the role, and removed after it no longer does; the role is deleted
// only on condition that no seat is left. So a role and the users holding it never part, without transactions.
// A seat is a fresh id per assignment (records.ts), so a request that gives up its assignment removes its own
// seat and never another request's.
import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ADMIN_ROLE, type Permission } from '../../../core/permissions';
import {
  ROLE_NAME_TAKEN,
  ROLE_NOT_FOUND,
  isAdminRoleId,
  roleInUseMessage,
  roleNameKey,
  rolePermissions,
} from '../../../core/validation/roles';
import { dynamo } from '../clients';
import { batchGetItems, queryAll } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';
import { ApiError } from '../errors';

export interface StoredRole {
  readonly id: string;
  readonly name: string;
  readonly permissions: Permission[];
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
}

const table = () => requireEnv(ENV.entityTable);
const ROLE_PREFIX = 'ROLE#';
const roleKey = (id: string) => ({ pk: `${ROLE_PREFIX}${id}`, sk: 'ROLE' });
const LIST_KEY = 'ROLE#LIST';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const nameClaimKey = (name: string) => ({ pk: `ROLE#NAME#${roleNameKey(name)}`, sk: 'ROLE#NAME' });
const conditionFailed = (err: unknown) => (err as Error).name === 'ConditionalCheckFailedException';

export const ADMIN: StoredRole = {
  id: ADMIN_ROLE.id,
  name: ADMIN_ROLE.name,
  permissions: [...ADMIN_ROLE.permissions],
  createdAt: null,
  updatedAt: null,
};

function toRole(item: Record<string, unknown>): StoredRole {
  return {
    id: String(item.pk).slice(ROLE_PREFIX.length),
    name: String(item.name),
    permissions: rolePermissions((item.permissions as string[] | undefined) ?? []),
    createdAt: (item.createdAt as string | undefined) ?? null,
    updatedAt: (item.updatedAt as string | undefined) ?? null,
  };
}

/** A role by id: Admin from core, others from the table; null for an unknown or malformed id. */
export async function getRole(id: string): Promise<StoredRole | null> {
  if (id === ADMIN.id) return ADMIN;
  if (!UUID.test(id)) return null;
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: roleKey(id), ConsistentRead: true }));
  return out.Item ? toRole(out.Item) : null;
}

/** A role by id, or NotFound. */
export async function requireRole(id: string): Promise<StoredRole> {
  const role = await getRole(id);
  if (!role) throw new ApiError('NotFound', ROLE_NOT_FOUND);
  return role;
}

/** The roles user records name, by id (Admin from core); the ids naming no role are left out. */
export async function getRoles(ids: readonly string[]): Promise<Map<string, StoredRole>> {
  const stored = ids.filter((id) => id !== ADMIN.id);
  const items = await batchGetItems(table(), [...new Set(stored)].map(roleKey), { consistent: true });
  const roles = new Map(items.map(toRole).map((role) => [role.id, role]));
  if (ids.includes(ADMIN.id)) roles.set(ADMIN.id, ADMIN);
  return roles;
}

/** Every role: Admin first, then the stored ones by name. */
export async function listRoles(): Promise<StoredRole[]> {
  const stored = await queryAll(
    {
      TableName: table(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': LIST_KEY },
    },
    toRole,
  );
  return [ADMIN, ...stored];
}

async function claimName(name: string, roleId: string): Promise<void> {
  try {
    await dynamo().send(
      new PutCommand({
        TableName: table(),
        Item: { ...nameClaimKey(name), roleId },
        ConditionExpression: 'attribute_not_exists(pk) OR roleId = :roleId',
        ExpressionAttributeValues: { ':roleId': roleId },
      }),
    );
  } catch (err) {
    if (conditionFailed(err)) throw new ApiError('AlreadyExists', ROLE_NAME_TAKEN);
    throw err;
  }
}

async function releaseName(name: string, roleId: string): Promise<void> {
  try {
    await dynamo().send(
      new DeleteCommand({
        TableName: table(),
        Key: nameClaimKey(name),
        ConditionExpression: 'roleId = :roleId',
        ExpressionAttributeValues: { ':roleId': roleId },
      }),
    );
  } catch (err) {
    if (!conditionFailed(err)) throw err;
  }
}

function roleItem(role: StoredRole) {
  return {
    ...roleKey(role.id),
    gsi1pk: LIST_KEY,
    gsi1sk: `${roleNameKey(role.name)}#${role.id}`,
    id: role.id,
    name: role.name,
    permissions: role.permissions,
    createdAt: role.createdAt,
    updatedAt: role.updatedAt,
  };
}

/** Stores a new role under a fresh id; AlreadyExists when another role has the name. */
export async function createRole(name: string, permissions: readonly string[]): Promise<StoredRole> {
  const now = new Date().toISOString();
  const role: StoredRole = { id: randomUUID(), name, permissions: rolePermissions(permissions), createdAt: now, updatedAt: now };
  await claimName(name, role.id);
  try {
    await dynamo().send(
      new PutCommand({ TableName: table(), Item: roleItem(role), ConditionExpression: 'attribute_not_exists(pk)' }),
    );
  } catch (err) {
    await releaseName(name, role.id);
    throw err;
  }
  return role;
}

/** Renames and re-permissions a stored role; NotFound when it is gone, AlreadyExists when the name is taken. */
export async function updateRole(current: StoredRole, name: string, permissions: readonly string[]): Promise<StoredRole> {
  const renamed = roleNameKey(name) !== roleNameKey(current.name);
  if (renamed) await claimName(name, current.id);
  const role: StoredRole = { ...current, name, permissions: rolePermissions(permissions), updatedAt: new Date().toISOString() };
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: roleKey(role.id),
        UpdateExpression: 'SET #name = :name, #permissions = :permissions, gsi1sk = :gsi1sk, updatedAt = :updatedAt',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#name': 'name', '#permissions': 'permissions' },
        ExpressionAttributeValues: {
          ':name': role.name,
          ':permissions': role.permissions,
          ':gsi1sk': roleItem(role).gsi1sk,
          ':updatedAt': role.updatedAt,
        },
      }),
    );
  } catch (err) {
    if (renamed) await releaseName(name, current.id);
    if (conditionFailed(err)) throw new ApiError('NotFound', ROLE_NOT_FOUND);
    throw err;
  }
  if (renamed) await releaseName(current.name, current.id);
  return role;
}

/** Deletes a role no user holds; InUse, saying how many hold it, otherwise. */
export async function deleteRole(role: StoredRole): Promise<void> {
  try {
    await dynamo().send(
      new DeleteCommand({ TableName: table(), Key: roleKey(role.id), ConditionExpression: 'attribute_not_exists(members)' }),
    );
  } catch (err) {
    if (!conditionFailed(err)) throw err;
    const out = await dynamo().send(new GetCommand({ TableName: table(), Key: roleKey(role.id), ConsistentRead: true }));
    const members = out.Item?.members as Set<string> | undefined;
    throw new ApiError('InUse', roleInUseMessage(members?.size ?? 0));
  }
  await releaseName(role.name, role.id);
}

/** Adds a seat to a stored role's members, or removes it, on condition that the role exists. */
const changeSeats = (roleId: string, change: 'ADD' | 'DELETE', seat: string) =>
  dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: roleKey(roleId),
      UpdateExpression: `${change} members :seat`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':seat': new Set([seat]) },
    }),
  );

/** Seats a user in a stored role (before their record names it); NotFound when the role is gone. */
export async function takeSeat(roleId: string, seat: string): Promise<void> {
  if (isAdminRoleId(roleId)) return;
  try {
    await changeSeats(roleId, 'ADD', seat);
  } catch (err) {
    if (conditionFailed(err)) throw new ApiError('NotFound', ROLE_NOT_FOUND);
    throw err;
  }
}

/** Gives a seat up (after the record no longer names the role); repeating it is harmless. */
export async function releaseSeat(roleId: string, seat: string): Promise<void> {
  if (isAdminRoleId(roleId)) return;
  try {
    await changeSeats(roleId, 'DELETE', seat);
  } catch (err) {
    if (!conditionFailed(err)) throw err;
  }
}
