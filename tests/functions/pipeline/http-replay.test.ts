// A request to an HMAC source is accepted once: the same signed request again within its five minutes is refused
// with 401 (counted for the source), while the same body signed anew is accepted; what is remembered is a digest in
// the entity table (a conditional put, so it holds across Lambda instances), an expired one counts as absent
// (TTL deletes late), and a request whose body could not be kept is forgotten so the sender's retry passes.
// On dynalite and the S3 stand-in.
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HMAC_TIMESTAMP_HEADER, HMAC_WINDOW_SECONDS } from '../../../core/log-sources/types';
import { dynamo, s3 } from '../../../functions/lib/clients';
import { signedRequest } from '../../../functions/lib/log-sources/http-auth';
import { rememberSignedRequest, type StoredLogSource } from '../../../functions/lib/log-sources/repository';
import { ingestHttpRequest, type HttpIngestRequest } from '../../../functions/lib/pipeline/http-ingest';
import { sourceErrors } from '../../../functions/lib/pipeline/pipeline-errors';
import { startS3, type S3Service } from '../../../local/services/s3';
import { startEntityTable } from '../alerts/entity-table';

const BUCKET = 'ingest';
const KEY = 'replay-test-hmac-key-of-thirty-two-characters';
const source: StoredLogSource = {
  id: '5a1c2a4e-1111-4222-8333-944455556666',
  transport: 'http-ingest',
  label: 'Signed feed',
  logTypes: ['GitHub.Audit'],
  streamType: 'Auto',
  enabled: true,
  createdAt: '2026-11-21T00:00:00Z',
  createdBy: 'a',
  updatedAt: '2026-11-21T00:00:00Z',
  updatedBy: 'a',
  http: { authType: 'HMAC', hmacAlgorithm: 'sha256', signatureHeader: 'x-signature', endpointUrl: null },
  secret: { kind: 'hmac', key: KEY },
};

let dir: string;
let s3Service: S3Service;
let stopTable: () => Promise<void>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'caracal-http-replay-'));
  s3Service = await startS3(dir);
  stopTable = (await startEntityTable('http-replay')).stop;
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_S3: s3Service.endpoint,
    AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
    AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
  });
  await s3().send(new CreateBucketCommand({ Bucket: BUCKET }));
  await dynamo().send(
    new PutCommand({ TableName: process.env.ENTITY_TABLE, Item: { pk: `SOURCE#${source.id}`, sk: 'SOURCE', ...source } }),
  );
});
afterAll(async () => {
  await s3Service?.stop();
  await stopTable?.();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const signature = (timestamp: number, body: string) => createHmac('sha256', KEY).update(`${timestamp}.${body}`).digest('hex');

let requests = 0;
function post(body: string, signedAt: number, now = new Date(), change: Partial<HttpIngestRequest> = {}): HttpIngestRequest {
  return {
    path: source.id,
    method: 'POST',
    headers: {
      'content-type': 'application/x-ndjson',
      [HMAC_TIMESTAMP_HEADER.toLowerCase()]: String(signedAt),
      'x-signature': `sha256=${signature(signedAt, body)}`,
    },
    body: Buffer.from(body),
    requestId: `request-${++requests}`,
    now,
    ...change,
  };
}
const ingest = (request: HttpIngestRequest, bucket = BUCKET) =>
  ingestHttpRequest(request, { ingestBucket: bucket, maxBodyBytes: 1024 * 1024 });
const storedObjects = async () =>
  (await s3().send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `http/${source.id}/` }))).KeyCount ?? 0;

describe('a signed request sent again', () => {
  it('is refused within its window with 401 and counted; the same body signed anew is accepted', async () => {
    const body = '{"action":"repo.create","actor":"octocat"}\n';
    const now = new Date();
    const first = post(body, seconds(now), now);
    expect(await ingest(first)).toMatchObject({ status: 200, body: { status: 'accepted' } });
    const before = (await sourceErrors(source.id)).httpUnauthenticated;

    const again = await ingest({ ...first, requestId: 'replayed', now: new Date(now.getTime() + 30_000) });
    expect(again).toEqual({
      status: 401,
      body: {
        error: 'Unauthorized',
        message: `This signed request was accepted already: sign each request anew, with the time of sending in ${HMAC_TIMESTAMP_HEADER}`,
      },
    });
    expect((await sourceErrors(source.id)).httpUnauthenticated).toBe(before + 1);

    // The same body, signed a second later: a new request.
    expect((await ingest(post(body, seconds(now) + 1, now))).status).toBe(200);
    // Another body signed at the same second: a new request too.
    expect((await ingest(post(body + body, seconds(now), now))).status).toBe(200);
    expect(await storedObjects()).toBe(3);
  });

  it('is remembered by a digest that expires with its window, never by the signature itself', async () => {
    const body = '{"action":"team.add_member"}\n';
    const now = new Date();
    const request = post(body, seconds(now), now);
    expect((await ingest(request)).status).toBe(200);
    const signed = signedRequest(source, request)!;
    expect(signed.freshUntil).toBe(seconds(now) + HMAC_WINDOW_SECONDS);
    const item = await dynamo().send(
      new GetCommand({ TableName: process.env.ENTITY_TABLE, Key: { pk: `SOURCE#SIGNED#${signed.digest}`, sk: 'SIGNED' } }),
    );
    expect(item.Item).toEqual({
      pk: `SOURCE#SIGNED#${signed.digest}`,
      sk: 'SIGNED',
      sourceId: source.id,
      expiresAt: seconds(now) + HMAC_WINDOW_SECONDS,
    });
    expect(JSON.stringify(item.Item)).not.toContain(signature(seconds(now), body));
  });

  it('counts as new once its record has expired, even before TTL deleted it', async () => {
    const at = (s: number) => new Date(s * 1000);
    expect(await rememberSignedRequest(source.id, 'digest-1', 1_000, at(900))).toBe(true);
    expect(await rememberSignedRequest(source.id, 'digest-1', 1_000, at(1_000))).toBe(false);
    expect(await rememberSignedRequest(source.id, 'digest-1', 1_300, at(1_001))).toBe(true);
    expect(await rememberSignedRequest(source.id, 'digest-1', 1_300, at(1_200))).toBe(false);
  });

  it('of two sent at once, only one is accepted', async () => {
    const body = '{"action":"repo.destroy"}\n';
    const now = new Date();
    const request = post(body, seconds(now), now);
    const answers = await Promise.all([ingest(request), ingest({ ...request, requestId: 'twin' })]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
  });

  it('is accepted again when its body could not be kept, so the retry passes', async () => {
    const body = '{"action":"org.update_member"}\n';
    const now = new Date();
    const request = post(body, seconds(now), now);
    await expect(ingest(request, 'no-such-bucket')).rejects.toThrow();
    expect((await ingest(request)).status).toBe(200);
    expect((await ingest(request)).status).toBe(401);
  });

  it('is refused only for HMAC sources: other sources have no signature to remember', async () => {
    const open = {
      ...source,
      id: '6b1c2a4e-1111-4222-8333-944455556666',
      http: { authType: 'None' as const, endpointUrl: null },
    };
    delete (open as { secret?: unknown }).secret;
    await dynamo().send(
      new PutCommand({ TableName: process.env.ENTITY_TABLE, Item: { pk: `SOURCE#${open.id}`, sk: 'SOURCE', ...open } }),
    );
    const request: HttpIngestRequest = { ...post('{"a":1}\n', seconds(new Date())), path: open.id };
    expect(signedRequest(open, request)).toBeUndefined();
    expect((await ingest(request)).status).toBe(200);
    expect((await ingest({ ...request, requestId: 'same-again' })).status).toBe(200);
  });
});
