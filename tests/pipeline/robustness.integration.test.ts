// Odd input through the whole local pipeline (issue 19), each case accounted: the lake rows of a source plus
// its counted classification failures equal the lines sent, and what cannot be read at all (a gzip bomb) is a
// counted, visible system error; HTTP requests beyond the caps are answered 413 and counted.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_HTTP_RECORDS, RATIO_FLOOR_BYTES } from '../../core/pipeline/limits';
import { listAlerts } from '../../functions/lib/alerts';
import { sourceTotals } from '../../functions/lib/log-sources/repository';
import { CLOUDTRAIL, cloudTrailLine } from './fixtures';
import {
  api,
  createHttpSource,
  createS3Source,
  dropObject,
  eventually,
  postToSource,
  queryLake,
  startPipelineRuntime,
  type CreatedSource,
  type PipelineRuntime,
} from './helpers';

const ERRORS = `query($sourceId: ID!) { sourceProcessingErrors(sourceId: $sourceId) { corruptObjects httpTooLarge httpBadRequest lastError } }`;
type Errors = { sourceProcessingErrors: Record<string, number | string | null> };

let p: PipelineRuntime;
const sources: Record<string, CreatedSource> = {};
const fixture = (name: string) => readFileSync(join(__dirname, '../core/pipeline/fixtures', name));

const lakeRows = async (sourceId: string) =>
  Number(
    (await queryLake(p, `SELECT count(*) AS n FROM panther_logs.aws_cloudtrail WHERE p_source_id = '${sourceId}'`))[0]?.n ?? 0,
  );

/** Waits until the source's lake rows plus counted failures reach `lines`, and returns both figures. */
async function accounted(sourceId: string, lines: number) {
  const totals = await eventually(
    () => sourceTotals(sourceId),
    (t) => t.events + t.classificationFailures >= lines,
  );
  return { events: totals.events, failures: totals.classificationFailures, rows: await lakeRows(sourceId) };
}

beforeAll(async () => {
  p = await startPipelineRuntime();
  for (const prefix of ['first-line', 'trail', 'bomb']) {
    sources[prefix] = await createS3Source(p, {
      label: `odd ${prefix}`,
      bucket: p.env.INGEST_BUCKET,
      prefix: `${prefix}/`,
      logTypes: [CLOUDTRAIL],
    });
  }
  sources.http = await createHttpSource(p, {
    label: 'odd http',
    logTypes: [CLOUDTRAIL],
    authType: 'Bearer',
    secret: 'odd-token',
  });
});
afterAll(async () => {
  await p?.stop();
});

describe('S3 objects with the Auto stream type', () => {
  it('a malformed first line: 10 lake rows and 1 counted failure for 11 lines', async () => {
    const lines = ['{"action": "trunc', ...Array.from({ length: 10 }, (_, i) => cloudTrailLine(`2026-11-21T10:${10 + i}:00Z`))];
    await dropObject(p, p.env.INGEST_BUCKET, 'first-line/a.json.gz', gzipSync(lines.join('\n')));
    expect(await accounted(sources['first-line'].id, lines.length)).toEqual({ events: 10, failures: 1, rows: 10 });
  });

  it('a CloudTrail log file ({"Records":[...]}) and a CloudWatch Logs subscription message: every event a row', async () => {
    await dropObject(
      p,
      p.env.INGEST_BUCKET,
      'trail/123456789012_CloudTrail_us-east-2.json.gz',
      gzipSync(fixture('cloudtrail.json')),
    );
    await dropObject(p, p.env.INGEST_BUCKET, 'trail/firehose-1.gz', gzipSync(fixture('cloudwatch-subscription.json')));
    expect(await accounted(sources.trail.id, 6)).toEqual({ events: 6, failures: 0, rows: 6 });
  });

  it('a gzip bomb is refused: counted for the source and raised as SOURCE_LOG_PROCESSING_ERRORS', async () => {
    await dropObject(p, p.env.INGEST_BUCKET, 'bomb/b.gz', gzipSync(Buffer.alloc(4 * RATIO_FLOOR_BYTES, '\n')));
    const errors = await eventually(
      () => api<Errors>(p, ERRORS, { sourceId: sources.bomb.id }),
      (d) => d.sourceProcessingErrors.corruptObjects === 1,
    );
    expect(errors.sourceProcessingErrors.lastError).toMatch(
      /^bomb\/b\.gz: gzip inflates more than 200 times .*decompression bomb$/,
    );
    // The alert is raised after the count: wait for it.
    const raised = await eventually(
      async () =>
        (await listAlerts({ type: 'SYSTEM_ERROR' }, 50)).items.filter(
          (a) => a.systemKind === 'SOURCE_LOG_PROCESSING_ERRORS' && a.sourceId === sources.bomb.id,
        ),
      (items) => items.length > 0,
    );
    expect(raised).toHaveLength(1);
    expect(await lakeRows(sources.bomb.id)).toBe(0);
  });
});

describe('HTTP requests beyond the caps', () => {
  const headers = { 'content-type': 'application/x-ndjson', authorization: 'Bearer odd-token', 'content-encoding': 'gzip' };

  it('answer 413 and are counted; a request within them reaches the lake', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, '\n'));
    expect(await postToSource(p, sources.http.id, bomb, headers)).toMatchObject({
      status: 413,
      body: { error: 'PayloadTooLarge' },
    });
    const many = gzipSync(Array.from({ length: MAX_HTTP_RECORDS + 1 }, () => '{}').join('\n'));
    const refused = await postToSource(p, sources.http.id, many, headers);
    expect(refused).toMatchObject({ status: 413, body: { message: expect.stringMatching(/more than 100000 log records/) } });
    const broken = gzipSync('{}\n').subarray(0, 12);
    expect(await postToSource(p, sources.http.id, broken, headers)).toMatchObject({ status: 400 });
    const errors = await api<Errors>(p, ERRORS, { sourceId: sources.http.id });
    expect(errors.sourceProcessingErrors).toMatchObject({ httpTooLarge: 2, httpBadRequest: 1 });
    const lines = ['{"action": "trunc', cloudTrailLine('2026-11-21T10:00:00Z'), cloudTrailLine('2026-11-21T10:01:00Z')];
    expect(await postToSource(p, sources.http.id, gzipSync(lines.join('\n')), headers)).toMatchObject({ status: 200 });
    expect(await accounted(sources.http.id, 3)).toEqual({ events: 2, failures: 1, rows: 2 });
  });
});
