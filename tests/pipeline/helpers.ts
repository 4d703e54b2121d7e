// The ingestion pipeline end to end on the local runtime: a runtime with a signed-in administrator, log
// sources created through the API, objects dropped into buckets, requests posted to HTTP sources, and the
// lake read back with DuckDB. Later stages (signals, alerts) build on the same helpers.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { openLake, type Row } from '../../local/services/athena/duckdb';
import { localClientConfig } from '../../local/services/net';
import { graphql, signIn, startTestRuntime, type TestRuntime } from '../local/harness';

export const ADMIN_PASSWORD = 'Correct-Horse-42-Battery';

export interface PipelineRuntime {
  readonly runtime: TestRuntime;
  /** The administrator's id token, for the GraphQL API. */
  readonly token: string;
  readonly s3: S3Client;
  readonly sqs: SQSClient;
  /** The log processor's environment: INGEST_BUCKET, LAKE_BUCKET, DETECTIONS_QUEUE_URL, ENTITY_TABLE, ... */
  readonly env: Record<string, string>;
  /** `<origin>/ingest/`: where HTTP sources' endpoints live. */
  readonly httpIngestUrl: string;
  stop(): Promise<void>;
}

function functionEnvironment(runtime: TestRuntime, logicalIdPrefix: string): Record<string, string> {
  const fn = [...runtime.functions.values()].find((f) => f.spec.logicalId.startsWith(logicalIdPrefix));
  if (!fn) throw new Error(`the template has no function ${logicalIdPrefix}*`);
  return fn.spec.environment;
}

/**
 * Starts the runtime and signs the administrator in. The process takes the log processor's environment, so a
 * test may call functions/lib code (repositories) against the runtime's stand-ins.
 */
export async function startPipelineRuntime(options: Parameters<typeof startTestRuntime>[2] = {}): Promise<PipelineRuntime> {
  const runtime = await startTestRuntime(undefined, undefined, options);
  const env = functionEnvironment(runtime, 'ProcessingLogProcessorFunction');
  Object.assign(process.env, env);
  const [admin] = runtime.createdUsers;
  const { idToken } = await signIn(runtime, admin.username, admin.temporaryPassword, ADMIN_PASSWORD);
  const s3 = new S3Client(localClientConfig(runtime.endpoints.s3, runtime.stack.region));
  const sqs = new SQSClient(localClientConfig(runtime.endpoints.sqs, runtime.stack.region));
  const httpIngestUrl = Object.entries(runtime.endpoints.functionUrls).find(([id]) => id.startsWith('ProcessingHttpIngest'))![1];
  return {
    runtime,
    token: idToken,
    s3,
    sqs,
    env,
    httpIngestUrl,
    stop: async () => {
      s3.destroy();
      sqs.destroy();
      await runtime.stop();
    },
  };
}

/** A GraphQL call as the administrator; errors fail the call with their messages. */
export async function api<T = Record<string, unknown>>(
  p: PipelineRuntime,
  query: string,
  variables: Record<string, unknown> = {},
) {
  const { body } = await graphql(p.runtime, { query, variables }, p.token);
  if (body.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(body.errors)}`);
  return body.data as T;
}

export interface CreatedSource {
  readonly id: string;
  readonly label: string;
  readonly endpointUrl: string | null;
}

const SOURCE_FIELDS = 'id label http { endpointUrl }';

export async function createS3Source(
  p: PipelineRuntime,
  input: { label: string; bucket: string; prefix: string; logTypes: string[]; excludedPrefixes?: string[]; streamType?: string },
): Promise<CreatedSource> {
  const data = await api<{ createS3LogSource: { id: string; label: string } }>(
    p,
    `mutation($input: S3LogSourceInput!) { createS3LogSource(input: $input) { ${SOURCE_FIELDS} } }`,
    {
      input: {
        label: input.label,
        bucket: input.bucket,
        prefixes: [{ prefix: input.prefix, excludedPrefixes: input.excludedPrefixes ?? [], logTypes: input.logTypes }],
        ...(input.streamType ? { streamType: input.streamType } : {}),
      },
    },
  );
  return { ...data.createS3LogSource, endpointUrl: null };
}

export async function createHttpSource(
  p: PipelineRuntime,
  input: {
    label: string;
    logTypes: string[];
    authType: string;
    secret?: string;
    username?: string;
    headerName?: string;
    hmacAlgorithm?: string;
    signatureHeader?: string;
    streamType?: string;
  },
): Promise<CreatedSource> {
  const data = await api<{ createHttpLogSource: { id: string; label: string; http: { endpointUrl: string | null } } }>(
    p,
    `mutation($input: HttpLogSourceInput!) { createHttpLogSource(input: $input) { ${SOURCE_FIELDS} } }`,
    { input },
  );
  const { id, label, http } = data.createHttpLogSource;
  return { id, label, endpointUrl: http.endpointUrl };
}

export async function createSqsSource(
  p: PipelineRuntime,
  input: { label: string; logTypes: string[] },
): Promise<CreatedSource & { queueUrl: string; queueArn: string }> {
  const data = await api<{ createSqsLogSource: { id: string; label: string; sqs: { queueUrl: string; queueArn: string } } }>(
    p,
    `mutation($input: SqsLogSourceInput!) { createSqsLogSource(input: $input) { id label sqs { queueUrl queueArn } } }`,
    { input: { ...input, allowedPrincipalArns: ['123456789012'], allowedSourceArns: [] } },
  );
  const { id, label, sqs } = data.createSqsLogSource;
  return { id, label, endpointUrl: null, ...sqs };
}

/** Sends messages to an SQS source's queue, as a customer's producer would. */
export async function sendToSourceQueue(p: PipelineRuntime, queueUrl: string, bodies: string[]): Promise<void> {
  for (const MessageBody of bodies) await p.sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody }));
}

/** Writes an object: into the ingest bucket it is announced to the log processor by the bucket's notification. */
export async function dropObject(p: PipelineRuntime, bucket: string, key: string, body: string | Uint8Array): Promise<void> {
  await p.s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
}

/** Announces an object to the log processor as a customer bucket's S3 notification would. */
export async function announceObject(p: PipelineRuntime, bucket: string, key: string, eventTime = new Date()): Promise<void> {
  const queue = Object.entries(p.runtime.stack.resources).find(
    ([id, r]) => r.Type === 'AWS::SQS::Queue' && /^IngestIngestQueue[0-9A-F]{8}$/.test(id),
  )!;
  const QueueUrl = p.runtime.resolver.lookup(queue[0])!.ref;
  const record = {
    eventVersion: '2.1',
    eventSource: 'aws:s3',
    eventName: 'ObjectCreated:Put',
    eventTime: eventTime.toISOString(),
    s3: {
      bucket: { name: bucket, arn: `arn:aws:s3:::${bucket}` },
      object: { key: encodeURIComponent(key).replace(/%2F/g, '/') },
    },
  };
  await p.sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: JSON.stringify({ Records: [record] }) }));
}

export interface PostResult {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** POSTs to an HTTP source's endpoint (the URL, or a source id under the runtime's ingest URL). */
export async function postToSource(
  p: PipelineRuntime,
  sourceIdOrUrl: string,
  body: string | Uint8Array,
  headers: Record<string, string> = { 'content-type': 'application/x-ndjson' },
): Promise<PostResult> {
  const url = sourceIdOrUrl.startsWith('http') ? sourceIdOrUrl : `${p.httpIngestUrl}${sourceIdOrUrl}`;
  const response = await fetch(url, { method: 'POST', headers, body: typeof body === 'string' ? body : Uint8Array.from(body) });
  const text = await response.text();
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = { text };
  }
  return { status: response.status, body: parsed };
}

/** Every key in a bucket under a prefix. */
export async function listKeys(p: PipelineRuntime, bucket: string, prefix = ''): Promise<string[]> {
  const keys: string[] = [];
  let ContinuationToken: string | undefined;
  do {
    const out = await p.s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken }));
    keys.push(...(out.Contents ?? []).map((o) => o.Key!));
    ContinuationToken = out.NextContinuationToken;
  } while (ContinuationToken);
  return keys.sort();
}

/** Copies the lake bucket into a folder and runs SQL over it with DuckDB (tables `panther_logs.<table>`). */
export async function queryLake(p: PipelineRuntime, sql: string): Promise<Row[]> {
  const bucket = p.env.LAKE_BUCKET;
  const dir = mkdtempSync(join(tmpdir(), 'caracal-lake-'));
  try {
    for (const key of await listKeys(p, bucket)) {
      const out = await p.s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      const file = join(dir, key);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, await out.Body!.transformToByteArray());
    }
    const lake = await openLake(dir);
    try {
      return await lake.query(sql);
    } finally {
      lake.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Probes until `ok` holds (every 250 ms, up to `timeoutMs`), answering the last value. */
export async function eventually<T>(probe: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  let value = await probe();
  while (!ok(value) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 250));
    value = await probe();
  }
  return value;
}

/** The lake files written for a log type (keys under panther_logs/<table>/). */
export const lakeKeys = (p: PipelineRuntime, table: string) => listKeys(p, p.env.LAKE_BUCKET, `panther_logs/${table}/`);
