// Pipeline throughput: a dropped gzip object to lake files, in process, through the log processor's own
// modules (gunzip by magic bytes, stream splitting, classification among the source's schemas, normalization,
// gzip NDJSON per log type and event hour, written to a temporary folder). The baseline, measured in the same
// run and alternated round by round, does the least any pipeline must: gunzip the object, JSON.parse and
// JSON.stringify each line, gzip the result and write one file. The figure is the median of per-round ratios,
// each measured in process CPU time.
// Then, through the local runtime: the latency from an object's creation in the ingest bucket to the alert of
// a matching rule (S3 notification → ingest queue → log processor → lake → detections queue → detections
// function → engine → alert), median and p95 over sequential samples.
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip, gzipSync } from 'node:zlib';
import { compileSchema, managedSchema } from '../core/schemas/index';
import { listAlerts } from '../functions/lib/alerts';
import { ensureSynthesized, ensureWebBuilt } from '../local/build';
import { api, createS3Source, dropObject, startPipelineRuntime } from '../tests/pipeline/helpers';
import { ROOT, TEST_ASSEMBLY } from '../tests/setup/global';
import { directoryLakeSink } from '../functions/lib/pipeline/dir-sink';
import { processObject } from '../functions/lib/pipeline/process-object';

const LINES = 20_000;
const ROUNDS = 5;
const LATENCY_SAMPLES = 12;
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

/** Events per second of process CPU time (every thread, zlib's included): steadier than wall time on a shared machine. */
async function rate(fn: (round: number) => Promise<number>, round: number): Promise<number> {
  const start = process.cpuUsage();
  const events = await fn(round);
  const used = process.cpuUsage(start);
  return events / ((used.user + used.system) / 1e6);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1];

const BENCH_RULE = {
  yaml: `AnalysisType: rule
Filename: bench_login.py
RuleID: Bench.Login
Enabled: true
LogTypes: [AWS.CloudTrail]
Severity: Medium
`,
  body: `def rule(event):
    return event.get("eventName") == "BenchLogin"

def dedup(event):
    return event.deep_get("userIdentity", "userName", default="?")
`,
};

/** Milliseconds from each object's creation to its alert (a new dedup string each time, so a new alert). */
async function latencies(): Promise<number[]> {
  ensureWebBuilt(ROOT);
  ensureSynthesized(ROOT, TEST_ASSEMBLY);
  const p = await startPipelineRuntime();
  try {
    await api(p, 'mutation($input: SaveDetectionInput!) { createDetection(input: $input) { id } }', { input: BENCH_RULE });
    await createS3Source(p, { label: 'Bench', bucket: p.env.INGEST_BUCKET, prefix: 'bench/', logTypes: ['AWS.CloudTrail'] });
    const out: number[] = [];
    for (let i = -1; i < LATENCY_SAMPLES; i++) {
      const user = `bench-user-${i + 1}`;
      const line = JSON.parse(cloudTrailLine(i + 1)) as Record<string, unknown>;
      const event = {
        ...line,
        eventName: 'BenchLogin',
        eventTime: new Date().toISOString(),
        userIdentity: { type: 'IAMUser', userName: user },
      };
      const start = performance.now();
      await dropObject(p, p.env.INGEST_BUCKET, `bench/${user}.json`, JSON.stringify(event));
      for (;;) {
        const { items } = await listAlerts({ detectionId: 'Bench.Login' }, 100);
        if (items.some((a) => a.dedupString === user)) break;
        if (performance.now() - start > 30_000) throw new Error(`no alert for ${user} after 30 s`);
        await new Promise((r) => setTimeout(r, 50));
      }
      // The first sample warms the functions' containers up; it is not counted.
      if (i >= 0) out.push(performance.now() - start);
    }
    return out;
  } finally {
    await p.stop();
  }
}
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
      `  ${median(ratios).toFixed(2)} x baseline  (${fmt(median(cand))} events per CPU-second vs ${fmt(median(base))} lines per CPU-second gunzip+JSON.parse+stringify+gzip+write;` +
      ` round ratios ${ratios.map((r) => r.toFixed(2)).join(' ')})\n`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}

const samples = await latencies();
process.stdout.write(
  `object creation to alert, local runtime (${samples.length} sequential objects, one matching event each)\n` +
    `  median ${fmt(median(samples))} ms, p95 ${fmt(p95(samples))} ms  (min ${fmt(Math.min(...samples))}, max ${fmt(Math.max(...samples))})\n`,
);
