// The S3 stand-in (s3rver, wrapped by local/services/s3.ts) under what real S3 allows: long listings paged
// by continuation token.
import {
  CreateBucketCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  paginateListObjectsV2,
} from '@aws-sdk/client-s3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localClientConfig } from '../../local/services/net';
import { decodeKeyPath, encodeKeyPath, startS3, type S3Service } from '../../local/services/s3';

let s3: S3Service;
let client: S3Client;
let directory: string;
const bucket = 'paging';
const keyOf = (i: number) => `logs/${String(i).padStart(5, '0')}.json`;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'caracal-s3-standin-'));
  s3 = await startS3(directory);
  client = new S3Client(localClientConfig(s3.endpoint, 'us-east-1'));
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  const total = 2_500;
  for (let start = 0; start < total; start += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, total - start) }, (_, j) =>
        client.send(new PutObjectCommand({ Bucket: bucket, Key: keyOf(start + j), Body: '{}' })),
      ),
    );
  }
  await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'other/a/1', Body: 'x' }));
  await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'other/a/2', Body: 'x' }));
  await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'other/b/1', Body: 'x' }));
}, 180_000);

afterAll(async () => {
  client?.destroy();
  await s3?.stop();
  rmSync(directory, { recursive: true, force: true });
});

describe('S3 stand-in listings', () => {
  it('pages through 2,500 objects with continuation tokens, each key once and in order', async () => {
    const keys: string[] = [];
    let pages = 0;
    for await (const page of paginateListObjectsV2({ client }, { Bucket: bucket, Prefix: 'logs/' })) {
      pages++;
      expect(page.KeyCount).toBe(page.Contents?.length ?? 0);
      keys.push(...(page.Contents ?? []).map((o) => o.Key!));
    }
    expect(pages).toBe(3);
    expect(keys).toEqual(Array.from({ length: 2_500 }, (_, i) => keyOf(i)));
  });

  it('honours MaxKeys and StartAfter, and gives no owner unless asked', async () => {
    const first = await client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: 'logs/', MaxKeys: 2, StartAfter: keyOf(9) }),
    );
    expect(first.Contents?.map((o) => o.Key)).toEqual([keyOf(10), keyOf(11)]);
    expect(first.IsTruncated).toBe(true);
    expect(first.Contents?.[0].Owner).toBeUndefined();
    const next = await client.send(
      new ListObjectsV2Command({
        Bucket: bucket,
        Prefix: 'logs/',
        MaxKeys: 2,
        ContinuationToken: first.NextContinuationToken,
        FetchOwner: true,
      }),
    );
    expect(next.Contents?.map((o) => o.Key)).toEqual([keyOf(12), keyOf(13)]);
    expect(next.Contents?.[0].Owner?.ID).toBeTruthy();
  });

  it('lists common prefixes once across pages', async () => {
    const prefixes: string[] = [];
    for await (const page of paginateListObjectsV2({ client }, { Bucket: bucket, Prefix: 'other/', Delimiter: '/' })) {
      prefixes.push(...(page.CommonPrefixes ?? []).map((p) => p.Prefix!));
    }
    expect(prefixes).toEqual(['other/a/', 'other/b/']);
  });

  it('refuses a token that is not its own with InvalidArgument', async () => {
    await expect(
      client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: 'bm9uc2Vuc2U' })),
    ).rejects.toMatchObject({
      name: 'InvalidArgument',
    });
  });
});

describe('S3 stand-in keys the file system cannot hold as names', () => {
  const odd = [
    `long/${'x'.repeat(905)}.json`,
    `${'é'.repeat(500)}/${'y'.repeat(20)}`,
    'dots/../../escape.json',
    'dots/./here.json',
    'mark/\uE000\uE000/\uE000e.json',
    // empty segments (s3rver's router matched no route for them: every request answered 404)
    'a//b',
    'a///b/c.json',
    '//lead.json',
    'trail/x//',
    'mark//\uE000e/\uE000\uE000',
  ];

  it('stores, lists and reads every one back under its own key, and the stand-in keeps answering', async () => {
    const oddBucket = 'odd-keys';
    await client.send(new CreateBucketCommand({ Bucket: oddBucket }));
    for (const [i, key] of odd.entries()) {
      await client.send(new PutObjectCommand({ Bucket: oddBucket, Key: key, Body: `body ${i}` }));
    }
    const listed = await client.send(new ListObjectsV2Command({ Bucket: oddBucket }));
    expect(listed.Contents?.map((o) => o.Key).sort()).toEqual([...odd].sort());
    for (const [i, key] of odd.entries()) {
      const object = await client.send(new GetObjectCommand({ Bucket: oddBucket, Key: key }));
      expect(await object.Body!.transformToString()).toBe(`body ${i}`);
    }
    const underLong = await client.send(new ListObjectsV2Command({ Bucket: oddBucket, Prefix: `long/${'x'.repeat(300)}` }));
    expect(underLong.Contents?.map((o) => o.Key)).toEqual([odd[0]]);
    // nothing was written outside the bucket's folder
    expect(existsSync(join(directory, 'escape.json._S3rver_object'))).toBe(false);
  });

  it('encodes reversibly, a prefix to a prefix of the encoding', () => {
    for (const key of [...odd, 'a/b/c', 'a/', '/lead', `p/${'z'.repeat(450)}`])
      expect(decodeKeyPath(encodeKeyPath(key))).toBe(key);
    const key = `p/${'z'.repeat(450)}/tail`;
    expect(encodeKeyPath(key).startsWith(encodeKeyPath(key.slice(0, 260)))).toBe(true);
    expect(
      encodeKeyPath(key)
        .split('/')
        .every((part) => Buffer.byteLength(`${part}._S3rver_metadata.json`) <= 255),
    ).toBe(true);
  });
});
