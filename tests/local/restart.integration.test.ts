// The local platform across restarts of one state folder: a signed-in user stays signed in (the Cognito
// stand-in keeps its port, so its tokens' issuer stays the same); stopping refuses new requests and lets the
// calls in flight finish before the workers end; a hard crash (kill -9) loses no queued message that was
// acknowledged.
import {
  CreateQueueCommand,
  DeleteMessageCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalFunction } from '../../local/lambda/functions';
import { localClientConfig } from '../../local/services/net';
import { resourcesOfType } from '../../local/template';
import { ROOT, TEST_ASSEMBLY } from '../setup/global';
import { graphql, signIn, startTestRuntime, type TestRuntime } from './harness';

const stateDir = mkdtempSync(join(tmpdir(), 'caracal-restart-'));
const running: TestRuntime[] = [];
afterAll(async () => {
  for (const runtime of running) await runtime.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

async function start(): Promise<TestRuntime> {
  const runtime = await startTestRuntime(undefined, stateDir);
  running.push(runtime);
  return runtime;
}

async function stop(runtime: TestRuntime): Promise<void> {
  running.splice(running.indexOf(runtime), 1);
  await runtime.stop();
}

const ME = { query: '{ me { email } }' };

describe('restarting on the same state folder', () => {
  it('keeps a signed-in user signed in and every stand-in on its port: the token of the first start works after the restart', async () => {
    const first = await start();
    const [admin] = first.createdUsers;
    const { idToken } = await signIn(first, admin.username, admin.temporaryPassword, 'Correct-Horse-42-Battery');
    expect((await graphql(first, ME, idToken)).body.data).toEqual({ me: { email: admin.username } });
    const { dynamodb, s3, sqs, cognito } = first.endpoints;
    await stop(first);

    const second = await start();
    // the issuer stays; so do the other stand-ins' endpoints (queue URLs stored in tables name the SQS port)
    expect(second.endpoints).toMatchObject({ dynamodb, s3, sqs, cognito });
    const answer = await graphql(second, ME, idToken);
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data).toEqual({ me: { email: admin.username } });
    await stop(second);
  }, 120_000);

  it('takes other ports when the remembered ones are held by another program, and remembers those', async () => {
    const first = await start();
    const taken = Number(new URL(first.endpoints.cognito).port);
    await stop(first);
    const names = ['cognito', 'sqs', 's3', 'dynamodb'] as const;
    const ports = names.map((name) => Number(new URL(first.endpoints[name]).port));
    expect(ports[0]).toBe(taken);
    const holders = names.map(() => createServer());
    for (const [i, holder] of holders.entries())
      await new Promise<void>((resolve) => holder.listen(ports[i], '127.0.0.1', resolve));
    try {
      const second = await start();
      for (const [i, name] of names.entries()) expect(Number(new URL(second.endpoints[name]).port)).not.toBe(ports[i]);
      const moved = second.endpoints;
      await stop(second);
      const third = await start();
      for (const name of names) expect(third.endpoints[name]).toBe(moved[name]);
      await stop(third);
    } finally {
      for (const holder of holders) await new Promise((resolve) => holder.close(resolve));
    }
  }, 120_000);
});

describe('stopping', () => {
  it('refuses new requests with 503 at once, lets a call in flight finish, then ends the workers', async () => {
    const runtime = await startTestRuntime();
    const codeDir = join(runtime.stateDir, 'sleepy');
    mkdirSync(codeDir);
    writeFileSync(
      join(codeDir, 'sleepy.py'),
      'import os, time\n\ndef handler(event, context):\n    time.sleep(event["seconds"])\n    return {"pid": os.getpid()}\n',
    );
    const sleepy = new LocalFunction(
      {
        logicalId: 'Sleepy',
        name: 'sleepy',
        arn: 'arn:aws:lambda:us-east-1:000000000000:function:sleepy',
        runtime: 'python3.13',
        handler: 'sleepy.handler',
        codeDir,
        environment: { TZ: 'UTC' },
        timeoutMs: 60_000,
        memorySize: 256,
      },
      () => {},
    );
    runtime.functions.set('sleepy', sleepy);
    await runtime.invoke('sleepy', { seconds: 0 }); // the worker is up
    const inFlight = runtime.invoke('sleepy', { seconds: 3 });
    await new Promise((r) => setTimeout(r, 200));
    let stopped = false;
    const stopping = runtime.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 200));
    const refused = await fetch(`${runtime.url}/config.json`);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({ errors: [{ errorType: 'ServiceUnavailable', message: 'Caracal is stopping.' }] });
    expect(stopped).toBe(false);
    const answer = await inFlight;
    expect(answer.ok).toBe(true);
    await stopping;
    expect(sleepy.workers).toBe(0);
    const pid = (answer as { result: { pid: number } }).result.pid;
    expect(() => process.kill(pid, 0)).toThrow();
  }, 120_000);
});

/** The runtime in a child process on `dir`, for killing hard: its SQS endpoint and the queues no function polls. */
async function startChild(dir: string) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'tests/local/fixtures/runtime-child.ts'), dir, TEST_ASSEMBLY],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stderr!.on('data', (d) => (output += d));
  const ready = await new Promise<{ sqs: string; region: string; idle: string[] }>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      output += d;
      const line = /READY (.*)/.exec(output);
      if (line) resolve(JSON.parse(line[1]));
    });
    child.on('exit', (code) => reject(new Error(`the runtime exited with ${code}:\n${output}`)));
  });
  return { child, ...ready };
}

async function receiveAll(client: SQSClient, QueueUrl: string): Promise<string[]> {
  const bodies: string[] = [];
  for (;;) {
    const { Messages = [] } = await client.send(
      new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 600 }),
    );
    if (!Messages.length) return bodies;
    bodies.push(...Messages.map((m) => m.Body!));
  }
}

describe('a hard crash (kill -9)', () => {
  it('loses no queued message that was acknowledged, and brings back none that was deleted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'caracal-crash-'));
    try {
      const first = await startChild(dir);
      const QueueUrl = first.idle[0];
      expect(QueueUrl).toBeTruthy();
      const client = new SQSClient(localClientConfig(first.sqs, first.region));
      const sent = Array.from({ length: 25 }, (_, i) => `message ${i}`);
      for (const body of sent.slice(0, 5)) await client.send(new SendMessageCommand({ QueueUrl, MessageBody: body }));
      for (let i = 5; i < 25; i += 10)
        await client.send(
          new SendMessageBatchCommand({
            QueueUrl,
            Entries: sent.slice(i, i + 10).map((MessageBody, j) => ({ Id: String(j), MessageBody })),
          }),
        );
      // three received; two of them deleted (done), one left in flight (comes back, as after its visibility timeout)
      const { Messages = [] } = await client.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 3 }));
      expect(Messages).toHaveLength(3);
      for (const m of Messages.slice(0, 2))
        await client.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: m.ReceiptHandle }));
      const deleted = Messages.slice(0, 2).map((m) => m.Body!);
      // a queue made at run time (as an SQS log source's own queue is): its messages come back too
      const made = (await client.send(new CreateQueueCommand({ QueueName: 'made-at-run-time' }))).QueueUrl!;
      for (const body of ['made 1', 'made 2']) await client.send(new SendMessageCommand({ QueueUrl: made, MessageBody: body }));
      client.destroy();
      const exited = new Promise((resolve) => first.child.on('exit', resolve));
      first.child.kill('SIGKILL');
      await exited;

      const second = await startTestRuntime(undefined, dir);
      try {
        expect(second.logs).toContain('[runtime] restored 25 queued message(s) from the last run');
        const after = new SQSClient(localClientConfig(second.endpoints.sqs, second.stack.region));
        // the queue's URL on this start (the stand-in's port is new)
        const name = QueueUrl.split('/').pop()!;
        const url = resourcesOfType(second.stack, 'AWS::SQS::Queue')
          .map(([id]) => second.resolver.lookup(id)!.ref)
          .find((ref) => ref.endsWith(`/${name}`))!;
        const bodies = await receiveAll(after, url);
        const madeUrl = (await after.send(new GetQueueUrlCommand({ QueueName: 'made-at-run-time' }))).QueueUrl!;
        expect((await receiveAll(after, madeUrl)).sort()).toEqual(['made 1', 'made 2']);
        after.destroy();
        expect(bodies.sort()).toEqual(sent.filter((b) => !deleted.includes(b)).sort());
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
