// User records in the entity table (ENTITY_TABLE): what the guard reads on every request (role and
// enabled) plus the email and names as last set through the API. Every user the API serves has one; a user
// without one is refused (functions/lib/auth/guard.ts).
//
// Keys:
//   user record  pk = USER#<sub>  sk = USER
//                gsi1pk = USER#ROLE#<roleId>  gsi1sk = USER#<sub>   (the users holding a role: counted, never scanned)
//                { id, roleId, enabled, email, givenName, familyName, seat, tokensValidAfter, version, createdAt,
//                  updatedAt }
// `version` changes on every write and each write is conditional on the version read, so two requests
// changing one user never both succeed from the same state. `seat` is the user's seat in their stored role
// (roles.ts). `tokensValidAfter` (Unix seconds) is when the user was last signed out of every device (a
// password change, a deactivation): the guard refuses tokens issued at or before it. saveUser keeps the
// record, the role's seats and the enabled Admins (admins.ts) in step.
import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { isAdminRoleId } from '../../../core/validation/roles';
import { USER_CHANGED } from '../../../core/validation/users';
import { dynamo } from '../clients';
import { batchGetItems, queryCount } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';
import { ApiError } from '../errors';
import { addActiveAdmin, removeActiveAdmin } from './admins';
import { releaseSeat, takeSeat } from './roles';

/** What a change sets; the record's bookkeeping (seat, version, times) is saveUser's. */
export interface UserFields {
  readonly id: string;
  readonly roleId: string;
  readonly enabled: boolean;
  readonly email: string;
  readonly givenName: string | null;
  readonly familyName: string | null;
  /** Set to sign the user out of every device; absent keeps the record's value. */
  readonly tokensValidAfter?: number | null;
}

export interface UserRecord extends UserFields {
  readonly seat: string | null;
  readonly tokensValidAfter: number | null;
  readonly version: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

const table = () => requireEnv(ENV.entityTable);
const USER_PREFIX = 'USER#';
const userKey = (id: string) => ({ pk: `${USER_PREFIX}${id}`, sk: 'USER' });
const roleMembersKey = (roleId: string) => `USER#ROLE#${roleId}`;

function toRecord(item: Record<string, unknown>): UserRecord {
  return {
    id: String(item.pk).slice(USER_PREFIX.length),
    roleId: String(item.roleId),
    enabled: item.enabled !== false,
    email: String(item.email ?? ''),
    givenName: (item.givenName as string | undefined) ?? null,
    familyName: (item.familyName as string | undefined) ?? null,
    seat: (item.seat as string | undefined) ?? null,
    tokensValidAfter: typeof item.tokensValidAfter === 'number' ? item.tokensValidAfter : null,
    version: (item.version as string | undefined) ?? null,
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt ?? item.createdAt),
  };
}

export async function getUserRecord(id: string): Promise<UserRecord | null> {
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: userKey(id), ConsistentRead: true }));
  return out.Item ? toRecord(out.Item) : null;
}

/** Records by user id (the users without one are left out). */
export async function getUserRecords(ids: readonly string[]): Promise<Map<string, UserRecord>> {
  const items = await batchGetItems(table(), ids.map(userKey));
  return new Map(items.map(toRecord).map((record) => [record.id, record]));
}

const isActiveAdmin = (user: UserFields | null): user is UserFields => !!user && isAdminRoleId(user.roleId) && user.enabled;

/**
 * Creates (from null), changes or deletes (to null) a user's record, with its two guards: the enabled Admins
 * and the seats of the roles. In order: what can refuse the change is done before the record is written (an
 * Admin taken out, which refuses the last one; a seat in a newly given role, which refuses a deleted role),
 * then `beforeWrite` (the user pool's side of the change), then the record, conditional on the version read,
 * then what only widens (an Admin counted, the old role's seat given up). A step that fails undoes the steps
 * before it, so a refused change leaves everything as it was; a change that crashed midway errs on the safe
 * side (an Admin not counted, a role kept).
 */
export async function saveUser(
  current: UserRecord | null,
  next: UserFields | null,
  beforeWrite: () => Promise<void> = async () => undefined,
): Promise<UserRecord | null> {
  const leavesAdmins = isActiveAdmin(current) && !isActiveAdmin(next);
  const joinsAdmins = isActiveAdmin(next) && !isActiveAdmin(current);
  const newRole = next !== null && next.roleId !== current?.roleId;
  const seat = next && (newRole ? (isAdminRoleId(next.roleId) ? null : randomUUID()) : current!.seat);
  const leftSeat = current?.seat && current.seat !== seat ? current.seat : null;

  if (leavesAdmins) await removeActiveAdmin(current.id);
  let written: UserRecord | null;
  try {
    if (newRole && seat) await takeSeat(next.roleId, seat);
    try {
      await beforeWrite();
      written = await writeRecord(current, next && { ...next, seat });
    } catch (err) {
      if (newRole && seat) await releaseSeat(next.roleId, seat);
      throw err;
    }
  } catch (err) {
    if (leavesAdmins) await addActiveAdmin(current.id);
    throw err;
  }
  if (joinsAdmins) await addActiveAdmin(next.id);
  if (current && leftSeat) await releaseSeat(current.roleId, leftSeat);
  return written;
}

/** The record put or deleted, on condition that it is still the version read; RevisionConflict otherwise. */
async function writeRecord(current: UserRecord | null, next: (UserFields & { seat: string | null }) | null) {
  const TableName = table();
  const unchanged = !current
    ? { ConditionExpression: 'attribute_not_exists(pk)' }
    : current.version
      ? { ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': current.version } }
      : { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(version)' };
  try {
    if (!next) {
      if (current) await dynamo().send(new DeleteCommand({ TableName, Key: userKey(current.id), ...unchanged }));
      return null;
    }
    const now = new Date().toISOString();
    const item = {
      ...userKey(next.id),
      gsi1pk: roleMembersKey(next.roleId),
      gsi1sk: `USER#${next.id}`,
      id: next.id,
      roleId: next.roleId,
      enabled: next.enabled,
      email: next.email,
      givenName: next.givenName,
      familyName: next.familyName,
      seat: next.seat,
      tokensValidAfter: next.tokensValidAfter ?? current?.tokensValidAfter ?? null,
      version: randomUUID(),
      createdAt: current?.createdAt ?? now,
      updatedAt: now,
    };
    await dynamo().send(new PutCommand({ TableName, Item: item, ...unchanged }));
    return toRecord(item);
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') throw new ApiError('RevisionConflict', USER_CHANGED);
    throw err;
  }
}

/** How many user records name a role (a counting Query on gsi1). */
export async function countRecordsWithRole(roleId: string): Promise<number> {
  return queryCount({
    TableName: table(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': roleMembersKey(roleId) },
  });
}
