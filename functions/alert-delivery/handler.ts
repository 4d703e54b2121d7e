// The alert-delivery function: consumes the alert-changes queue (AlertChangedMessage) and queues one delivery
// per (alert, destination) on the delivery queue; the delivery sender (./sender) sends them. Each message that
// failed is reported on its own, so one bad change does not retry the batch.
// Env: ENTITY_TABLE, DELIVERY_QUEUE_URL.
import type { AlertChangedMessage } from '../../core/alerts/messages';
import { fanOutAlertChange } from '../lib/delivery';

interface SqsRecord {
  readonly messageId: string;
  readonly body: string;
}

export async function handler(event: { Records?: SqsRecord[] }): Promise<{ batchItemFailures: { itemIdentifier: string }[] }> {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  for (const record of event.Records ?? []) {
    let message: AlertChangedMessage;
    try {
      message = JSON.parse(record.body) as AlertChangedMessage;
    } catch {
      console.error(JSON.stringify({ level: 'error', msg: 'alert change is not JSON; dropped', messageId: record.messageId }));
      continue;
    }
    try {
      const result = await fanOutAlertChange(message);
      console.log(
        JSON.stringify({
          level: 'info',
          msg: 'alert change fanned out',
          alertId: message.alertId,
          change: message.change,
          ...result,
        }),
      );
    } catch (err) {
      console.error(
        JSON.stringify({
          level: 'error',
          msg: 'alert change not fanned out; retried',
          messageId: record.messageId,
          error: (err as Error).message,
        }),
      );
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}
