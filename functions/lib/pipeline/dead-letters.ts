// The dead-letter check: counts the messages in the dead-letter queue of each queue core/pipeline/dead-letters.ts
// names, and raises a PIPELINE_DEAD_LETTERS system alert when the count has risen since the last check (not for a
// queue whose consumer raises its own kind, `alertedAs`: the delivery sender's ALERT_DELIVERY). The dead letters
// themselves are never read or deleted here: they wait in their queue to be redriven.
//
// Key: pk = DEAD_LETTERS#<queue id>  sk = COUNT  { count, checkedAt }: the count the last check saw.
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { DEAD_LETTER_QUEUES, type DeadLetterQueue } from '../../../core/pipeline/dead-letters';
import { createSystemAlert, type SystemAlertListener } from '../alerts';
import { dynamo, sqs } from '../clients';
import { ENV, requireEnv } from '../env';

export interface DeadLetterSummary {
  /** Dead letters per queue id, as counted now. */
  readonly counts: Record<string, number>;
  /** Alerts raised (new or joined) by this check. */
  readonly raised: number;
}

const countKey = (queue: DeadLetterQueue) => ({ pk: `DEAD_LETTERS#${queue.id}`, sk: 'COUNT' });
const table = () => requireEnv(ENV.entityTable);

/** Every message the dead-letter queue holds: ready, in flight (being looked at) and delayed. */
async function deadLetterCount(queue: DeadLetterQueue): Promise<number> {
  const out = await sqs().send(
    new GetQueueAttributesCommand({
      QueueUrl: requireEnv(queue.urlVariable),
      AttributeNames: [
        'ApproximateNumberOfMessages',
        'ApproximateNumberOfMessagesNotVisible',
        'ApproximateNumberOfMessagesDelayed',
      ],
    }),
  );
  const attributes = out.Attributes ?? {};
  return (
    Number(attributes.ApproximateNumberOfMessages ?? 0) +
    Number(attributes.ApproximateNumberOfMessagesNotVisible ?? 0) +
    Number(attributes.ApproximateNumberOfMessagesDelayed ?? 0)
  );
}

const messages = (n: number) => `${n.toLocaleString('en-US')} message${n === 1 ? '' : 's'}`;

/** Checks every queue; the failure of one does not stop the others, and fails the check once all are done. */
export async function checkDeadLetters(
  options: { now?: Date; onCreated?: SystemAlertListener } = {},
): Promise<DeadLetterSummary> {
  const now = options.now ?? new Date();
  const counts: Record<string, number> = {};
  const errors: string[] = [];
  let raised = 0;
  for (const queue of DEAD_LETTER_QUEUES) {
    try {
      const count = await deadLetterCount(queue);
      counts[queue.id] = count;
      const seen = await dynamo().send(new GetCommand({ TableName: table(), Key: countKey(queue), ConsistentRead: true }));
      const before = Number(seen.Item?.count ?? 0);
      // Raised before the count is saved: a check that fails in between raises it again, never loses it.
      if (count > before && !('alertedAs' in queue)) {
        await createSystemAlert(
          {
            kind: 'PIPELINE_DEAD_LETTERS',
            title: `Dead letters in the ${queue.name}`,
            description:
              `${messages(count - before)} of the ${queue.name} failed every retry of ${queue.consumer} and moved to its ` +
              `dead-letter queue, which holds ${messages(count)}. They are kept there: find the cause in the log of ` +
              `${queue.consumer}, then redrive them to the ${queue.name}.`,
            severity: 'HIGH',
            dedupKey: `PIPELINE_DEAD_LETTERS:${queue.id}`,
          },
          { now, onCreated: options.onCreated },
        );
        raised++;
      }
      if (count !== before) {
        await dynamo().send(
          new PutCommand({ TableName: table(), Item: { ...countKey(queue), count, checkedAt: now.toISOString() } }),
        );
      }
    } catch (error) {
      errors.push(`${queue.name}: ${(error as Error).message}`);
    }
  }
  if (errors.length) throw new Error(`The dead-letter check failed for the ${errors.join('; the ')}`);
  return { counts, raised };
}
