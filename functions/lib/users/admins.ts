// The enabled Admins, in one item of the entity table (ENTITY_TABLE), so that no two requests can together
// leave the workspace without one. DynamoDB here has no transactions (and dynalite locally none at all), so
// the item is the guard and every change to it is a single conditional update:
//   pk = ADMINS  sk = ADMINS  { active: string set of the ids of enabled users holding the Admin role,
//                               bootstrap: the first administrator's id until their user record exists }
// Taking an Admin out (deactivating, demoting, deleting) removes their id first, on condition that another id
// stays; only then is their user record written. Putting one in adds the id after the record is written. So
// the set never names more Admins than the records hold, and the last id cannot be removed.
//
// The item is created once, by the deployment's first administrator's first request (bootstrap.ts): its
// existence is what says the bootstrap has happened.
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { LAST_ADMIN, USER_CHANGED } from '../../../core/validation/users';
import { dynamo } from '../clients';
import { ENV, requireEnv } from '../env';
import { ApiError } from '../errors';

const table = () => requireEnv(ENV.entityTable);
const Key = { pk: 'ADMINS', sk: 'ADMINS' };

const conditionFailed = (err: unknown) => (err as Error).name === 'ConditionalCheckFailedException';

interface AdminsItem {
  readonly active?: Set<string>;
  readonly bootstrap?: string;
}

async function read(): Promise<AdminsItem | null> {
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key, ConsistentRead: true }));
  return (out.Item as AdminsItem | undefined) ?? null;
}

/** One conditional update of the item. */
const update = (UpdateExpression: string, ConditionExpression: string, ExpressionAttributeValues: Record<string, unknown>) =>
  dynamo().send(new UpdateCommand({ TableName: table(), Key, UpdateExpression, ConditionExpression, ExpressionAttributeValues }));

/** Starts the bootstrap for this user; false when it has started before (for them or anyone). */
export async function claimBootstrap(id: string): Promise<boolean> {
  try {
    await dynamo().send(
      new PutCommand({ TableName: table(), Item: { ...Key, bootstrap: id }, ConditionExpression: 'attribute_not_exists(pk)' }),
    );
    return true;
  } catch (err) {
    if (conditionFailed(err)) return false;
    throw err;
  }
}

/** Whether the first administrator's bootstrap has happened (or started): from then on the Admin group confers nothing. */
export async function bootstrapHappened(): Promise<boolean> {
  return (await read()) !== null;
}

/** The user whose bootstrap started but whose user record may not exist yet, if any. */
export async function unfinishedBootstrap(): Promise<string | null> {
  return (await read())?.bootstrap ?? null;
}

/** Ends the bootstrap once the first administrator's record exists; repeating it is harmless. */
export async function finishBootstrap(id: string): Promise<void> {
  try {
    await update('REMOVE bootstrap', 'bootstrap = :id', { ':id': id });
  } catch (err) {
    if (!conditionFailed(err)) throw err;
  }
}

/** Counts an enabled Admin (after their record says so). */
export async function addActiveAdmin(id: string): Promise<void> {
  await update('ADD active :ids', 'attribute_exists(pk)', { ':ids': new Set([id]) });
}

/**
 * Stops counting an enabled Admin (before their record says so). InvalidUpdate when they are the last one;
 * RevisionConflict when they are not counted, which means another request is changing them right now.
 */
export async function removeActiveAdmin(id: string): Promise<void> {
  try {
    await update('DELETE active :ids', 'contains(active, :id) AND size(active) > :one', {
      ':ids': new Set([id]),
      ':id': id,
      ':one': 1,
    });
  } catch (err) {
    if (!conditionFailed(err)) throw err;
    if ((await read())?.active?.has(id)) throw new ApiError('InvalidUpdate', LAST_ADMIN);
    throw new ApiError('RevisionConflict', USER_CHANGED);
  }
}
