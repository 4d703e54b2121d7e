// Writes an accepted HTTP ingest body to the ingest bucket, as received (gzip stays gzip: the log processor
// recognises it by its magic bytes). The write is the hand-off: the request is answered only once it is done.
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from '../clients';
import { handOffKey } from './handoff-objects';

export async function writeHttpObject(
  bucket: string,
  sourceId: string,
  requestId: string,
  body: Buffer,
  headers: Readonly<Record<string, string | undefined>>,
  receivedAt: Date,
): Promise<string> {
  const key = handOffKey('http', sourceId, requestId, receivedAt);
  await s3().send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: key,
      Body: body,
      ContentType: headers['content-type'] ?? 'application/octet-stream',
      Metadata: { 'received-at': receivedAt.toISOString() },
    }),
  );
  return key;
}
