// A lookup table's data in the lake bucket (LAKE_BUCKET, which the lake door names): every version as gzipped JSON
// lines under lookups/data/<table id>/v<version>.jsonl.gz (older versions are kept, the table names its current
// one), and files uploaded from the browser under lookups/uploads/<upload id> (by a pre-signed PUT).
import { randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { fromTemporaryCredentials } from '@aws-sdk/credential-providers';
import { s3 } from '../clients';
import { lakeBucketName } from '../lake';
import { presignPut } from './presign';

const bucket = lakeBucketName;
export const uploadKey = (uploadId: string) => `lookups/uploads/${uploadId}`;
export const versionKey = (tableId: string, version: number) => `lookups/data/${tableId}/v${version}.jsonl.gz`;
const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const isUploadId = (value: string) => UPLOAD_ID.test(value);

export async function newUpload(): Promise<{ uploadId: string; url: string; expiresInSeconds: number }> {
  const uploadId = randomUUID();
  const expiresInSeconds = 900;
  const url = await presignPut(bucket(), uploadKey(uploadId), { expiresSeconds: expiresInSeconds });
  return { uploadId, url, expiresInSeconds };
}

async function readBody(body: unknown): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Uint8Array>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** An uploaded file's text, or undefined when nothing was uploaded under the id; throws past `maxBytes`. */
export async function readUpload(uploadId: string, maxBytes: number): Promise<string | undefined> {
  try {
    const head = await s3().send(new HeadObjectCommand({ Bucket: bucket(), Key: uploadKey(uploadId) }));
    if ((head.ContentLength ?? 0) > maxBytes) throw new RangeError('The file is larger than 50 MB');
    const out = await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: uploadKey(uploadId) }));
    return (await readBody(out.Body)).toString('utf8');
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'NotFound' || name === 'NoSuchKey') return undefined;
    throw error;
  }
}

/** The session name CloudTrail shows for the reads of an S3-sourced table through its role. */
export const ROLE_SESSION_NAME = 'caracal-lookup-table';

/**
 * Whether a table's role can be assumed here: on AWS (STS is there); in the local runtime, whose S3 is a
 * stand-in (AWS_ENDPOINT_URL_S3) and which has no STS stand-in (no AWS_ENDPOINT_URL_STS), it cannot, and the
 * object is read with the runtime's own access (docs/lookup-tables.md; the form says so).
 */
export const canAssumeRoles = () => !process.env.AWS_ENDPOINT_URL_S3 || Boolean(process.env.AWS_ENDPOINT_URL_STS);

const roleClients = new Map<string, S3Client>();

/** An S3 client on the credentials of `roleArn` (STS AssumeRole, refreshed before they expire), one per role. */
function s3AsRole(roleArn: string): S3Client {
  let client = roleClients.get(roleArn);
  if (!client) {
    client = new S3Client({
      credentials: fromTemporaryCredentials({
        params: { RoleArn: roleArn, RoleSessionName: ROLE_SESSION_NAME, DurationSeconds: 900 },
      }),
    });
    roleClients.set(roleArn, client);
  }
  return client;
}

/** Forgets the role clients (tests). */
export function resetRoleClients(): void {
  for (const client of roleClients.values()) client.destroy();
  roleClients.clear();
}

/**
 * Any S3 object's text (an S3-sourced table): through `roleArn` when the table names one (assumed with STS
 * AssumeRole, see canAssumeRoles), else through the function's own role.
 */
export async function readObject(location: string, maxBytes: number, roleArn?: string | null): Promise<string> {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(location);
  if (!match) throw new Error(`Not an S3 address: ${location}`);
  let client = s3();
  if (roleArn && canAssumeRoles()) {
    client = s3AsRole(roleArn);
    try {
      await client.config.credentials();
    } catch (error) {
      throw new Error(`Could not assume the role ${roleArn}: ${(error as Error).message}`);
    }
  }
  const head = await client.send(new HeadObjectCommand({ Bucket: match[1], Key: match[2] }));
  if ((head.ContentLength ?? 0) > maxBytes) throw new RangeError('The object is larger than 50 MB');
  const out = await client.send(new GetObjectCommand({ Bucket: match[1], Key: match[2] }));
  const body = await readBody(out.Body);
  return (match[2].endsWith('.gz') ? gunzipSync(body) : body).toString('utf8');
}

export async function writeVersion(
  tableId: string,
  version: number,
  records: Record<string, unknown>[],
): Promise<{ key: string; sizeBytes: number }> {
  const text = records.map((record) => JSON.stringify(record)).join('\n');
  const key = versionKey(tableId, version);
  await s3().send(
    new PutObjectCommand({
      Bucket: bucket(),
      Key: key,
      Body: gzipSync(text),
      ContentType: 'application/x-ndjson',
      ContentEncoding: 'gzip',
    }),
  );
  return { key, sizeBytes: Buffer.byteLength(text) };
}

export async function readVersion(key: string): Promise<Record<string, unknown>[]> {
  const out = await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
  const body = await readBody(out.Body);
  const text = (body[0] === 0x1f && body[1] === 0x8b ? gunzipSync(body) : body).toString('utf8');
  return text ? text.split('\n').map((line) => JSON.parse(line) as Record<string, unknown>) : [];
}
