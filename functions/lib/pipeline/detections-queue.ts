// Tells detection about each lake file written: one EventsWrittenMessage per file on the detections queue,
// sent in batches of ten; a message SQS refuses is retried, then reported as an error.
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import type { EventsWrittenMessage } from '../../../core/pipeline/messages';
import { sqs } from '../clients';

export async function sendEventsWritten(queueUrl: string, messages: readonly EventsWrittenMessage[]): Promise<void> {
  for (let i = 0; i < messages.length; i += 10) {
    let entries = messages.slice(i, i + 10).map((m, n) => ({ Id: String(n), MessageBody: JSON.stringify(m) }));
    for (let attempt = 0; entries.length > 0; attempt++) {
      if (attempt === 5) throw new Error(`the detections queue refused ${entries.length} message(s)`);
      if (attempt > 0) await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
      const out = await sqs().send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
      const failed = new Set((out.Failed ?? []).map((f) => f.Id));
      entries = entries.filter((e) => failed.has(e.Id));
    }
  }
}
