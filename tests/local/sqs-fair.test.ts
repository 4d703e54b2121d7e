// SQS fair queues in the SQS stand-in (local/services/sqs-fair.ts): a standard queue's messages keep their
// MessageGroupId, a receive favours the group with the fewest messages in flight (so a trickle is not held
// behind a burst), a queue without groups keeps arrival order, and the journal brings the groups back after a
// restart. The log processor's events-written messages carry their source and log type as the group.
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
  type Message,
} from '@aws-sdk/client-sqs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventsWrittenMessage } from '../../core/pipeline/messages';
import { eventsWrittenGroup, sendEventsWritten } from '../../functions/lib/pipeline/detections-queue';
import { localClientConfig } from '../../local/services/net';
import { QueueJournal, restoreJournal, startSqs, type SqsService } from '../../local/services/sqs';
import { fairPick } from '../../local/services/sqs-fair';
import { eventSourceMappings, QueuePoller } from '../../local/events/sqs-pollers';
import type { Resolver, StackTemplate } from '../../local/template';

const dir = mkdtempSync(join(tmpdir(), 'caracal-fair-'));
let sqs: SqsService;
let client: SQSClient;

beforeAll(async () => {
  sqs = await startSqs('us-east-1');
  client = new SQSClient(localClientConfig(sqs.endpoint, 'us-east-1'));
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_SQS: sqs.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  });
});
afterAll(async () => {
  client?.destroy();
  await sqs?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const queue = async (name: string) => (await client.send(new CreateQueueCommand({ QueueName: name }))).QueueUrl!;

async function send(QueueUrl: string, bodies: string[], group?: string): Promise<void> {
  for (let i = 0; i < bodies.length; i += 10)
    await client.send(
      new SendMessageBatchCommand({
        QueueUrl,
        Entries: bodies.slice(i, i + 10).map((MessageBody, n) => ({ Id: String(n), MessageBody, MessageGroupId: group })),
      }),
    );
}

const receive = async (QueueUrl: string, max = 10): Promise<Message[]> =>
  (
    await client.send(
      new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: max, MessageSystemAttributeNames: ['MessageGroupId'] }),
    )
  ).Messages ?? [];

const remove = (QueueUrl: string, messages: Message[]) =>
  client.send(
    new DeleteMessageBatchCommand({
      QueueUrl,
      Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
    }),
  );

describe('fairPick', () => {
  it('gives each pick to the tenant with the fewest in flight, oldest first among equals', () => {
    const waiting = [
      ...Array.from({ length: 30 }, () => ({ messageGroupId: 'burst' })),
      { messageGroupId: 'trickle' },
      {},
      { messageGroupId: 'trickle' },
    ];
    // the burst has 20 in flight: the trickle's two and the ungrouped one come first, then the burst's oldest
    expect(fairPick(waiting, new Map([['burst', 20]]), 5)).toEqual([30, 31, 32, 0, 1]);
    // nothing in flight: one each, round-robin by age, then the burst (the only one left)
    expect(fairPick(waiting, new Map(), 5)).toEqual([0, 30, 31, 1, 32]);
    // no groups: arrival order
    expect(fairPick([{}, {}, {}], new Map(), 2)).toEqual([0, 1]);
    expect(fairPick(waiting, new Map(), 0)).toEqual([]);
  });
});

describe('the stand-in as a fair queue', () => {
  it('hands out a trickle group within the first batches while a burst group drains, and returns each group', async () => {
    const QueueUrl = await queue('fair-burst');
    await send(
      QueueUrl,
      Array.from({ length: 200 }, (_, i) => `burst-${i}`),
      'source-a/AWS.CloudTrail',
    );
    await send(QueueUrl, ['trickle-0', 'trickle-1', 'trickle-2'], 'source-b/Okta.SystemLog');
    // two consumers each hold a batch of the burst, as two pollers would
    const first = await receive(QueueUrl);
    const second = await receive(QueueUrl);
    const bodies = [...first, ...second].map((m) => m.Body);
    expect(bodies.filter((b) => b?.startsWith('trickle-'))).toEqual(['trickle-0', 'trickle-1', 'trickle-2']);
    expect(bodies.indexOf('trickle-0')).toBeLessThan(2); // in the very first batch, beside the oldest burst message
    const groupOf = Object.fromEntries([...first, ...second].map((m) => [m.Body, m.Attributes?.MessageGroupId]));
    expect(groupOf['trickle-1']).toBe('source-b/Okta.SystemLog');
    expect(groupOf['burst-0']).toBe('source-a/AWS.CloudTrail');
    // a trickle message sent while 17 burst messages are in flight is the next one handed out
    await send(QueueUrl, ['trickle-3'], 'source-b/Okta.SystemLog');
    const third = await receive(QueueUrl);
    expect(third[0].Body).toBe('trickle-3');
    expect(third.slice(1).every((m) => m.Body?.startsWith('burst-'))).toBe(true);
    // the burst itself loses nothing and keeps its own order
    const burst = [...first, ...second, ...third].filter((m) => m.Body?.startsWith('burst-'));
    for (const batch of [first, second, third]) await remove(QueueUrl, batch);
    for (let batch = await receive(QueueUrl); batch.length; batch = await receive(QueueUrl)) {
      burst.push(...batch);
      await remove(QueueUrl, batch);
    }
    expect(burst.map((m) => m.Body)).toEqual(Array.from({ length: 200 }, (_, i) => `burst-${i}`));
  });

  it('keeps arrival order on a queue whose messages carry no group', async () => {
    const QueueUrl = await queue('plain');
    await send(
      QueueUrl,
      Array.from({ length: 15 }, (_, i) => `m-${i}`),
    );
    await client.send(new SendMessageCommand({ QueueUrl, MessageBody: 'last' }));
    const got = [...(await receive(QueueUrl)), ...(await receive(QueueUrl))];
    expect(got.map((m) => m.Body)).toEqual([...Array.from({ length: 15 }, (_, i) => `m-${i}`), 'last']);
    expect(got.every((m) => m.Attributes?.MessageGroupId === undefined)).toBe(true);
  });

  it('keeps each message group in the journal, and sends it again after a restart', async () => {
    const file = join(dir, 'sqs-journal.jsonl');
    const journal = new QueueJournal(file);
    journal.attach(sqs);
    const QueueUrl = await queue('journaled-fair');
    await send(QueueUrl, ['a-0', 'a-1'], 'tenant-a');
    await client.send(new SendMessageCommand({ QueueUrl, MessageBody: 'b-0', MessageGroupId: 'tenant-b' }));
    await client.send(new SendMessageCommand({ QueueUrl, MessageBody: 'plain' }));
    journal.close();
    expect(QueueJournal.read(file)['journaled-fair']).toEqual([
      { body: 'a-0', messageAttributes: {}, messageGroupId: 'tenant-a' },
      { body: 'a-1', messageAttributes: {}, messageGroupId: 'tenant-a' },
      { body: 'b-0', messageAttributes: {}, messageGroupId: 'tenant-b' },
      { body: 'plain', messageAttributes: {} },
    ]);

    // a new stand-in (a restart) with the same queue, brought back from the journal
    const next = await startSqs('us-east-1');
    const nextClient = new SQSClient(localClientConfig(next.endpoint, 'us-east-1'));
    try {
      const { queueUrl, queueArn } = next.server.createQueue('journaled-fair', { region: 'us-east-1' });
      next.urlByArn.set(queueArn, queueUrl);
      const restored = await restoreJournal(next, new QueueJournal(file), file, join(dir, 'none.json'), 'us-east-1');
      expect(restored).toBe(4);
      const { Messages = [] } = await nextClient.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: 10,
          MessageSystemAttributeNames: ['MessageGroupId'],
        }),
      );
      expect(Object.fromEntries(Messages.map((m) => [m.Body, m.Attributes?.MessageGroupId ?? null]))).toEqual({
        'a-0': 'tenant-a',
        'a-1': 'tenant-a',
        'b-0': 'tenant-b',
        plain: null,
      });
    } finally {
      nextClient.destroy();
      await next.stop();
    }
  });
});

describe('events-written messages', () => {
  const message = (sourceId: string, logType: string, key: string): EventsWrittenMessage => ({
    kind: 'events-written',
    bucket: 'lake',
    key,
    logType,
    sourceId,
    events: 1,
    receivedAt: '2026-11-24T12:00:00Z',
  });

  it('carry their log source and log type as the fair-queue group', async () => {
    const QueueUrl = await queue('detections');
    await sendEventsWritten(QueueUrl, [
      message('0b6c1a52-9a43-4a8e-bb7a-6a1e3c0d9f11', 'AWS.CloudTrail', 'k1'),
      message('0b6c1a52-9a43-4a8e-bb7a-6a1e3c0d9f11', 'AWS.VPCFlow', 'k2'),
    ]);
    const got = await receive(QueueUrl);
    expect(Object.fromEntries(got.map((m) => [JSON.parse(m.Body!).key, m.Attributes?.MessageGroupId]))).toEqual({
      k1: '0b6c1a52-9a43-4a8e-bb7a-6a1e3c0d9f11/AWS.CloudTrail',
      k2: '0b6c1a52-9a43-4a8e-bb7a-6a1e3c0d9f11/AWS.VPCFlow',
    });
  });

  it('replace a group SQS would refuse (too long, other characters) by a digest, one per source and log type', () => {
    const long = eventsWrittenGroup({ sourceId: 'x'.repeat(120), logType: 'Custom.Very.Long.Name' });
    expect(long).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(eventsWrittenGroup({ sourceId: 'src é', logType: 'AWS.CloudTrail' })).toMatch(/^sha256:/);
    expect(eventsWrittenGroup({ sourceId: 'x'.repeat(120), logType: 'Custom.Other' })).not.toBe(long);
  });
});

describe('the local poller of a mapping with MaximumConcurrency', () => {
  it('reads the mapping concurrency from the template and takes a new message while its other consumers are busy', async () => {
    const stack = {
      region: 'us-east-1',
      resources: {
        Mapping: {
          Type: 'AWS::Lambda::EventSourceMapping',
          Properties: {
            EventSourceArn: 'arn:aws:sqs:us-east-1:000000000000:q',
            FunctionName: 'fn',
            BatchSize: 10,
            ScalingConfig: { MaximumConcurrency: 3 },
          },
        },
        Plain: {
          Type: 'AWS::Lambda::EventSourceMapping',
          Properties: { EventSourceArn: 'arn:aws:sqs:us-east-1:000000000000:p', FunctionName: 'fn' },
        },
      },
    };
    const resolver = { resolve: (v: unknown) => v } as unknown as Resolver;
    const mappings = eventSourceMappings(stack as unknown as StackTemplate, resolver);
    expect(mappings.map((m) => m.maximumConcurrency)).toEqual([3, 1]);

    const QueueUrl = await queue('concurrent');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const seen: string[] = [];
    const invoke = async (_fn: string, event: unknown) => {
      const bodies = (event as { Records: { body: string }[] }).Records.map((r) => r.body);
      seen.push(...bodies);
      if (bodies.some((b) => b.startsWith('burst-'))) await held; // the burst's batches hang
      return { ok: true as const, result: null };
    };
    const poller = new QueuePoller(mappings[0], QueueUrl, client, 'us-east-1', invoke, () => undefined);
    await send(
      QueueUrl,
      Array.from({ length: 20 }, (_, i) => `burst-${i}`),
      'a',
    );
    poller.start();
    try {
      await expect.poll(() => seen.length).toBe(20); // two consumers hold the burst
      await send(QueueUrl, ['new'], 'b');
      await expect.poll(() => seen.includes('new'), { timeout: 3000 }).toBe(true); // the third takes it
    } finally {
      release();
      await poller.stop();
    }
  });
});
