// The pipeline's S3 I/O: reading a source object as a stream, and the lake sink writing gzip NDJSON files.
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from '../clients';
import type { LakeSink } from './lake-writer';

export interface OpenedObject {
  readonly body: AsyncIterable<Uint8Array>;
  readonly etag: string;
  readonly size: number;
  /** When the object was written (ISO 8601): the same however often it is read. */
  readonly lastModified: string;
}

/** Opens an object for streaming; undefined when it no longer exists (deleted before it was processed). */
export async function openObject(bucket: string, key: string): Promise<OpenedObject | undefined> {
  try {
    const out = await s3().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return {
      body: out.Body as AsyncIterable<Uint8Array>,
      etag: (out.ETag ?? '').replace(/"/g, ''),
      size: out.ContentLength ?? 0,
      lastModified: (out.LastModified ?? new Date()).toISOString(),
    };
  } catch (err) {
    if ((err as Error).name === 'NoSuchKey') return undefined;
    throw err;
  }
}

export function s3LakeSink(bucket: string): LakeSink {
  return {
    put: async (key, body) => {
      await s3().send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: body,
          ContentType: 'application/x-ndjson',
          ContentEncoding: 'gzip',
        }),
      );
    },
  };
}
