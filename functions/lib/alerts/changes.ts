// Every change of an alert told on the alert-changes queue (ALERT_CHANGES_QUEUE_URL; the caller needs
// sqs:SendMessage on it), after the change is stored. A failure to tell fails the operation, so its caller
// retries it (a batch item, a scheduled check) rather than lose the message.
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import type { AlertChange, AlertChangedMessage } from '../../../core/alerts/messages';
import type { Alert } from '../../../core/alerts/model';
import { sqs } from '../clients';
import { ENV, requireEnv } from '../env';

export async function publishAlertChange(
  alert: Pick<Alert, 'id' | 'type'>,
  change: AlertChange,
  changedAt: string,
  destinations?: readonly string[],
): Promise<void> {
  const message: AlertChangedMessage = {
    kind: 'alert-changed',
    change,
    alertId: alert.id,
    alertType: alert.type,
    changedAt,
    ...(destinations?.length ? { destinations } : {}),
  };
  await sqs().send(
    new SendMessageCommand({ QueueUrl: requireEnv(ENV.alertChangesQueueUrl), MessageBody: JSON.stringify(message) }),
  );
}
