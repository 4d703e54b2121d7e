// The delivery sender: consumes the delivery queue, one (alert, destination) per message, and sends it. A
// failed send is reported as a batch item failure after setting when its message comes back (backoff through
// the message's visibility); after the last attempt SQS moves it to the delivery dead-letter queue.
// Env: ENTITY_TABLE, DELIVERY_QUEUE_URL, LAKE_BUCKET and ATHENA_WORKGROUP (an alert's first events, read through
// the lake door once per change), APP_URL, ALERT_CHANGES_QUEUE_URL, USER_POOL_ID, the destinations' secrets key,
// DELIVERY_ALLOW_PRIVATE_NETWORKS (locally).
import { delayRetry, reportUndeliverable, sendQueuedDelivery } from '../../lib/delivery';

interface SqsRecord {
  readonly messageId: string;
  readonly receiptHandle: string;
  readonly body: string;
  readonly attributes?: { readonly ApproximateReceiveCount?: string };
}

export async function handler(event: { Records?: SqsRecord[] }): Promise<{ batchItemFailures: { itemIdentifier: string }[] }> {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  for (const record of event.Records ?? []) {
    const receiveCount = Number(record.attributes?.ApproximateReceiveCount ?? 1) || 1;
    try {
      const result = await sendQueuedDelivery({ body: record.body, receiptHandle: record.receiptHandle, receiveCount });
      console.log(
        JSON.stringify({ level: result.done ? 'info' : 'warn', msg: 'delivery', messageId: record.messageId, ...result }),
      );
      if (!result.done) {
        await delayRetry(record.receiptHandle, result.retryInSeconds);
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    } catch (err) {
      // Not even an attempt could be recorded (the table, the queue): the message comes back after the queue's
      // visibility timeout. On the last attempt it goes to the dead-letter queue next: ALERT_DELIVERY is raised now.
      console.error(
        JSON.stringify({ level: 'error', msg: 'delivery failed', messageId: record.messageId, error: (err as Error).message }),
      );
      await reportUndeliverable({ body: record.body, receiveCount }, (err as Error).message);
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}
