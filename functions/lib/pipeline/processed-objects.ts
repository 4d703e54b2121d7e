// Which objects a log source has processed already: S3 notifications and SQS deliveries come at least once,
// so the same object can be announced twice. A second announcement of an object (same key and ETag) within a
// week is skipped, so its events are not counted, alerted on or handed to detection twice. The mark is written
// last: an object whose processing broke off midway is processed again in full, and its lake files overwritten.
//
// Key: pk = CLASSFAIL#<sourceId>  sk = DONE#<hash of bucket, key and ETag>  { bucket, key, etag, processedAt, expiresAt }
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { hash128 } from '../../../core/schemas/rowid';
import { dynamo } from '../clients';
import { ENV, requireEnv } from '../env';
import { failuresPartition } from './classification-failures';
import type { InputObject } from '../../../core/lake/layout';

const KEEP_DAYS = 7;
const table = () => requireEnv(ENV.entityTable);
const markKey = (o: InputObject) => ({
  pk: failuresPartition(o.sourceId),
  sk: `DONE#${hash128(`${o.bucket}\u0000${o.key}\u0000${o.etag}`)}`,
});

export async function wasProcessed(object: InputObject, now = new Date()): Promise<boolean> {
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: markKey(object), ConsistentRead: true }));
  return !!out.Item && Number(out.Item.expiresAt) > now.getTime() / 1000;
}

export async function markProcessed(object: InputObject, now = new Date()): Promise<void> {
  await dynamo().send(
    new PutCommand({
      TableName: table(),
      Item: {
        ...markKey(object),
        bucket: object.bucket,
        key: object.key,
        etag: object.etag,
        processedAt: now.toISOString(),
        expiresAt: Math.floor(now.getTime() / 1000) + KEEP_DAYS * 86_400,
      },
    }),
  );
}
