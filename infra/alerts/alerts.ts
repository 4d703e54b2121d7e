import { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ENV } from '../../functions/lib/env';
import { queueWithDlq } from '../policy/resources';

/**
 * The alert-changes queue: every creation and change of an alert is published on it (AlertChangedMessage,
 * core/alerts/messages.ts) for delivery, notifications and later subscribers. Messages wait for a reader as
 * long as SQS keeps any, and one that fails every retry moves to the dead-letter queue, which the dead-letter
 * check watches.
 */
export class Alerts extends Construct {
  readonly changesQueue: sqs.Queue;
  readonly changesDlq: sqs.Queue;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const { queue, dlq } = queueWithDlq(this, 'ChangesQueue', {
      visibilityTimeout: Duration.minutes(6),
      retentionPeriod: Duration.days(14),
    });
    this.changesQueue = queue;
    this.changesDlq = dlq;
  }

  /** Lets a function create and change alerts: it publishes each change on the queue, found through ENV. */
  publishChangesFrom(fn: lambda.Function): void {
    fn.addEnvironment(ENV.alertChangesQueueUrl, this.changesQueue.queueUrl);
    this.changesQueue.grantSendMessages(fn);
  }
}
