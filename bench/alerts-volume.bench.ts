// Alerts at volume (issue #20), in one run, with the AWS stand-ins (dynalite, s3rver, the SQS stand-in) in a child
// process of their own so this process's CPU time is the detections function's alone:
// 1. detections throughput: 100,000 CloudTrail events (10% matching one of three rules), normalized by the log
//    processor's own modules (its events per CPU-second measured on the same data), then through the detections
//    batch code with the Python engine (a detection worker; its CPU time, sandboxes included, is counted) in
//    batches of 10 objects: events per CPU-second, as a ratio to the log processor's;
// 2. event-to-alert latency while that burst drains, through the SQS stand-in (a fair queue, as the detections
//    queue is on AWS: each message's group is its log source and log type): the burst's objects, all from one log
//    source, are sent to the queue, as many pollers as the detections mapping's MaximumConcurrency
//    (DETECTIONS_CONCURRENCY, 5; `BENCH_POLLERS`) receive batches of 10 (as the event source mapping and the local
//    runtime do), and every 250 ms a probe object with one matching event of another detection is sent behind them
//    from ANOTHER log source (the realistic case: a new alert rarely comes from the source that floods); the
//    probe's time from its send to its alert existing, median and p95, and the burst's own drain time; measured
//    with 2 consumers (how this bench modelled the mapping before) and with the mapping's, each with the probes in
//    the burst's own group (arrival order, as a queue without groups) and from another source; and a burst of
//    the objects three times over, more than the consumers hold at once, so that it waits in the queue;
// 3. the alert list at 50,000 alerts: p95 of each filter the alerts page offers (25 sequential requests after 3
//    warm-ups), the most items one request read (DynamoDB's ScannedCount) against what it returned, and the p95
//    of one GetItem as a yardstick;
// 4. bytes per alert: the stored item and its index entries (DynamoDB's item-size rule: names plus values).
// `BENCH_ALERTS` (default 50000) and `BENCH_EVENTS` (default 100000) size it; `BENCH_PARTS=1` runs part 1 alone.
import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { gzipSync } from 'node:zlib';
import { LOCAL_ACCESS_KEY } from '../local/services/net';

const ALERTS = Number(process.env.BENCH_ALERTS ?? 50_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
/** `BENCH_PARTS=1` runs part 1 only (detections throughput) and stops. */
const PARTS_WANTED = process.env.BENCH_PARTS;
const LINES_PER_OBJECT = 20_000;
/** The log source of part 2's probes: not the burst's. */
const PROBE_SOURCE = 'bench-probes';

if (process.argv[2] === '--stand-ins') {
  // The child: the stand-ins, the entity table, the lake bucket and the alert-changes queue; tells the parent
  // their environment on one line, then serves until killed.
  const { startEntityTable } = await import('../tests/functions/alerts/entity-table');
  const { startS3 } = await import('../local/services/s3');
  const { startAlertChanges } = await import('../tests/functions/alerts/alert-changes');
  await startEntityTable('bench');
  const s3 = await startS3(process.argv[3]);
  await startAlertChanges();
  process.stdout.write(
    JSON.stringify({
      AWS_ENDPOINT_URL_DYNAMODB: process.env.AWS_ENDPOINT_URL_DYNAMODB,
      AWS_ENDPOINT_URL_SQS: process.env.AWS_ENDPOINT_URL_SQS,
      ALERT_CHANGES_QUEUE_URL: process.env.ALERT_CHANGES_QUEUE_URL,
      AWS_ENDPOINT_URL_S3: s3.endpoint,
    }) + '\n',
  );
  await new Promise(() => undefined);
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
};
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

function cloudTrailLine(i: number): string {
  const account = String(100000000000 + (i % 97));
  return JSON.stringify({
    eventVersion: '1.08',
    userIdentity: {
      type: 'AssumedRole',
      principalId: `AROAEXAMPLE${i % 13}:session-${i}`,
      arn: `arn:aws:sts::${account}:assumed-role/deploy-role/session-${i}`,
      accountId: account,
    },
    eventTime: `2026-11-21T${String(8 + (i % 4)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:${String((i * 7) % 60).padStart(2, '0')}Z`,
    eventSource: ['sts.amazonaws.com', 's3.amazonaws.com', 'ec2.amazonaws.com'][i % 3],
    eventName: ['AssumeRole', 'GetObject', 'PutObject', 'DescribeInstances', 'ConsoleLogin'][i % 5],
    awsRegion: ['us-east-1', 'us-west-2', 'eu-west-1'][i % 3],
    sourceIPAddress: `203.0.113.${i % 250}`,
    userAgent: 'aws-cli/2.15.0 Python/3.11.6 Linux/6.1 exe/x86_64.amzn.2023',
    requestParameters: { bucketName: `bucket-${i % 50}`, key: `logs/2026/11/21/object-${i}.json.gz` },
    requestID: `REQ${i.toString(16).padStart(12, '0')}`,
    eventID: `0f${i.toString(16).padStart(6, '0')}-1a2b-4c3d-8e9f-0123456789ab`,
    readOnly: i % 3 !== 0,
    eventType: 'AwsApiCall',
    recipientAccountId: account,
  });
}

// Rules in the style of the corpus; Bench.Login matches 10% of the events (ConsoleLogin from the lower half of the
// addresses: 25 of every 250), deduplicated by address; Bench.Probe matches only the probes.
const RULES: Record<string, string> = {
  'Bench.Login': `def rule(event):
    return event.get("eventName") == "ConsoleLogin" and int(event.get("sourceIPAddress", "0").split(".")[-1]) < 125

def title(event):
    return f"Console login from {event.get('sourceIPAddress')}"

def dedup(event):
    return event.get("sourceIPAddress")

def alert_context(event):
    return {"ip": event.get("sourceIPAddress"), "arn": event.deep_get("userIdentity", "arn")}
`,
  'Bench.Root': `def rule(event):
    return event.deep_get("userIdentity", "type") == "Root"
`,
  'Bench.Sensitive': `SENSITIVE = {"DeleteTrail", "StopLogging", "PutBucketPolicy"}
def rule(event):
    return event.get("eventName") in SENSITIVE and not event.get("errorCode")
`,
  'Bench.Probe': `def rule(event):
    return event.get("eventName") == "BenchProbe"

def dedup(event):
    return event.get("requestID")
`,
};

/** CPU seconds (user + system) of a process and every process under it, from /proc. */
function treeCpuSeconds(root: number): number {
  const tick = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  const parent = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(entry), Number(fields[1]));
      cpu.set(Number(entry), (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / tick);
    } catch {
      // the process ended while being read
    }
  }
  let total = 0;
  for (const [pid, seconds] of cpu) {
    let p: number | undefined = pid;
    while (p && p !== root) p = parent.get(p);
    if (p === root) total += seconds;
  }
  return total;
}

const state = mkdtempSync(join(tmpdir(), 'caracal-alerts-volume-'));
const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--stand-ins', join(state, 's3')], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
process.on('exit', () => child.kill());
const env = await new Promise<Record<string, string>>((resolve, reject) => {
  createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line) as Record<string, string>));
  child.once('exit', (code) => reject(new Error(`stand-ins exited (${code})`)));
});
Object.assign(process.env, env, {
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: LOCAL_ACCESS_KEY,
  AWS_SECRET_ACCESS_KEY: LOCAL_ACCESS_KEY,
  AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
  AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
  ENTITY_TABLE: 'bench',
  LAKE_BUCKET: 'lake',
});

const { CreateBucketCommand, PutObjectCommand } = await import('@aws-sdk/client-s3');
const { CreateQueueCommand, DeleteMessageBatchCommand, ReceiveMessageCommand } = await import('@aws-sdk/client-sqs');
const { sendEventsWritten } = await import('../functions/lib/pipeline/detections-queue');
/** Consumers of the detections queue in part 2: the detections mapping's (`BENCH_POLLERS` to try another). */
const POLLERS = Number(process.env.BENCH_POLLERS ?? 0) || (await import('../infra/detections/detections')).DETECTIONS_CONCURRENCY;
const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
const { compileSchema, managedSchema } = await import('../core/schemas/index');
const { processObject } = await import('../functions/lib/pipeline/process-object');
const { directoryLakeSink } = await import('../functions/lib/pipeline/dir-sink');
const { s3, sqs, dynamo } = await import('../functions/lib/clients');
const { dynamoDedupStore, listAlerts, getAlert } = await import('../functions/lib/alerts');
const { putAlert } = await import('../functions/lib/alerts/repository');
const { storedEngineContent } = await import('../functions/lib/detections/content');
const process_ = await import('../functions/lib/detections');
const { DetectionWorker } = await import('../functions/detection-engine/worker-client');
type StoredDetection = import('../functions/lib/detections').StoredDetection;
type Engine = import('../functions/lib/detections').Engine;
type EventsWrittenMessage = import('../core/pipeline/messages').EventsWrittenMessage;
type Alert = import('../core/alerts/model').Alert;

const worker = new DetectionWorker();
const enginePid = (worker as unknown as { child: ChildProcess }).child.pid!;
try {
  await s3().send(new CreateBucketCommand({ Bucket: 'lake' }));

  // 1. The log processor on the data, then detections on its output.
  const parsers = ['AWS.CloudTrail'].map((t) => compileSchema(managedSchema(t)!));
  const sinkRoot = join(state, 'processed');
  let processed = 0;
  const processorStart = process.cpuUsage();
  for (let o = 0; o * LINES_PER_OBJECT < EVENTS; o++) {
    const lines = Array.from({ length: Math.min(LINES_PER_OBJECT, EVENTS - o * LINES_PER_OBJECT) }, (_, i) =>
      cloudTrailLine(o * LINES_PER_OBJECT + i),
    );
    const body = gzipSync(lines.join('\n'));
    const result = await processObject(
      {
        input: { sourceId: 'bench', bucket: 'ingest', key: `bench/${o}.json.gz`, etag: String(o) },
        sourceLabel: 'bench',
        format: { streamType: 'Auto' },
        parsers,
        body: (async function* () {
          yield body;
        })(),
        parseTime: new Date('2026-11-21T12:00:00Z'),
      },
      directoryLakeSink(sinkRoot),
    );
    processed += result.events;
  }
  const processorCpu = process.cpuUsage(processorStart);
  const processorRate = processed / ((processorCpu.user + processorCpu.system) / 1e6);

  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }))
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else files.push(join(dir, entry.name));
  };
  walk(sinkRoot);
  const messages: EventsWrittenMessage[] = [];
  for (const file of files) {
    const key = relative(sinkRoot, file);
    await s3().send(new PutObjectCommand({ Bucket: 'lake', Key: key, Body: await readFile(file) }));
    messages.push({
      kind: 'events-written',
      bucket: 'lake',
      key,
      logType: 'AWS.CloudTrail',
      sourceId: 'bench',
      events: 0,
      receivedAt: new Date().toISOString(),
    });
  }

  const detection = (id: string): StoredDetection => ({
    id,
    type: 'rule',
    yaml: '',
    spec: { AnalysisType: 'rule', RuleID: id, Enabled: true, Severity: 'Medium', LogTypes: ['AWS.CloudTrail'] },
    body: RULES[id],
    enabled: true,
    logTypes: ['AWS.CloudTrail'],
    version: 1,
    createdAt: '',
    createdBy: '',
    lastModified: '',
    lastModifiedBy: '',
  });
  const rules = Object.keys(RULES).map(detection);
  const content = { ...storedEngineContent(rules, []), version: 'bench:1' };
  const engineOf = (w: InstanceType<typeof DetectionWorker>): Engine => {
    let loaded = false;
    return {
      async run(c, events, lookups) {
        if (!loaded) {
          await w.request('load', { content: c });
          loaded = true;
        }
        return w.request('run', { events, ...(lookups ? { lookups } : {}) });
      },
      // as the function's Lambda engine sends a run (runRequestJson): the lake's lines as they are, in one string
      async runJson(c, events, lookups) {
        if (!loaded) {
          await w.request('load', { content: c });
          loaded = true;
        }
        return w.requestJson('run', {
          eventsJson: JSON.stringify(`[${events.join(',')}]`),
          eventCount: String(events.length),
          ...(lookups ? { lookups: JSON.stringify(lookups) } : {}),
        });
      },
      test: async () => [],
      check: async () => [],
    };
  };
  const engine = engineOf(worker);
  const depsOf = (e: Engine) => ({
    engine: e,
    dedup: dynamoDedupStore,
    detectionsFor: async () => ({ detections: new Map(rules.map((r) => [r.id, r])), content }),
    lakeBucket: 'lake',
    onSystemAlert: async () => undefined,
  });
  const deps = depsOf(engine);
  // A batch as the function runs it: together where the code batches, else one message after another.
  const batchRunner = (process_ as { processBatch?: (m: EventsWrittenMessage[], d: typeof deps) => Promise<unknown[]> })
    .processBatch;
  const runBatch = async (batch: EventsWrittenMessage[], d = deps) => {
    if (batchRunner) await batchRunner(batch, d);
    else for (const m of batch) await process_.processMessage(m, d);
  };
  const batches = (list: EventsWrittenMessage[]) =>
    Array.from({ length: Math.ceil(list.length / 10) }, (_, i) => list.slice(i * 10, i * 10 + 10));

  await engine.run(content, [JSON.parse(cloudTrailLine(0)) as Record<string, unknown>]);
  const engineCpu0 = treeCpuSeconds(enginePid);
  const detectionsStart = process.cpuUsage();
  const wallStart = performance.now();
  for (const batch of batches(messages)) await runBatch(batch);
  const wall = (performance.now() - wallStart) / 1000;
  const ownCpu = process.cpuUsage(detectionsStart);
  const engineCpu = treeCpuSeconds(enginePid) - engineCpu0;
  const detectionsCpu = (ownCpu.user + ownCpu.system) / 1e6 + engineCpu;
  const detectionsRate = processed / detectionsCpu;
  const created = (await listAlerts({ detectionId: 'Bench.Login' }, 100)).items;
  process.stdout.write(
    `detections, ${fmt(processed)} events in ${messages.length} objects (10% matching; ${created.length} alerts)\n` +
      `  log processor ${fmt(processorRate)} events per CPU-second; detections ${fmt(detectionsRate)} events per CPU-second ` +
      `(function ${((ownCpu.user + ownCpu.system) / 1e6).toFixed(2)} s + engine ${engineCpu.toFixed(2)} s CPU; ${wall.toFixed(1)} s wall)\n` +
      `  detections / log processor: ${(detectionsRate / processorRate).toFixed(2)}x  (target >= 0.5x)\n`,
  );
  if (PARTS_WANTED === '1') {
    // part 1 alone (`BENCH_PARTS=1`): the figure to watch while working on the detections function
    worker.close();
    child.kill();
    rmSync(state, { recursive: true, force: true });
    process.exit(0);
  }

  // 2. Latency of a new alert while the same burst drains again (new windows: a later processing time), through
  // the SQS stand-in's detections queue as the local runtime runs it: the burst's messages and the probes are sent
  // by the log processor's own sender (sendEventsWritten, which names each message's fair-queue group), and
  // POLLERS consumers receive batches of 10, run them and delete them.
  const QueueUrl = (await sqs().send(new CreateQueueCommand({ QueueName: 'bench-detections' }))).QueueUrl!;
  // each consumer is one invocation at a time with an engine of its own, as each concurrent Lambda (and each
  // local container) has
  const workers = Array.from({ length: POLLERS - 1 }, () => new DetectionWorker());
  const consumers = [deps, ...workers.map((w) => depsOf(engineOf(w)))];
  // warm: each engine has loaded the content before the clock starts
  await Promise.all(consumers.map((c) => c.engine.run(content, [JSON.parse(cloudTrailLine(1)) as Record<string, unknown>])));
  const drainWithProbes = async (probeSource: string, label: string, pollers: number, copies = 1) => {
    const burst = Array.from({ length: copies }, () => messages).flat();
    const latencies: number[] = [];
    const probeSentAt = new Map<string, number>();
    let probes = 0;
    let draining = true;
    let burstLeft = burst.length;
    let burstDrained = 0;
    const drainStart = performance.now();
    await sendEventsWritten(
      QueueUrl,
      burst.map((m) => ({ ...m, receivedAt: new Date().toISOString() })),
    );
    const probeLoop = (async () => {
      while (draining) {
        const id = `${probeSource}-probe-${probes++}`;
        const key = `probes/${id}.json.gz`;
        const event = {
          ...(JSON.parse(cloudTrailLine(probes)) as Record<string, unknown>),
          eventName: 'BenchProbe',
          requestID: id,
        };
        await s3().send(new PutObjectCommand({ Bucket: 'lake', Key: key, Body: gzipSync(JSON.stringify(event)) }));
        probeSentAt.set(key, performance.now());
        // from `probeSource`: the burst's own (one fair-queue group with it) or another (a group of its own)
        await sendEventsWritten(QueueUrl, [
          { ...messages[0], sourceId: probeSource, key, events: 1, receivedAt: new Date().toISOString() },
        ]);
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    const poller = async (d: typeof deps) => {
      while (draining || burstLeft > 0 || latencies.length < probeSentAt.size) {
        const { Messages = [] } = await sqs().send(
          new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
        );
        if (!Messages.length) continue;
        const taken = Messages.map((m) => JSON.parse(m.Body!) as EventsWrittenMessage);
        await runBatch(taken, d);
        const done = performance.now();
        for (const t of taken) {
          const sentAt = probeSentAt.get(t.key);
          if (sentAt !== undefined) latencies.push(done - sentAt);
          else if (--burstLeft === 0) burstDrained = (done - drainStart) / 1000;
        }
        await sqs().send(
          new DeleteMessageBatchCommand({
            QueueUrl,
            Entries: Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
          }),
        );
        // probes keep coming until the burst is through
        if (burstLeft === 0) draining = false;
      }
    };
    await Promise.all(consumers.slice(0, pollers).map(poller));
    await probeLoop;
    process.stdout.write(
      `event to alert while ${fmt(processed * copies)} events drain (${burst.length} objects from one source; the burst drained in ` +
        `${burstDrained.toFixed(1)} s; SQS stand-in, ${pollers} pollers, batches of 10; ${latencies.length} probes from ${label})\n` +
        `  median ${fmt(percentile(latencies, 0.5))} ms, p95 ${fmt(percentile(latencies, 0.95))} ms, max ${fmt(Math.max(...latencies))} ms  (target p95 < 1,000 ms)\n`,
    );
  };
  // the probes in the burst's own group (what a queue without groups gives: arrival order), then from another
  // source (the fair queue's case); with 2 consumers (as this bench modelled the mapping before), then POLLERS
  for (const pollers of new Set([2, POLLERS])) {
    await drainWithProbes('bench', "the burst's own source", pollers);
    await drainWithProbes(PROBE_SOURCE, 'another source', pollers);
  }
  // A burst larger than the consumers hold at once (the objects 3 times over), so messages wait in the queue:
  // what the fair queue is for.
  process.stdout.write(`a burst that waits in the queue (${POLLERS} pollers x 10 < ${messages.length * 3} objects):\n`);
  await drainWithProbes('bench', "the burst's own source", POLLERS, 3);
  await drainWithProbes(PROBE_SOURCE, 'another source', POLLERS, 3);
  for (const w of workers) w.close();
} finally {
  worker.close();
}

// 3. The alert list at ALERTS alerts.
const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] as const;
const STATUSES = ['OPEN', 'OPEN', 'TRIAGED', 'RESOLVED', 'CLOSED'] as const;
const TYPES = [
  'ALERT',
  'ALERT',
  'ALERT',
  'ALERT',
  'ALERT',
  'ALERT',
  'ALERT',
  'ALERT',
  'DETECTION_ERROR',
  'SYSTEM_ERROR',
] as const;
const LOG_TYPES = ['AWS.CloudTrail', 'Okta.SystemLog', 'GitHub.Audit', 'AWS.VPCFlow', 'GCP.AuditLog'];
const at0 = Date.UTC(2026, 5, 1);
function alertOf(i: number): Alert {
  const created = new Date(at0 + i * 60_000).toISOString();
  const type = TYPES[i % TYPES.length];
  return {
    id: `bench${String(i).padStart(27, '0')}`,
    type,
    title: i % 1000 === 7 ? `Rare exfiltration pattern ${i}` : `Suspicious console login from 203.0.113.${i % 250}`,
    severity: SEVERITIES[(i >> 1) % SEVERITIES.length],
    status: STATUSES[(i >> 2) % STATUSES.length],
    detectionId: type === 'SYSTEM_ERROR' ? null : `Bench.Rule.${i % 200}`,
    systemKind: type === 'SYSTEM_ERROR' ? 'SOURCE_NO_DATA' : null,
    sourceId: `source-${i % 20}`,
    description: 'A benchmark alert with a sentence of description.',
    logTypes: type === 'SYSTEM_ERROR' ? [] : [LOG_TYPES[i % LOG_TYPES.length]],
    eventCount: 1 + (i % 9),
    firstEventAt: created,
    lastEventAt: created,
    createdAt: created,
    updatedAt: new Date(at0 + ((i * 7919) % ALERTS) * 60_000 + i).toISOString(),
    dedupString: `203.0.113.${i % 250}`,
    alertContext: { ip: `203.0.113.${i % 250}`, user: `user${i % 50}` },
    runbook: 'Check who signed in and from where.',
    reference: 'https://example.com/runbooks/console-login',
    signalsTable: type === 'SYSTEM_ERROR' ? null : 'panther_signals.aws_cloudtrail',
    assigneeId: i % 5 < 3 ? null : `user-${i % 10}`,
    revision: 0,
  };
}
const seedStart = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: 16 }, async () => {
    while (next < ALERTS) await putAlert(alertOf(next++));
  }),
);
process.stdout.write(`\nseeded ${fmt(ALERTS)} alerts in ${((performance.now() - seedStart) / 1000).toFixed(1)} s\n`);

// Bytes per alert: the item as stored, and each index entry (projected attributes) by DynamoDB's size rule.
const sizeOf = (value: unknown): number => {
  if (value === null || typeof value === 'boolean') return 1;
  if (typeof value === 'number') return 8;
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (Array.isArray(value)) return 3 + value.reduce((n: number, v) => n + 1 + sizeOf(v), 0);
  return 3 + Object.entries(value as Record<string, unknown>).reduce((n, [k, v]) => n + 1 + Buffer.byteLength(k) + sizeOf(v), 0);
};
const itemSize = (item: Record<string, unknown>) =>
  Object.entries(item).reduce((n, [k, v]) => n + Buffer.byteLength(k) + sizeOf(v), 0);
const stored = (
  await dynamo().send(new GetCommand({ TableName: 'bench', Key: { pk: `ALERT#${alertOf(ALERTS >> 1).id}`, sk: 'ALERT' } }))
).Item!;
const base = itemSize(stored);
// An index entry holds the table's and the index's keys and what the index projects (all of it for gsi1..3).
type Indexes = typeof import('../functions/lib/alerts/indexes');
const alertIndexes = (await import('../functions/lib/alerts/indexes').catch(() => null)) as Indexes | null;
let indexes = 0;
let entries = 0;
for (const name of Object.keys(stored))
  if (/^gsi\dpk$/.test(name)) {
    entries++;
    indexes += base;
  }
for (const index of alertIndexes?.ALERT_INDEXES ?? []) {
  const keys = [alertIndexes!.indexPk(index), alertIndexes!.indexSk(index)];
  if (!(keys[0] in stored)) continue;
  const kept = new Set(['pk', 'sk', ...keys, ...alertIndexes!.projectedBy(index)]);
  entries++;
  indexes += itemSize(Object.fromEntries(Object.entries(stored).filter(([k]) => kept.has(k))));
}
process.stdout.write(
  `bytes per alert: item ${fmt(base)} B + ${entries} index entries ${fmt(indexes)} B = ${fmt(base + indexes)} B` +
    ` (DynamoDB's size rule; the demo-like alert with a two-field context)\n`,
);
let scanned = 0;
const client = dynamo();
const send = client.send.bind(client);
(client as { send: unknown }).send = async (command: { constructor: { name: string } }) => {
  if (command.constructor.name === 'ScanCommand') throw new Error('a Scan was sent');
  const out = (await send(command as never)) as { ScannedCount?: number };
  if (command.constructor.name === 'QueryCommand') scanned += out.ScannedCount ?? 0;
  return out;
};
const measure = async (run: () => Promise<unknown>) => {
  for (let w = 0; w < 3; w++) await run();
  const times: number[] = [];
  for (let s = 0; s < 25; s++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return { median: percentile(times, 0.5), p95: percentile(times, 0.95) };
};
const one = await measure(() => getAlert(alertOf((ALERTS >> 1) + 1).id));
process.stdout.write(`one alert by id (GetItem): median ${one.median.toFixed(1)} ms, p95 ${one.p95.toFixed(1)} ms\n`);
const day = new Date(at0 + 20 * 86400_000).toISOString().slice(0, 10);
const cases: [string, Record<string, unknown>][] = [
  ['first page (every type)', {}],
  ['type: detection errors', { type: 'DETECTION_ERROR' }],
  ['severity: Critical', { severities: ['CRITICAL'] }],
  ['status: Open', { statuses: ['OPEN'] }],
  ['status: Resolved + Closed', { statuses: ['RESOLVED', 'CLOSED'] }],
  ['severity Critical + status Open, alerts', { type: 'ALERT', severities: ['CRITICAL'], statuses: ['OPEN'] }],
  ['severity Critical+High + status Open+Triaged', { severities: ['CRITICAL', 'HIGH'], statuses: ['OPEN', 'TRIAGED'] }],
  ['assignee: one user ("me")', { assignee: 'user-3' }],
  ['assignee: unassigned', { assignee: 'unassigned' }],
  ['detection', { detectionId: 'Bench.Rule.17' }],
  ['log type', { logType: 'Okta.SystemLog' }],
  ['source', { sourceId: 'source-7' }],
  ['created in one day', { createdFrom: `${day}T00:00:00.000Z`, createdTo: `${day}T23:59:59.999Z` }],
  ['title search (1 in 1,000)', { title: 'exfiltration' }],
  ['sorted by last update', { sort: 'updatedAt' }],
  ['sorted by severity', { sort: 'severity' }],
  ['detection + status Open + unassigned', { detectionId: 'Bench.Rule.17', statuses: ['OPEN'], assignee: 'unassigned' }],
  ['log type + severity Critical + status Open', { logType: 'GitHub.Audit', severities: ['CRITICAL'], statuses: ['OPEN'] }],
  ['matching nothing (detection + other log type)', { detectionId: 'Bench.Rule.17', logType: 'AWS.VPCFlow' }],
];
process.stdout.write(`alert list at ${fmt(ALERTS)} alerts, pages of 25 (reads: the most items one request evaluated)\n`);
for (const [name, filter] of cases) {
  let shown = 0;
  let most = 0;
  const figures = await measure(async () => {
    scanned = 0;
    const page = await listAlerts(filter as never, 25);
    shown = page.items.length;
    most = Math.max(most, scanned);
  });
  process.stdout.write(
    `  ${name}: ${shown} shown, ${fmt(most)} read; median ${figures.median.toFixed(1)} ms, p95 ${figures.p95.toFixed(1)} ms` +
      ` (${(figures.p95 / one.p95).toFixed(1)}x GetItem)\n`,
  );
}
child.kill();
rmSync(state, { recursive: true, force: true });
process.exit(0);
