// The log processor: consumes the ingest queue (S3 object notifications, HTTP ingest and SQS source objects
// included) and SQS sources' queues, and runs each through the pipeline. Thin: read the messages, call the
// pipeline, report the messages that failed (ReportBatchItemFailures) so one bad message does not retry the
// batch.
import { ENV, requireEnv } from '../lib/env';
import { lakeBucketName } from '../lib/lake';
import { processQueueMessages, type QueueMessage } from '../lib/pipeline';

interface SqsEvent {
  readonly Records: readonly QueueMessage[];
}

export interface BatchResponse {
  batchItemFailures: { itemIdentifier: string }[];
}

const log = (line: string) => console.log(line);

export async function handler(event: SqsEvent): Promise<BatchResponse> {
  const config = {
    ingestBucket: requireEnv(ENV.ingestBucket),
    lakeBucket: lakeBucketName(),
    detectionsQueueUrl: requireEnv(ENV.detectionsQueueUrl),
  };
  const failed = await processQueueMessages(event.Records, config, log);
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
}
