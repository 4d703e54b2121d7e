// The detections function: consumes the detections queue (one EventsWrittenMessage per lake object), runs the
// batch's objects together (the detections door's live path: a few at once, their matches counted once per dedup
// group) and reports each message that failed on its own, so one bad object does not retry the batch.
// Env: ENTITY_TABLE, LAKE_BUCKET, ENGINE_FUNCTION_NAME, ALERT_CHANGES_QUEUE_URL, USER_POOL_ID (system alerts
// notify users).
import { isEventsWrittenMessage, type EventsWrittenMessage } from '../../core/pipeline/messages';
import { dynamoDedupStore } from '../lib/alerts';
import { detectionsFor, lambdaEngine, processBatch } from '../lib/detections';
import { engineLookups } from '../lib/lookups';

interface SqsRecord {
  readonly messageId: string;
  readonly body: string;
}

export async function handler(event: { Records?: SqsRecord[] }): Promise<{ batchItemFailures: { itemIdentifier: string }[] }> {
  const deps = {
    engine: lambdaEngine,
    dedup: dynamoDedupStore,
    detectionsFor,
    // event.lookup(table, key): the tables the content names travel with each engine request, as data.
    lookupsFor: (names: string[]) =>
      engineLookups(names, Date.now(), (line) => console.log(JSON.stringify({ level: 'warn', msg: line }))),
  };
  const batchItemFailures: { itemIdentifier: string }[] = [];
  const batch: { messageId: string; message: EventsWrittenMessage }[] = [];
  for (const record of event.Records ?? []) {
    let message: unknown;
    try {
      message = JSON.parse(record.body);
    } catch {
      console.error(
        JSON.stringify({ level: 'error', msg: 'detections message is not JSON; dropped', messageId: record.messageId }),
      );
      continue;
    }
    if (!isEventsWrittenMessage(message)) {
      console.error(
        JSON.stringify({ level: 'error', msg: 'not an events-written message; dropped', messageId: record.messageId }),
      );
      continue;
    }
    batch.push({ messageId: record.messageId, message });
  }
  // The batch's objects together: their matches are counted into the dedup windows once per group.
  const outcomes = await processBatch(
    batch.map((b) => b.message),
    deps,
  );
  outcomes.forEach((outcome, i) => {
    const { messageId, message } = batch[i];
    if ('report' in outcome) {
      const { report } = outcome;
      console.log(
        JSON.stringify({
          level: 'info',
          msg: 'detections ran',
          // From the object's arrival at Caracal to its alerts and signals being written.
          latencyMs: Date.now() - Date.parse(message.receivedAt),
          key: message.key,
          logType: message.logType,
          ...report,
          signalObjects: report.signalObjects.length,
        }),
      );
      return;
    }
    const err = outcome.error;
    // An object that is gone (the lake's lifecycle, a manual delete) will not come back: retrying cannot help.
    const gone = err.name === 'NoSuchKey';
    const msg = gone ? 'events object is gone; dropped' : 'detections failed';
    console.error(JSON.stringify({ level: 'error', msg, key: message.key, error: err.message }));
    if (!gone) batchItemFailures.push({ itemIdentifier: messageId });
  });
  return { batchItemFailures };
}
