// Classification failures in the entity table (ENTITY_TABLE): the lines of a log source that no schema
// read, with the reasons, for the user to read (newest first) and kept 30 days.
//
// Keys (every pk starts with CLASSFAIL#):
//   failure   pk = CLASSFAIL#<sourceId>  sk = FAIL#<receivedAt>#<object hash>#<line, 10 digits>#<index, 5 digits>
//             (receivedAt: when the object was written, so the key is the same however often it is read)
//             { objectKey, lineNumber, index, line (truncated), error, attempts, receivedAt, expiresAt }
// The sort key is deterministic (when the object arrived, which object, which line), so processing an
// object again overwrites its failures instead of adding them twice. Expired items are filtered on read.
import { BatchWriteCommand, type BatchWriteCommandOutput } from '@aws-sdk/lib-dynamodb';
import { hash128 } from '../../../core/schemas/rowid';
import { dynamo } from '../clients';
import { queryItems } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';
import type { ClassificationFailure } from './process-object';

export const FAILURE_RETENTION_DAYS = 30;
const table = () => requireEnv(ENV.entityTable);
export const failuresPartition = (sourceId: string) => `CLASSFAIL#${sourceId}`;

export interface StoredClassificationFailure extends ClassificationFailure {
  readonly objectKey: string;
  /** When the object or request holding the line reached Caracal. */
  readonly receivedAt: string;
}

function sortKey(f: StoredClassificationFailure): string {
  const object = hash128(f.objectKey).slice(0, 12);
  return `FAIL#${f.receivedAt}#${object}#${String(f.lineNumber).padStart(10, '0')}#${String(f.index).padStart(5, '0')}`;
}

/** Keeps failures of one source (at most 25 per request, retried while DynamoDB leaves some unprocessed). */
export async function putClassificationFailures(
  sourceId: string,
  failures: readonly StoredClassificationFailure[],
): Promise<void> {
  const expiresAt = Math.floor(Date.now() / 1000) + FAILURE_RETENTION_DAYS * 86_400;
  const requests = failures.map((f) => ({
    PutRequest: { Item: { pk: failuresPartition(sourceId), sk: sortKey(f), ...f, attempts: [...f.attempts], expiresAt } },
  }));
  for (let i = 0; i < requests.length; i += 25) {
    let batch: unknown[] | undefined = requests.slice(i, i + 25);
    for (let attempt = 0; batch && batch.length > 0; attempt++) {
      if (attempt === 8) throw new Error('DynamoDB kept classification failures unprocessed');
      if (attempt > 0) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
      const out: BatchWriteCommandOutput = await dynamo().send(
        new BatchWriteCommand({ RequestItems: { [table()]: batch as never } }),
      );
      batch = out.UnprocessedItems?.[table()];
    }
  }
}

export interface ClassificationFailurePage {
  readonly items: StoredClassificationFailure[];
  /** Each item's list position (its key as JSON text): pass one back as `after` to read on after it. */
  readonly positions: string[];
  /** Where the next (older) page starts; null on the last page. */
  readonly next: string | null;
}

/** Whether a list position (the key of a failure, as JSON text) belongs to this source's failures. */
export function isFailurePosition(sourceId: string, position: string): boolean {
  try {
    const key = JSON.parse(position) as Record<string, unknown>;
    return (
      key.pk === failuresPartition(sourceId) &&
      typeof key.sk === 'string' &&
      key.sk.startsWith('FAIL#') &&
      Object.keys(key).length === 2
    );
  } catch {
    return false;
  }
}

/** One page of a source's failures, newest first. */
export async function listClassificationFailures(
  sourceId: string,
  options: { after?: string; pageSize?: number; now?: Date } = {},
): Promise<ClassificationFailurePage> {
  const pageSize = Math.min(Math.max(Math.trunc(options.pageSize ?? 25), 1), 100);
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (options.after !== undefined && !isFailurePosition(sourceId, options.after))
    throw new Error('not a position of this source');
  const { items, lastKey } = await queryItems(
    {
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :fail)',
      FilterExpression: 'expiresAt > :now',
      ExpressionAttributeValues: { ':pk': failuresPartition(sourceId), ':fail': 'FAIL#', ':now': now },
      ScanIndexForward: false,
      Limit: pageSize,
      ExclusiveStartKey: options.after ? (JSON.parse(options.after) as Record<string, string>) : undefined,
    },
    { until: (found) => found.length >= pageSize },
  );
  const page = items.slice(0, pageSize);
  const positions = page.map((item) => JSON.stringify({ pk: item.pk, sk: item.sk }));
  const failures = page.map(
    ({ pk: _pk, sk: _sk, expiresAt: _expiresAt, ...failure }) => failure as unknown as StoredClassificationFailure,
  );
  const more = items.length > pageSize || lastKey !== undefined;
  return { items: failures, positions, next: more && positions.length ? positions[positions.length - 1] : null };
}
