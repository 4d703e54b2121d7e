// Pipeline throughput: a dropped gzip object to lake files, in process, through the log processor's own
// modules (gunzip by magic bytes, stream splitting, classification among the source's schemas, normalization,
// gzip NDJSON per log type and event hour, written to a temporary folder). The baseline, measured in the same
// run and alternated round by round, does the least any pipeline must: gunzip the object, JSON.parse and
// JSON.stringify each line, gzip the result and write one file. The figure is the median of per-round ratios.
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip, gzipSync } from 'node:zlib';
import { compileSchema, managedSchema } from '../core/schemas/index';
import { directoryLakeSink } from '../functions/lib/pipeline/dir-sink';
import { processObject } from '../functions/lib/pipeline/process-object';

const LINES = 20_000;
const ROUNDS = 5;
const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

function cloudTrailLine(i: number): string {
  const account = String(100000000000 + (i % 97));
  return JSON.stringify({
    eventVersion: '1.08',
    userIdentity: {
      type: 'AssumedRole',
      principalId: `AROAEXAMPLE${i % 13}:session-${i}`,
      arn: `arn:aws:sts::${account}:assumed-role/deploy-role/session-${i}`,
      accountId: account,
      sessionContext: { attributes: { creationDate: '2026-11-21T10:00:00Z', mfaAuthenticated: 'false' } },
    },
    eventTime: `2026-11-21T${String(8 + (i % 4)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:${String((i * 7) % 60).padStart(2, '0')}Z`,
    eventSource: ['sts.amazonaws.com', 's3.amazonaws.com', 'ec2.amazonaws.com'][i % 3],
    eventName: ['AssumeRole', 'GetObject', 'PutObject', 'DescribeInstances', 'ConsoleLogin'][i % 5],
    awsRegion: ['us-east-1', 'us-west-2', 'eu-west-1'][i % 3],
    sourceIPAddress: `203.0.113.${i % 250}`,
    userAgent: 'aws-cli/2.15.0 Python/3.11.6 Linux/6.1 exe/x86_64.amzn.2023',
    requestParameters: { bucketName: `bucket-${i % 50}`, key: `logs/2026/11/21/object-${i}.json.gz` },
    responseElements: null,
    requestID: `REQ${i.toString(16).padStart(12, '0')}`,
    eventID: `0f${i.toString(16).padStart(6, '0')}-1a2b-4c3d-8e9f-0123456789ab`,
    readOnly: i % 3 !== 0,
    resources: [{ type: 'AWS::S3::Object', ARN: `arn:aws:s3:::bucket-${i % 50}/object-${i}` }],
    eventType: 'AwsApiCall',
    recipientAccountId: account,
  });
}

const object = gzipSync(Array.from({ length: LINES }, (_, i) => cloudTrailLine(i)).join('\n'));
// The source's log types: the object's type is not the first tried, as in a source holding several.
const parsers = ['Okta.SystemLog', 'GitHub.Audit', 'AWS.CloudTrail'].map((t) => compileSchema(managedSchema(t)!));
const root = mkdtempSync(join(tmpdir(), 'caracal-pipeline-bench-'));

async function* chunks(bytes: Buffer, size = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function pipeline(round: number): Promise<number> {
  const result = await processObject(
    {
      input: { sourceId: 'bench', bucket: 'ingest', key: `bench/${round}.json.gz`, etag: String(round) },
      sourceLabel: 'bench',
      format: { streamType: 'Auto' },
      parsers,
      body: chunks(object),
      parseTime: new Date('2026-11-21T12:00:00Z'),
    },
    directoryLakeSink(join(root, 'pipeline')),
  );
  if (result.events !== LINES || result.classificationFailures)
    throw new Error(`bench object misread: ${JSON.stringify(result)}`);
  return result.events;
}

async function baseline(round: number): Promise<number> {
  const text = (await gunzipAsync(object)).toString('utf8');
  const out: string[] = [];
  for (const line of text.split('\n')) out.push(JSON.stringify(JSON.parse(line)));
  const dir = join(root, 'baseline');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${round}.json.gz`), await gzipAsync(out.join('\n') + '\n'));
  return out.length;
}

async function rate(fn: (round: number) => Promise<number>, round: number): Promise<number> {
  const start = performance.now();
  const events = await fn(round);
  return events / ((performance.now() - start) / 1000);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

try {
  await rate(baseline, -1);
  await rate(pipeline, -1);
  const base: number[] = [];
  const cand: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const b = await rate(baseline, r);
    const c = await rate(pipeline, r);
    base.push(b);
    cand.push(c);
    ratios.push(c / b);
  }
  process.stdout.write(
    `object to lake files (${LINES.toLocaleString('en-US')} CloudTrail lines, ${(object.length / 1024).toFixed(0)} KiB gzip, 3 schemas, 4 event hours)\n` +
      `  ${median(ratios).toFixed(2)} x baseline  (${fmt(median(cand))} events/s vs ${fmt(median(base))} lines/s gunzip+JSON.parse+stringify+gzip+write)\n`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
