// The log processor's batch: messages from SQS sources' queues are handed over as objects (one per source),
// messages of the ingest queue announce objects, each run through the pipeline. A few messages are processed
// at once: their S3, DynamoDB and SQS waits overlap, and memory stays bounded. The ids of the messages that
// failed are answered, so they alone return to their queue.
import { ingestObject, type PipelineConfig } from './ingest-object';
import { announcedObjects } from './s3-events';
import { handOffSourceMessages, isSourceQueueMessage, type QueueMessage } from './sqs-sources';

/** Messages of a batch processed at once. */
const CONCURRENCY = 3;

export async function processQueueMessages(
  messages: readonly QueueMessage[],
  config: PipelineConfig,
  log: (line: string) => void,
): Promise<string[]> {
  const failed = await handOffSourceMessages(messages.filter(isSourceQueueMessage), config.ingestBucket);
  const queue = messages.filter((m) => !isSourceQueueMessage(m));
  const worker = async () => {
    for (let message = queue.shift(); message; message = queue.shift()) {
      try {
        for (const object of announcedObjects(message.body)) await ingestObject(object, config, log);
      } catch (err) {
        console.error(`message ${message.messageId} failed and returns to the queue: ${(err as Error).stack ?? err}`);
        failed.push(message.messageId);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return failed;
}
