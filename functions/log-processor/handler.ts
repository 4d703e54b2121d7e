// The log processor: consumes the ingest queue (S3 object notifications, HTTP ingest and SQS source objects
// included) and runs each announced object through the pipeline; consumes SQS sources' queues and hands their
// messages over as objects. Thin: read the messages, call the pipeline, report the messages that failed
// (ReportBatchItemFailures) so one bad message does not retry the batch.
import { ENV, requireEnv } from '../lib/env';
import { ingestObject, type PipelineConfig } from '../lib/pipeline/ingest-object';
import { announcedObjects } from '../lib/pipeline/s3-events';
import { handOffSourceMessages, isSourceQueueMessage, type QueueMessage } from '../lib/pipeline/sqs-sources';

interface SqsEvent {
  readonly Records: readonly QueueMessage[];
}

export interface BatchResponse {
  batchItemFailures: { itemIdentifier: string }[];
}

const log = (line: string) => console.log(line);

/** Messages of a batch processed at once: their S3, DynamoDB and SQS waits overlap; memory stays bounded. */
const CONCURRENCY = 3;

export async function handler(event: SqsEvent): Promise<BatchResponse> {
  const config: PipelineConfig = {
    ingestBucket: requireEnv(ENV.ingestBucket),
    lakeBucket: requireEnv(ENV.lakeBucket),
    detectionsQueueUrl: requireEnv(ENV.detectionsQueueUrl),
  };
  const fromSources = event.Records.filter(isSourceQueueMessage);
  const failed = await handOffSourceMessages(fromSources, config.ingestBucket);
  const batchItemFailures = failed.map((itemIdentifier) => ({ itemIdentifier }));
  const queue = event.Records.filter((r) => !isSourceQueueMessage(r));
  const worker = async () => {
    for (let record = queue.shift(); record; record = queue.shift()) {
      try {
        for (const object of announcedObjects(record.body)) await ingestObject(object, config, log);
      } catch (err) {
        console.error(`message ${record.messageId} failed and returns to the queue: ${(err as Error).stack ?? err}`);
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { batchItemFailures };
}
