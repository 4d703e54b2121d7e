// Tells detection about each lake file written: one EventsWrittenMessage per file on the detections queue,
// sent in batches of ten; a message SQS refuses is retried, then reported as an error.
//
// Each message carries a MessageGroupId naming its log source and log type. On a standard queue that makes it
// an SQS fair queue: when one source floods the queue (a burst of objects), SQS keeps handing out the other
// sources' messages first, so a new alert from a quiet source does not wait behind the burst. (The local SQS
// stand-in does the same: local/services/sqs-fair.ts.) Order within a group is not promised, as on any standard
// queue.
import { createHash } from 'node:crypto';
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import type { EventsWrittenMessage } from '../../../core/pipeline/messages';
import { sqs } from '../clients';

/** SQS's limits for a MessageGroupId: 1 to 128 characters, letters, digits and ASCII punctuation. */
const GROUP_ID = /^[\x21-\x7e]{1,128}$/;

/**
 * The fair-queue group of a message: `<source id>/<log type>`, so a burst of one log type of one source does not
 * delay another (an S3 source often carries CloudTrail beside a far larger VPC flow log). An id SQS would refuse
 * (too long, other characters) is replaced by a digest of it, which keeps one group per source and log type.
 */
export function eventsWrittenGroup(message: Pick<EventsWrittenMessage, 'sourceId' | 'logType'>): string {
  const group = `${message.sourceId}/${message.logType}`;
  return GROUP_ID.test(group) ? group : `sha256:${createHash('sha256').update(group).digest('hex')}`;
}

export async function sendEventsWritten(queueUrl: string, messages: readonly EventsWrittenMessage[]): Promise<void> {
  for (let i = 0; i < messages.length; i += 10) {
    let entries = messages
      .slice(i, i + 10)
      .map((m, n) => ({ Id: String(n), MessageBody: JSON.stringify(m), MessageGroupId: eventsWrittenGroup(m) }));
    for (let attempt = 0; entries.length > 0; attempt++) {
      if (attempt === 5) throw new Error(`the detections queue refused ${entries.length} message(s)`);
      if (attempt > 0) await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
      const out = await sqs().send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
      const failed = new Set((out.Failed ?? []).map((f) => f.Id));
      entries = entries.filter((e) => failed.has(e.Id));
    }
  }
}
