// The SQS stand-in's journal (local/services/sqs.ts QueueJournal): what it holds live is exactly what was sent
// (or held for a sender, as S3 notifications are) and not yet deleted, across compaction; a line cut by a crash
// in the middle of its write is skipped.
import {
  CreateQueueCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localClientConfig } from '../../local/services/net';
import { QueueJournal, startSqs, type SqsService } from '../../local/services/sqs';

let sqs: SqsService;
let client: SQSClient;
const dir = mkdtempSync(join(tmpdir(), 'caracal-journal-'));
const file = join(dir, 'sqs-journal.jsonl');
const journal = new QueueJournal(file);

beforeAll(async () => {
  sqs = await startSqs('us-east-1');
  journal.attach(sqs);
  client = new SQSClient(localClientConfig(sqs.endpoint, 'us-east-1'));
});
afterAll(async () => {
  journal.close();
  client?.destroy();
  await sqs?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const bodies = (saved: Record<string, { body: string }[]>, queue: string) => (saved[queue] ?? []).map((m) => m.body);

describe('the queue journal', () => {
  it('holds what was sent and not deleted, in order, with the held notifications not yet released', async () => {
    const QueueUrl = (await client.send(new CreateQueueCommand({ QueueName: 'journaled' }))).QueueUrl!;
    await client.send(new SendMessageCommand({ QueueUrl, MessageBody: 'one' }));
    await client.send(
      new SendMessageBatchCommand({
        QueueUrl,
        Entries: ['two', 'three', 'four'].map((MessageBody, i) => ({ Id: String(i), MessageBody })),
      }),
    );
    const { Messages = [] } = await client.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 2 }));
    await client.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: Messages[0].ReceiptHandle }));
    const deleted = Messages[0].Body!;
    const held = journal.hold('journaled', 'held, never sent');
    journal.release(journal.hold('journaled', 'held, then sent'));
    expect(held).toMatch(/^held-/);

    const expected = ['one', 'two', 'three', 'four', 'held, never sent'].filter((b) => b !== deleted);
    expect(bodies(QueueJournal.read(file), 'journaled')).toEqual(expected);
    // a crash in the middle of a line's write
    appendFileSync(file, '{"o":"p","q":"journaled","id":"cut');
    expect(bodies(QueueJournal.read(file), 'journaled')).toEqual(expected);
    journal.compact();
    expect(bodies(QueueJournal.read(file), 'journaled')).toEqual(expected);
    expect(journal.size).toBe(expected.length);
  });
});
