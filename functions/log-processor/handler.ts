// The log processor: consumes the ingest queue (S3 object notifications, HTTP ingest objects included) and
// runs each announced object through the pipeline. Thin: read the messages, call the pipeline, report the
// messages that failed (ReportBatchItemFailures) so one bad message does not retry the batch.
import { requireEnv } from '../lib/env';
import { ingestObject, type PipelineConfig } from '../lib/pipeline/ingest-object';
import { announcedObjects } from '../lib/pipeline/s3-events';

interface SqsEvent {
  readonly Records: readonly { readonly messageId: string; readonly body: string }[];
}

export interface BatchResponse {
  batchItemFailures: { itemIdentifier: string }[];
}

const log = (line: string) => console.log(line);

export async function handler(event: SqsEvent): Promise<BatchResponse> {
  const config: PipelineConfig = {
    ingestBucket: requireEnv('INGEST_BUCKET'),
    lakeBucket: requireEnv('LAKE_BUCKET'),
    detectionsQueueUrl: requireEnv('DETECTIONS_QUEUE_URL'),
  };
  const batchItemFailures: { itemIdentifier: string }[] = [];
  for (const record of event.Records) {
    try {
      for (const object of announcedObjects(record.body)) await ingestObject(object, config, log);
    } catch (err) {
      console.error(`message ${record.messageId} failed and returns to the queue: ${(err as Error).stack ?? err}`);
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}
