// The pipeline's S3 I/O: reading a source object as a stream (the lake is written through its door, ../lake).
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from '../clients';

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
