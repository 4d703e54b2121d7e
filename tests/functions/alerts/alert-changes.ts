// The alert-changes queue on the SQS stand-in, for tests that raise alerts: the messages published so far.
import type { AlertChangedMessage } from '../../../core/alerts/messages';
import { startSqs, type SqsService } from '../../../local/services/sqs';

export interface AlertChanges {
  /** Every message published so far, oldest first (they stay on the queue). */
  published(): AlertChangedMessage[];
  stop(): Promise<void>;
}

/** Creates the queue (on `sqs`, or on a stand-in of its own) and points ALERT_CHANGES_QUEUE_URL at it. */
export async function startAlertChanges(sqs?: SqsService): Promise<AlertChanges> {
  const service = sqs ?? (await startSqs('us-east-1'));
  const name = 'alert-changes';
  const { queueUrl } = service.server.createQueue(name, { region: 'us-east-1' });
  Object.assign(process.env, { AWS_ENDPOINT_URL_SQS: service.endpoint, ALERT_CHANGES_QUEUE_URL: queueUrl });
  return {
    published: () => service.server.inspectQueue(name)!.messages.ready.map((m) => JSON.parse(m.body) as AlertChangedMessage),
    stop: () => (sqs ? Promise.resolve() : service.stop()),
  };
}
