// The detections function's tests' one set-up: the S3 stand-in holding the lake bucket, a throwaway entity table on
// dynalite and the alert-changes queue, started before a file's tests and stopped after them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll } from 'vitest';
import { s3 } from '../../../functions/lib/clients';
import { startS3, type S3Service } from '../../../local/services/s3';
import { startAlertChanges, type AlertChanges } from './alert-changes';
import { startEntityTable } from './entity-table';

/** The lake bucket the detections function reads events objects from. */
export const LAKE_BUCKET = 'lake';

export interface DetectionsStandIns {
  /** The alert-changes queue: what the function published. */
  readonly changes: AlertChanges;
}

/** Starts the stand-ins in the calling file's beforeAll (`name` names its entity table) and stops them after. */
export function useDetectionsStandIns(name: string): DetectionsStandIns {
  let dir: string | undefined;
  let s3Service: S3Service | undefined;
  let stopDynamo: (() => Promise<void>) | undefined;
  let changes: AlertChanges | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `caracal-${name}-`));
    s3Service = await startS3(dir);
    stopDynamo = (await startEntityTable(name)).stop;
    changes = await startAlertChanges();
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_S3: s3Service.endpoint,
      AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
      AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
    });
    await s3().send(new CreateBucketCommand({ Bucket: LAKE_BUCKET }));
  });
  afterAll(async () => {
    await s3Service?.stop();
    await stopDynamo?.();
    await changes?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get changes() {
      if (!changes) throw new Error('the detections stand-ins start in beforeAll');
      return changes;
    },
  };
}
