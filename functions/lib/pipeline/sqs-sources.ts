// SQS log sources: each source has its own queue (named SOURCE_QUEUE_PREFIX and the source id, created by the
// log sources area), consumed by the log processor. A batch's messages of one source are handed to the pipeline as one
// object in the ingest bucket (sqs/<sourceId>/...), their bodies one per line (an SNS notification's Message
// unwrapped), and processed like every other object from there. Messages of a queue no source owns any more
// are counted as unmatched and dropped (the source, and its queue, are being deleted).
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { SOURCE_QUEUE_PREFIX } from '../../../core/log-sources/types';
import { s3 } from '../clients';
import { sourceForQueue } from '../log-sources';
import { handOffKey } from './handoff-objects';
import { countUnmatchedObject } from './pipeline-errors';

export interface QueueMessage {
  readonly messageId: string;
  readonly body: string;
  readonly eventSourceARN?: string;
}

/** Whether a message comes from an SQS source's queue (rather than the ingest queue). */
export const isSourceQueueMessage = (m: QueueMessage) => !!m.eventSourceARN?.split(':').pop()?.startsWith(SOURCE_QUEUE_PREFIX);

/** The log data of a message: its body, or the Message of an SNS notification. */
export function messageData(body: string): string {
  if (!body.startsWith('{')) return body;
  try {
    const sns = JSON.parse(body) as { Type?: unknown; Message?: unknown; TopicArn?: unknown };
    if (sns.Type === 'Notification' && typeof sns.Message === 'string' && typeof sns.TopicArn === 'string') return sns.Message;
  } catch {
    // Not JSON after all: the body is the data.
  }
  return body;
}

/** Hands each queue's messages over; answers the ids of the messages that must return to their queue. */
export async function handOffSourceMessages(
  messages: readonly QueueMessage[],
  ingestBucket: string,
  now = new Date(),
): Promise<string[]> {
  const byQueue = new Map<string, QueueMessage[]>();
  for (const m of messages) byQueue.set(m.eventSourceARN!, [...(byQueue.get(m.eventSourceARN!) ?? []), m]);
  const failed: string[] = [];
  for (const [queueArn, batch] of byQueue) {
    try {
      const source = await sourceForQueue(queueArn);
      if (!source) {
        await countUnmatchedObject(
          `sqs:${queueArn.split(':').pop()}`,
          `${batch.length} message(s), first ${batch[0].messageId}`,
          now,
        );
        continue;
      }
      const body = batch.map((m) => messageData(m.body).replace(/\n+$/, '')).join('\n') + '\n';
      await s3().send(
        new PutObjectCommand({
          Bucket: ingestBucket,
          Key: handOffKey('sqs', source.id, batch[0].messageId, now),
          Body: body,
          ContentType: 'text/plain',
        }),
      );
    } catch (err) {
      console.error(`messages of ${queueArn} return to their queue: ${(err as Error).message}`);
      failed.push(...batch.map((m) => m.messageId));
    }
  }
  return failed;
}
