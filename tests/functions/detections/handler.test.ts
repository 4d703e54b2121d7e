// The detections function's SQS contract: partial batch failures, and messages that can never succeed (not
// JSON, not an events-written message, an object that is gone) dropped instead of retried.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler } from '../../../functions/detections/handler';
import { s3 } from '../../../functions/lib/clients';
import { startS3, type S3Service } from '../../../local/services/s3';
import { startEntityTable } from '../alerts/entity-table';

let s3Service: S3Service;
let stopDynamo: () => Promise<void>;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'caracal-handler-'));
  s3Service = await startS3(dir);
  stopDynamo = (await startEntityTable('handler')).stop;
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_S3: s3Service.endpoint,
    AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
    AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
    LAKE_BUCKET: 'lake',
  });
  await s3().send(new CreateBucketCommand({ Bucket: 'lake' }));
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterAll(async () => {
  vi.restoreAllMocks();
  await s3Service?.stop();
  await stopDynamo?.();
  rmSync(dir, { recursive: true, force: true });
});

const message = (bucket: string, key: string) =>
  JSON.stringify({
    kind: 'events-written',
    bucket,
    key,
    logType: 'Test.Log',
    sourceId: 's',
    events: 1,
    receivedAt: new Date().toISOString(),
  });

describe('the detections handler', () => {
  it('drops what can never succeed and reports the rest as batch item failures', async () => {
    const out = await handler({
      Records: [
        { messageId: 'not-json', body: '{nope' },
        { messageId: 'other', body: JSON.stringify({ kind: 'something-else' }) },
        { messageId: 'gone', body: message('lake', 'panther_logs/test_log/missing.json.gz') },
        { messageId: 'no-bucket', body: message('no-such-bucket', 'x.json.gz') },
      ],
    });
    expect(out.batchItemFailures).toEqual([{ itemIdentifier: 'no-bucket' }]);
  });
});
