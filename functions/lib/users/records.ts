// User records in the entity table (ENTITY_TABLE): what the guard reads on every request (role and
// enabled) plus the email and names as last set through the API.
//
// Keys:
//   user record  pk = USER#<sub>  sk = USER
//                gsi1pk = USER#ROLE#<roleId>  gsi1sk = USER#<sub>   (the users holding a role: counted, never scanned)
//                { id, roleId, enabled, email, givenName, familyName, createdAt, updatedAt }
// The first administrator, created by the deployment, has no record until an administrator changes it; until
// then its role comes from the Cognito Admin group (functions/lib/auth/caller.ts).
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  DeleteCommand,
  GetCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { userKey } from '../auth/caller';
import { dynamo } from '../clients';
import { requireEnv } from '../env';

export interface UserRecord {
  readonly id: string;
  readonly roleId: string;
  readonly enabled: boolean;
  readonly email: string;
  readonly givenName: string | null;
  readonly familyName: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

const table = () => requireEnv('ENTITY_TABLE');
const roleMembersKey = (roleId: string) => `USER#ROLE#${roleId}`;
const BATCH = 100;

function toRecord(item: Record<string, unknown>): UserRecord {
  return {
    id: String(item.id),
    roleId: String(item.roleId),
    enabled: item.enabled !== false,
    email: String(item.email ?? ''),
    givenName: (item.givenName as string | undefined) ?? null,
    familyName: (item.familyName as string | undefined) ?? null,
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt ?? item.createdAt),
  };
}

export async function getUserRecord(id: string): Promise<UserRecord | null> {
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: userKey(id), ConsistentRead: true }));
  return out.Item ? toRecord(out.Item) : null;
}

/** Records by user id (BatchGet in batches of 100, unprocessed keys retried). */
export async function getUserRecords(ids: readonly string[]): Promise<Map<string, UserRecord>> {
  const found = new Map<string, UserRecord>();
  const TableName = table();
  for (let i = 0; i < ids.length; i += BATCH) {
    let Keys: Array<Record<string, unknown>> | undefined = ids.slice(i, i + BATCH).map(userKey);
    for (let attempt = 0; Keys?.length && attempt < 5; attempt++) {
      const out: BatchGetCommandOutput = await dynamo().send(new BatchGetCommand({ RequestItems: { [TableName]: { Keys } } }));
      for (const item of out.Responses?.[TableName] ?? []) found.set(String(item.id), toRecord(item));
      Keys = out.UnprocessedKeys?.[TableName]?.Keys;
    }
    if (Keys?.length) throw new Error('The user records could not all be read; try again');
  }
  return found;
}

/** Writes the whole record (creating it when missing; the creation time is kept once set). */
export async function putUserRecord(
  record: Omit<UserRecord, 'createdAt' | 'updatedAt'> & { createdAt?: string },
): Promise<UserRecord> {
  const now = new Date().toISOString();
  const out = await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: userKey(record.id),
      UpdateExpression:
        'SET id = :id, roleId = :roleId, enabled = :enabled, email = :email, givenName = :givenName, ' +
        'familyName = :familyName, gsi1pk = :gsi1pk, gsi1sk = :gsi1sk, updatedAt = :now, ' +
        'createdAt = if_not_exists(createdAt, :createdAt)',
      ExpressionAttributeValues: {
        ':id': record.id,
        ':roleId': record.roleId,
        ':enabled': record.enabled,
        ':email': record.email,
        ':givenName': record.givenName,
        ':familyName': record.familyName,
        ':gsi1pk': roleMembersKey(record.roleId),
        ':gsi1sk': `USER#${record.id}`,
        ':now': now,
        ':createdAt': record.createdAt ?? now,
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return toRecord(out.Attributes ?? {});
}

/** Updates the names of an existing record; a user without a record keeps none. */
export async function updateRecordNames(id: string, givenName: string, familyName: string): Promise<void> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: userKey(id),
        UpdateExpression: 'SET givenName = :givenName, familyName = :familyName, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':givenName': givenName, ':familyName': familyName, ':now': new Date().toISOString() },
      }),
    );
  } catch (err) {
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
  }
}

export async function deleteUserRecord(id: string): Promise<void> {
  await dynamo().send(new DeleteCommand({ TableName: table(), Key: userKey(id) }));
}

/** The records of every user holding a role (a Query on gsi1, paged). */
export async function recordsWithRole(roleId: string): Promise<UserRecord[]> {
  const records: UserRecord[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(
      new QueryCommand({
        TableName: table(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': roleMembersKey(roleId) },
        ExclusiveStartKey,
      }),
    );
    records.push(...(page.Items ?? []).map(toRecord));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return records;
}

/** How many user records name a role (a counting Query on gsi1). */
export async function countRecordsWithRole(roleId: string): Promise<number> {
  let count = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(
      new QueryCommand({
        TableName: table(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': roleMembersKey(roleId) },
        Select: 'COUNT',
        ExclusiveStartKey,
      }),
    );
    count += page.Count ?? 0;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return count;
}
