// What journaling queued messages costs (local/services/sqs.ts QueueJournal: one appended line per send and per
// delete, so a kill -9 of the local runtime loses no acknowledged message): SendMessage and
// SendMessageBatch round trips on the SQS stand-in with and without the journal, in the same run.
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localClientConfig } from '../local/services/net';
import { QueueJournal, startSqs } from '../local/services/sqs';

const SENDS = 2_000;
const BODY = JSON.stringify({ Records: [{ s3: { bucket: { name: 'ingest' }, object: { key: 'logs/'.padEnd(120, 'x') } } }] });

async function measure(journaled: boolean): Promise<{ single: number; batch: number; drain: number; bytes: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'caracal-journal-bench-'));
  const sqs = await startSqs('us-east-1');
  const file = join(dir, 'sqs-journal.jsonl');
  const journal = new QueueJournal(file);
  if (journaled) journal.attach(sqs);
  const client = new SQSClient(localClientConfig(sqs.endpoint, 'us-east-1'));
  try {
    const QueueUrl = (await client.send(new CreateQueueCommand({ QueueName: 'bench' }))).QueueUrl!;
    for (let i = 0; i < 200; i++) await client.send(new SendMessageCommand({ QueueUrl, MessageBody: BODY })); // warm-up
    let t = performance.now();
    for (let i = 0; i < SENDS; i++) await client.send(new SendMessageCommand({ QueueUrl, MessageBody: BODY }));
    const single = (performance.now() - t) / SENDS;
    t = performance.now();
    for (let i = 0; i < SENDS; i += 10)
      await client.send(
        new SendMessageBatchCommand({
          QueueUrl,
          Entries: Array.from({ length: 10 }, (_, j) => ({ Id: String(j), MessageBody: BODY })),
        }),
      );
    const batch = (performance.now() - t) / SENDS;
    t = performance.now();
    let drained = 0;
    for (;;) {
      const { Messages = [] } = await client.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10 }));
      if (!Messages.length) break;
      await client.send(
        new DeleteMessageBatchCommand({
          QueueUrl,
          Entries: Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
        }),
      );
      drained += Messages.length;
    }
    const drain = (performance.now() - t) / drained;
    const bytes = journaled ? statSync(file).size : 0;
    return { single, batch, drain, bytes };
  } finally {
    journal.close();
    client.destroy();
    await sqs.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const plain = await measure(false);
const journaled = await measure(true);
const line = (name: string, a: number, b: number) =>
  console.log(`${name.padEnd(34)} ${a.toFixed(3).padStart(8)} ms  ${b.toFixed(3).padStart(8)} ms  ${(b / a).toFixed(2)}×`);
console.log(`${''.padEnd(34)} ${'plain'.padStart(11)}  ${'journaled'.padStart(11)}`);
line('SendMessage, per message', plain.single, journaled.single);
line('SendMessageBatch of 10, per message', plain.batch, journaled.batch);
line('receive + delete batch, per message', plain.drain, journaled.drain);
console.log(
  `journal size after the drain (it is rewritten holding only the live messages past 20,000 extra lines): ${journaled.bytes} bytes`,
);
