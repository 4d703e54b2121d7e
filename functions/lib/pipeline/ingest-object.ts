// One announced object through the whole pipeline: find its log source, stream and process it into the
// lake, keep its classification failures, count what it brought, raise the source's data alerts, and tell
// detection about every lake file written; an object announced again is skipped. What no retry can fix (an unclaimed object, corrupt gzip, lines
// no schema reads) is counted and made visible, and the object is done; what a retry can fix (S3, DynamoDB or
// SQS unavailable) is thrown, so its message goes back to the queue.
import type { EventsWrittenMessage } from '../../../core/pipeline/messages';
import { recordIngestion } from '../log-sources';
import { lakeBucketSink } from '../lake';
import { currentEnricher } from '../lookups';
import { runScriptParser } from '../schemas';
import { putClassificationFailures } from './classification-failures';
import { sendEventsWritten } from './detections-queue';
import { parsersFor } from './log-type-parsers';
import { sourceOfObject } from './object-source';
import { countSourceError, countUnmatchedObject } from './pipeline-errors';
import { processObject } from './process-object';
import { markProcessed, wasProcessed } from './processed-objects';
import type { AnnouncedObject } from './s3-events';
import { openObject } from './s3-objects';
import { raiseSourceDataAlert } from './source-alerts';

export interface PipelineConfig {
  readonly ingestBucket: string;
  readonly lakeBucket: string;
  readonly detectionsQueueUrl: string;
}

export type IngestOutcome =
  | { readonly status: 'unmatched' }
  | { readonly status: 'missing' }
  | { readonly status: 'duplicate' }
  | {
      readonly status: 'processed';
      readonly sourceId: string;
      readonly events: number;
      readonly failures: number;
      readonly files: number;
      readonly corrupt: string | null;
    };

export async function ingestObject(
  object: AnnouncedObject,
  config: PipelineConfig,
  log: (line: string) => void,
  now = new Date(),
): Promise<IngestOutcome> {
  const { bucket, key } = object;
  const match = await sourceOfObject(bucket, key, config.ingestBucket);
  if (!match) {
    await countUnmatchedObject(bucket, key, now);
    log(`unmatched object s3://${bucket}/${key}: no enabled log source claims it (counted for the bucket)`);
    return { status: 'unmatched' };
  }
  const { source } = match;
  const opened = await openObject(bucket, key);
  if (!opened) {
    log(`object s3://${bucket}/${key} no longer exists; nothing to process`);
    return { status: 'missing' };
  }
  const input = { sourceId: source.id, bucket, key, etag: opened.etag };
  if (await wasProcessed(input, now)) {
    (opened.body as { destroy?: () => void }).destroy?.();
    log(`log source ${source.id}: s3://${bucket}/${key} (ETag ${opened.etag}) was processed already; announced again, skipped`);
    return { status: 'duplicate' };
  }
  const { parsers, scripts, unavailable } = await parsersFor(match.logTypes);
  for (const u of unavailable) log(`log source ${source.id}: ${u.reason}`);
  const enricher = await currentEnricher(now.getTime(), log);
  const result = await processObject(
    {
      input,
      sourceLabel: source.label,
      format: { streamType: source.streamType, envelopeField: source.jsonArrayEnvelopeField },
      parsers,
      scripts,
      runScript: (script, lines) => runScriptParser(script, lines),
      body: opened.body,
      parseTime: now,
      enrich: enricher && ((logType, event) => void enricher.enrich(logType, event)),
    },
    lakeBucketSink(config.lakeBucket),
  );
  const receivedAt = object.createdAt;
  if (result.failures.length) {
    await putClassificationFailures(
      source.id,
      result.failures.map((f) => ({ ...f, objectKey: key, receivedAt: opened.lastModified })),
    );
  }
  await recordIngestion(source.id, {
    events: result.events,
    bytes: result.bytes,
    classificationFailures: result.classificationFailures,
    lastEventAt: receivedAt,
  });
  if (result.corrupt) {
    log(`log source ${source.id}: s3://${bucket}/${key} is unreadable past ${result.bytes} bytes: ${result.corrupt}`);
    await countSourceError(source.id, 'corruptObjects', `${key}: ${result.corrupt}`, now);
    await raiseSourceDataAlert(
      source,
      'SOURCE_LOG_PROCESSING_ERRORS',
      `The object ${key} could not be read to its end (${result.corrupt}); ${result.events} events before that point were kept, the rest was not read.`,
      now,
    );
  }
  if (result.classificationFailures) {
    const first = result.failures[0];
    await raiseSourceDataAlert(
      source,
      'SOURCE_CLASSIFICATION_FAILURES',
      `${result.classificationFailures} line(s) of ${key} matched none of the source's schemas (${match.logTypes.join(', ') || 'none'}). First: line ${first.lineNumber}: ${first.error}`,
      now,
    );
  }
  const messages: EventsWrittenMessage[] = result.written.map((w) => ({
    kind: 'events-written',
    bucket: config.lakeBucket,
    key: w.key,
    logType: w.logType,
    sourceId: source.id,
    events: w.events,
    receivedAt,
  }));
  await sendEventsWritten(config.detectionsQueueUrl, messages);
  await markProcessed(input, now);
  log(
    `log source ${source.id}: s3://${bucket}/${key}: ${result.events} events in ${result.written.length} lake file(s), ${result.classificationFailures} classification failure(s)`,
  );
  return {
    status: 'processed',
    sourceId: source.id,
    events: result.events,
    failures: result.classificationFailures,
    files: result.written.length,
    corrupt: result.corrupt,
  };
}
