// "View bucket data": the objects under a prefix of an S3 source's bucket, each with its first events as the
// source would split them (the pipeline's own splitter), or the error reading it. Only the start of each
// object is read, so a preview costs little whatever the object's size.
import { constants, gunzipSync } from 'node:zlib';
import { GetObjectCommand, ListObjectsCommand, type S3Client } from '@aws-sdk/client-s3';
import { matchPrefix } from '../../../core/log-sources/match';
import type { S3LogSource, StreamType } from '../../../core/log-sources/types';
import { logRecords } from '../../../core/pipeline/log-records';
import { sourceS3 } from './source-access';

export interface BucketDataRecord {
  readonly s3Key: string;
  readonly event: string | null;
  readonly error: string | null;
}

export interface BucketDataPage {
  readonly data: BucketDataRecord[];
  readonly hasNextPage: boolean;
  /** The last key listed, where the next page starts; null on the last page. */
  readonly next: string | null;
}

export interface BucketDataRequest {
  readonly prefix: string;
  readonly streamType: StreamType;
  readonly envelopeField?: string;
  /** Objects per page. */
  readonly pageSize: number;
  /** The last key of the previous page. */
  readonly after?: string;
}

/** Events shown per object. */
export const EVENTS_PER_OBJECT = 5;
/** Bytes read from the start of each object. */
export const PREVIEW_BYTES = 256 * 1024;

const reason = (error: unknown) => {
  const e = error as { name?: string; message?: string };
  return e.name && e.message && !e.message.startsWith(e.name) ? `${e.name}: ${e.message}` : (e.message ?? String(error));
};

/** The start of an object, inflated when gzip (a truncated gzip stream inflates as far as it goes). */
async function objectHead(client: S3Client, bucket: string, key: string): Promise<{ bytes: Buffer; complete: boolean }> {
  const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=0-${PREVIEW_BYTES - 1}` }));
  const raw = Buffer.from(await out.Body!.transformToByteArray());
  const total = Number(/\/(\d+)$/.exec(out.ContentRange ?? '')?.[1] ?? raw.length);
  const complete = raw.length >= total;
  if (raw.length >= 2 && raw[0] === 0x1f && raw[1] === 0x8b) {
    return { bytes: gunzipSync(raw, { finishFlush: constants.Z_SYNC_FLUSH }), complete };
  }
  return { bytes: raw, complete };
}

async function firstEvents(
  bytes: Buffer,
  complete: boolean,
  request: BucketDataRequest,
): Promise<{ event?: string; error?: string }[]> {
  const found: { event?: string; error?: string }[] = [];
  const chunks = (async function* () {
    yield new Uint8Array(bytes);
  })();
  for await (const batch of logRecords(chunks, { streamType: request.streamType, envelopeField: request.envelopeField })) {
    for (const record of batch) {
      if ('text' in record) found.push({ event: record.text });
      // The preview window may cut the last record short: that is not the object's fault.
      else if (complete || found.length === 0) found.push({ error: record.error });
      if (found.length >= EVENTS_PER_OBJECT) return found;
    }
  }
  return found;
}

export async function viewBucketData(source: S3LogSource, request: BucketDataRequest): Promise<BucketDataPage> {
  const client = sourceS3(source.s3);
  const bucket = source.s3.bucket;
  // ListObjects with a marker (the last key of the previous page) rather than ListObjectsV2: the same
  // s3:ListBucket permission, and a position the local S3 stand-in can produce.
  const listed = await client.send(
    new ListObjectsCommand({
      Bucket: bucket,
      Prefix: request.prefix || undefined,
      MaxKeys: request.pageSize,
      Marker: request.after || undefined,
    }),
  );
  const listedKeys = (listed.Contents ?? []).map((o) => o.Key!);
  const lastKey = listedKeys[listedKeys.length - 1];
  // Only the objects the source reads are shown: the listing stays within its prefixes (the caller checks
  // the requested one), and objects under an excluded prefix are left out.
  const keys = listedKeys.filter((key) => !key.endsWith('/') && matchPrefix(source.s3.prefixes, key));
  const perObject = await Promise.all(
    keys.map(async (s3Key): Promise<BucketDataRecord[]> => {
      try {
        const { bytes, complete } = await objectHead(client, bucket, s3Key);
        const events = await firstEvents(bytes, complete, request);
        if (events.length === 0) return [{ s3Key, event: null, error: 'The object holds no events' }];
        return events.map((e) => ({ s3Key, event: e.event ?? null, error: e.error ?? null }));
      } catch (error) {
        return [{ s3Key, event: null, error: reason(error) }];
      }
    }),
  );
  return {
    data: perObject.flat(),
    hasNextPage: listed.IsTruncated === true,
    next: listed.IsTruncated && lastKey ? lastKey : null,
  };
}
