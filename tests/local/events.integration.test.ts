// Event routing of the local runtime on a fixture app: SQS event-source mappings (batching, partial batch
// failures, dead-letter queue), S3 notification filters, Python functions and time limits.
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localClientConfig } from '../../local/services/net';
import { resourcesOfType } from '../../local/template';
import { synthEventsApp } from './fixtures/events-app';
import { startTestRuntime, type TestRuntime } from './harness';

let runtime: TestRuntime;
let assembly: string;
let stateDir: string;
const ref = (prefix: string) =>
  runtime.resolver.lookup(Object.keys(runtime.stack.resources).find((id) => new RegExp(`^${prefix}[0-9A-F]{8}$`).test(id))!)!.ref;
const config = () => localClientConfig(runtime.endpoints.sqs, 'us-east-1');

async function seenKeys(): Promise<string[]> {
  const dynamo = new DynamoDBClient(localClientConfig(runtime.endpoints.dynamodb, 'us-east-1'));
  const items = await dynamo.send(new ScanCommand({ TableName: ref('Seen') }));
  dynamo.destroy();
  return (items.Items ?? []).map((i) => i.pk.S!).sort();
}

async function eventually<T>(probe: () => Promise<T>, ok: (v: T) => boolean, tries = 60): Promise<T> {
  let value = await probe();
  for (let i = 0; i < tries && !ok(value); i++) {
    await new Promise((r) => setTimeout(r, 250));
    value = await probe();
  }
  return value;
}

beforeAll(async () => {
  assembly = mkdtempSync(join(tmpdir(), 'caracal-fixture-cdk-'));
  stateDir = mkdtempSync(join(tmpdir(), 'caracal-fixture-state-'));
  synthEventsApp(assembly);
  runtime = await startTestRuntime(assembly, stateDir);
});
afterAll(async () => {
  await runtime?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

describe('SQS event-source mapping', () => {
  it('delivers batches, deletes what succeeded, and moves a message that keeps failing to the dead-letter queue', async () => {
    const sqs = new SQSClient(config());
    const QueueUrl = ref('Work');
    for (const body of ['alpha', 'fail', 'bravo']) await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: body }));
    const keys = await eventually(seenKeys, (k) => k.includes('alpha') && k.includes('bravo'));
    expect(keys).toEqual(expect.arrayContaining(['alpha', 'bravo']));
    const dead = await eventually(
      () => sqs.send(new ReceiveMessageCommand({ QueueUrl: ref('WorkDlq'), WaitTimeSeconds: 1 })),
      (r) => (r.Messages?.length ?? 0) > 0,
    );
    expect(dead.Messages?.map((m) => m.Body)).toEqual(['fail']);
    expect(await seenKeys()).not.toContain('fail');
    sqs.destroy();
  });
});

describe('S3 notifications', () => {
  it('sends only objects matching the prefix and suffix filter', async () => {
    const s3 = new S3Client(localClientConfig(runtime.endpoints.s3, 'us-east-1'));
    const Bucket = ref('Drop');
    await s3.send(new PutObjectCommand({ Bucket, Key: 'other/skip.json', Body: '{}' }));
    await s3.send(new PutObjectCommand({ Bucket, Key: 'in/skip.txt', Body: '{}' }));
    await s3.send(new PutObjectCommand({ Bucket, Key: 'in/take.json', Body: '{}' }));
    const keys = await eventually(seenKeys, (k) => k.includes('s3:in/take.json'));
    expect(keys.filter((k) => k.startsWith('s3:'))).toEqual(['s3:in/take.json']);
    s3.destroy();
  });

  it("carries keys URL-encoded as S3 does (spaces as '+'), and stores keys with '%' and '+'", async () => {
    const s3 = new S3Client(localClientConfig(runtime.endpoints.s3, 'us-east-1'));
    const Bucket = ref('Drop');
    const key = "in/100% a+b (1)=é~!'.json";
    await s3.send(new PutObjectCommand({ Bucket, Key: key, Body: '{}' }));
    await s3.send(new PutObjectCommand({ Bucket, Key: 'in/100%.json', Body: '{}' }));
    const encoded = 'in/100%25+a%2Bb+%281%29%3D%C3%A9%7E%21%27.json';
    const keys = await eventually(seenKeys, (k) => k.includes(`s3:${encoded}`) && k.includes('s3:in/100%25.json'));
    expect(keys).toEqual(expect.arrayContaining([`s3:${encoded}`, 's3:in/100%25.json']));
    // what functions/lib/pipeline/s3-events.ts does with it gives the key back
    expect(decodeURIComponent(encoded.replace(/\+/g, ' '))).toBe(key);
    s3.destroy();
  });
});

describe('Python functions', () => {
  const echo = () => [...runtime.functions.values()].find((f) => f.spec.logicalId.startsWith('Echo'))!;

  it('run in a python3 worker with the function environment, and print to the log', async () => {
    const outcome = await echo().invoke({ say: 'hello' });
    expect(outcome).toMatchObject({
      ok: true,
      result: { event: { say: 'hello' }, table: ref('Seen'), hasTime: true, dynamodb: runtime.endpoints.dynamodb },
    });
    await eventually(
      async () => runtime.logs,
      (l) => l.some((line) => line.includes('echo hello')),
    );
    expect(runtime.logs.some((line) => line.includes('echo hello'))).toBe(true);
  });

  it('report a raised exception as the invocation error', async () => {
    const outcome = await echo().invoke({ raise: 'bad input' });
    expect(outcome).toMatchObject({ ok: false, error: { errorType: 'ValueError', errorMessage: 'bad input' } });
  });

  it('are stopped at their timeout, and the next invocation runs in a fresh worker', async () => {
    const outcome = await echo().invoke({ sleep: 5 });
    expect(outcome).toMatchObject({
      ok: false,
      error: { errorType: 'Sandbox.Timedout', errorMessage: 'Task timed out after 2.00 seconds' },
    });
    expect(await echo().invoke({ say: 'again' })).toMatchObject({ ok: true });
  });
});

describe('template reading', () => {
  it('knows every resource it brought up by its physical name', () => {
    expect(resourcesOfType(runtime.stack, 'AWS::SQS::Queue')).toHaveLength(2);
    expect(ref('Work')).toMatch(/\/000000000000\/Fixture-Work[0-9A-F]{8}$/);
  });
});

describe('restarts', () => {
  it('keep queued messages and table items', async () => {
    const sqs = new SQSClient(config());
    await sqs.send(new SendMessageCommand({ QueueUrl: ref('WorkDlq'), MessageBody: 'kept across restarts' }));
    sqs.destroy();
    const before = await seenKeys();
    await runtime.stop();
    runtime = await startTestRuntime(assembly, stateDir);
    expect(runtime.logs.some((l) => /^\[runtime\] restored \d+ queued message\(s\) from the last run$/.test(l))).toBe(true);
    expect(await seenKeys()).toEqual(before);
    const again = new SQSClient(config());
    const received = await again.send(
      new ReceiveMessageCommand({ QueueUrl: ref('WorkDlq'), WaitTimeSeconds: 2, MaxNumberOfMessages: 10 }),
    );
    expect(received.Messages?.map((m) => m.Body)).toContain('kept across restarts');
    again.destroy();
  });
});

describe('Loopback only', () => {
  /** Whether a TCP connection to host:port is accepted. */
  const connects = (host: string, port: number) =>
    new Promise<boolean>((resolve) => {
      const socket = connect({ host, port, timeout: 2_000 });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('timeout', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(false));
    });
  // another address of this machine: its first external IPv4 address, and 127.0.0.2 (loopback but not
  // 127.0.0.1, so only a listener on every address answers there)
  const external = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
  const others = [...(external ? [external] : []), ...(process.platform === 'linux' ? ['127.0.0.2'] : [])];

  it.skipIf(others.length === 0)(
    others.length
      ? `every stand-in and the front end answer on 127.0.0.1 and not on ${others.join(' or ')}`
      : 'skipped: this machine has no address besides 127.0.0.1 to connect on',
    async () => {
      const { functionUrls, ...services } = runtime.endpoints;
      void functionUrls;
      const ports = Object.entries({ ...services, front: runtime.url }).map(
        ([name, url]) => [name, Number(new URL(url).port)] as const,
      );
      expect(ports.length).toBeGreaterThanOrEqual(7);
      for (const [name, port] of ports) {
        expect({ name, loopback: await connects('127.0.0.1', port) }).toEqual({ name, loopback: true });
        for (const host of others)
          expect({ name, host, answers: await connects(host, port) }).toEqual({ name, host, answers: false });
      }
    },
  );
});
