// What the pipeline could not take, counted where users and tests can see it (entity table, ENTITY_TABLE):
// per log source, the objects it could not read and the HTTP requests it refused; per bucket, the objects
// no log source claims. Counters are atomic ADDs.
//
// Keys (every pk starts with CLASSFAIL#, the pipeline's prefix):
//   source errors     pk = CLASSFAIL#<sourceId>   sk = ERRORS
//                     { <kind>: count, ..., lastError, lastErrorAt }   kinds: see SourceErrorKind
//   unmatched objects pk = CLASSFAIL#UNMATCHED    sk = <bucket>
//                     { objects, lastKey, lastAt }
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../clients';
import { queryAll } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';
import { failuresPartition } from './classification-failures';

const table = () => requireEnv(ENV.entityTable);
const UNMATCHED = 'CLASSFAIL#UNMATCHED';

export const SOURCE_ERROR_KINDS = [
  /** An object that is not what it claims (corrupt or truncated gzip). */
  'corruptObjects',
  /** HTTP ingest refusals, by status. */
  'httpUnauthenticated',
  'httpForbidden',
  'httpUnsupportedMediaType',
  'httpTooLarge',
  'httpBadRequest',
] as const;
export type SourceErrorKind = (typeof SOURCE_ERROR_KINDS)[number];

export type SourceErrors = Record<SourceErrorKind, number> & { lastError: string | null; lastErrorAt: string | null };

export async function countSourceError(
  sourceId: string,
  kind: SourceErrorKind,
  message: string,
  now = new Date(),
): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: { pk: failuresPartition(sourceId), sk: 'ERRORS' },
      UpdateExpression: 'ADD #kind :one SET lastError = :message, lastErrorAt = :at',
      ExpressionAttributeNames: { '#kind': kind },
      ExpressionAttributeValues: { ':one': 1, ':message': message.slice(0, 1000), ':at': now.toISOString() },
    }),
  );
}

export async function sourceErrors(sourceId: string): Promise<SourceErrors> {
  const out = await dynamo().send(
    new GetCommand({ TableName: table(), Key: { pk: failuresPartition(sourceId), sk: 'ERRORS' }, ConsistentRead: true }),
  );
  const item = out.Item ?? {};
  const counts = Object.fromEntries(SOURCE_ERROR_KINDS.map((k) => [k, Number(item[k] ?? 0)])) as Record<SourceErrorKind, number>;
  return {
    ...counts,
    lastError: typeof item.lastError === 'string' ? item.lastError : null,
    lastErrorAt: typeof item.lastErrorAt === 'string' ? item.lastErrorAt : null,
  };
}

export async function countUnmatchedObject(bucket: string, key: string, now = new Date()): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: { pk: UNMATCHED, sk: bucket },
      UpdateExpression: 'ADD objects :one SET lastKey = :key, lastAt = :at',
      ExpressionAttributeValues: { ':one': 1, ':key': key.slice(0, 1024), ':at': now.toISOString() },
    }),
  );
}

export interface UnmatchedObjects {
  readonly bucket: string;
  readonly objects: number;
  readonly lastKey: string;
  readonly lastAt: string;
}

/** Every bucket that received objects no log source claims (one item per bucket). */
export async function unmatchedObjects(): Promise<UnmatchedObjects[]> {
  return queryAll(
    {
      TableName: table(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': UNMATCHED },
      ConsistentRead: true,
    },
    (item) => ({
      bucket: String(item.sk),
      objects: Number(item.objects ?? 0),
      lastKey: String(item.lastKey),
      lastAt: String(item.lastAt),
    }),
  );
}
