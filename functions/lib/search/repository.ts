// Searches and saved searches in the entity table (ENTITY_TABLE):
//   pk = SEARCH#<id>       sk = SEARCH       { id, userId, mode, query, sql, status, ..., executionId, expiresAt }
//                          gsi1pk = SEARCHES#<userId>  gsi1sk = <createdAt>#<id>   (history, newest first)
//   pk = SAVEDSEARCH#<id>  sk = SAVEDSEARCH  { id, name, description, tags, mode, query, builder, ..., revision }
//                          gsi1pk = SAVEDSEARCHES      gsi1sk = <lower-case name>#<id>
// History items expire through the table's TTL attribute `expiresAt` (epoch seconds), 30 days after creation.
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../clients';
import { queryItems } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';

export type Mode = 'BUILDER' | 'SQL' | 'PANTHERFLOW';
export type Status = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';

export interface StoredSearch {
  readonly id: string;
  readonly userId: string;
  readonly mode: Mode;
  readonly query: string;
  readonly sql: string;
  readonly status: Status;
  readonly error?: string | null;
  readonly createdAt: string;
  readonly finishedAt?: string | null;
  readonly timeRangeFrom?: string | null;
  readonly timeRangeTo?: string | null;
  readonly rowCount?: number | null;
  readonly bytesScanned?: number | null;
  readonly elapsedMs?: number | null;
  readonly columns: { name: string; type: string }[];
  readonly visualization?: string | null;
  readonly executionId?: string | null;
  readonly expiresAt: number;
}

export interface StoredSavedSearch {
  readonly id: string;
  readonly name: string;
  readonly description?: string | null;
  readonly tags: string[];
  readonly mode: Mode;
  readonly query?: string | null;
  readonly builder?: string | null;
  readonly defaultTimeRange?: string | null;
  readonly createdBy: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly revision: number;
}

const table = () => requireEnv(ENV.entityTable);
const searchKey = (id: string) => ({ pk: `SEARCH#${id}`, sk: 'SEARCH' });
const savedKey = (id: string) => ({ pk: `SAVEDSEARCH#${id}`, sk: 'SAVEDSEARCH' });
const KEYS = ['pk', 'sk', 'gsi1pk', 'gsi1sk'];
const strip = <T>(item: Record<string, unknown>): T =>
  Object.fromEntries(Object.entries(item).filter(([k]) => !KEYS.includes(k))) as T;

export async function putSearch(search: StoredSearch): Promise<void> {
  await dynamo().send(
    new PutCommand({
      TableName: table(),
      Item: {
        ...searchKey(search.id),
        gsi1pk: `SEARCHES#${search.userId}`,
        gsi1sk: `${search.createdAt}#${search.id}`,
        ...search,
      },
    }),
  );
}

export async function getSearch(id: string): Promise<StoredSearch | undefined> {
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: searchKey(id) }));
  return out.Item ? strip<StoredSearch>(out.Item) : undefined;
}

/**
 * Records a RUNNING search's outcome, unless it has already finished (a cancel and a poll may race): false then.
 */
export async function finishSearch(id: string, changes: Partial<StoredSearch>): Promise<boolean> {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
  if (!entries.length) return false;
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: searchKey(id),
        UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ConditionExpression: '#status = :running',
        ExpressionAttributeNames: { ...Object.fromEntries(entries.map(([k], i) => [`#f${i}`, k])), '#status': 'status' },
        ExpressionAttributeValues: { ...Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])), ':running': 'RUNNING' },
      }),
    );
    return true;
  } catch (e) {
    if ((e as Error).name !== 'ConditionalCheckFailedException') throw e;
    return false;
  }
}

/** A user's searches since `since` (ISO), newest first, one page from `after` (a gsi1sk). */
export async function searchesOf(userId: string, since: string, limit: number, after?: string) {
  const { items } = await queryItems<StoredSearch & { gsi1sk: string }>(
    {
      TableName: table(),
      IndexName: 'gsi1',
      KeyConditionExpression: after ? 'gsi1pk = :pk AND gsi1sk BETWEEN :since AND :before' : 'gsi1pk = :pk AND gsi1sk >= :since',
      ExpressionAttributeValues: { ':pk': `SEARCHES#${userId}`, ':since': since, ...(after ? { ':before': after } : {}) },
      ScanIndexForward: false,
      Limit: limit + 2,
    },
    { until: (got) => got.length > limit + 1 },
  );
  return items.filter((i) => i.gsi1sk !== after).slice(0, limit + 1);
}

export async function putSavedSearch(saved: StoredSavedSearch, expectedRevision?: number): Promise<void> {
  await dynamo().send(
    new PutCommand({
      TableName: table(),
      Item: { ...savedKey(saved.id), gsi1pk: 'SAVEDSEARCHES', gsi1sk: `${saved.name.toLowerCase()}#${saved.id}`, ...saved },
      ...(expectedRevision === undefined
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : { ConditionExpression: 'revision = :r', ExpressionAttributeValues: { ':r': expectedRevision } }),
    }),
  );
}

export async function getSavedSearch(id: string): Promise<StoredSavedSearch | undefined> {
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: savedKey(id) }));
  return out.Item ? strip<StoredSavedSearch>(out.Item) : undefined;
}

export async function deleteSavedSearchItem(id: string): Promise<boolean> {
  const out = await dynamo().send(new DeleteCommand({ TableName: table(), Key: savedKey(id), ReturnValues: 'ALL_OLD' }));
  return !!out.Attributes;
}

/** Every saved search, by name (a workspace keeps a few hundred). */
export async function allSavedSearches(): Promise<(StoredSavedSearch & { gsi1sk: string })[]> {
  const { items } = await queryItems<Record<string, unknown>>({
    TableName: table(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': 'SAVEDSEARCHES' },
  });
  return items.map((i) => ({ ...strip<StoredSavedSearch>(i), gsi1sk: String(i.gsi1sk) }));
}
