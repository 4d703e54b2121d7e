import { Duration, Stack } from 'aws-cdk-lib';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { ENV } from '../../functions/lib/env';
import { MAX_ATTEMPTS } from '../../functions/lib/delivery/retry';
import { nodeFunction, queueWithDlq } from '../policy/resources';
import type { Search } from '../search/search';
import { grantEntityTableReadWrite } from '../data/entity-grants';

export interface DeliveryProps {
  /** The alert-changes queue (AlertChangedMessage): what is delivered. */
  readonly changesQueue: sqs.IQueue;
  /** Alerts, destinations, delivery records and the alerts' activity. */
  readonly entityTable: dynamodb.ITableV2;
  /** An alert's first events are read from the lake (through search: useSearch). */
  readonly lakeBucket: s3.IBucket;
  /** ALERT_DELIVERY system alerts notify the users who may read alerts. */
  readonly userPool: cognito.IUserPool;
  /** Destinations may be on loopback and private addresses (the local runtime's receivers on 127.0.0.1). */
  readonly allowPrivateNetworks: boolean;
  /**
   * Caracal's own pipeline queues: an SQS destination may never name one (an explicit deny on the sender, which
   * may otherwise send to any queue whose policy lets it).
   */
  readonly protectedQueues: readonly sqs.IQueue[];
}

/**
 * Alert delivery, the pipeline's last step (functions/lib/delivery):
 * - the alert-delivery function consumes the alert-changes queue and queues one message per (alert,
 *   destination) on the delivery queue;
 * - the delivery sender consumes the delivery queue and sends; a failure comes back after a backoff it sets
 *   through the message's visibility, and after MAX_ATTEMPTS receives SQS moves the message to the delivery
 *   dead-letter queue (counted by the dead-letter check; the sender raises ALERT_DELIVERY for it).
 * Wiring left to the stack: the sender raises system alerts (Alerts.publishChangesFrom), reads destinations
 * with their secrets (Destinations.allowDelivery) and links to the app (useAppUrl, once the web app exists).
 */
export class Delivery extends Construct {
  readonly deliveryQueue: sqs.Queue;
  readonly deliveryDlq: sqs.Queue;
  readonly fanOutFunction: lambda.Function;
  readonly senderFunction: lambda.Function;

  constructor(scope: Construct, id: string, props: DeliveryProps) {
    super(scope, id);
    const { queue, dlq } = queueWithDlq(this, 'Queue', {
      // Longer than the sender's timeout, as Lambda requires; retries set their own, shorter or longer, delay.
      visibilityTimeout: Duration.minutes(3),
      maxReceiveCount: MAX_ATTEMPTS,
      retentionPeriod: Duration.days(4),
    });
    this.deliveryQueue = queue;
    this.deliveryDlq = dlq;

    this.fanOutFunction = nodeFunction(this, 'FanOutFunction', {
      entry: 'functions/alert-delivery/handler.ts',
      description: 'Resolves each new or changed alert to its destinations and queues one delivery per destination.',
      timeout: Duration.minutes(1),
      environment: {
        [ENV.entityTable]: props.entityTable.tableName,
        [ENV.deliveryQueueUrl]: queue.queueUrl,
      },
    });
    grantEntityTableReadWrite(props.entityTable, this.fanOutFunction);
    queue.grantSendMessages(this.fanOutFunction);
    this.fanOutFunction.addEventSource(new SqsEventSource(props.changesQueue, { batchSize: 10, reportBatchItemFailures: true }));

    this.senderFunction = nodeFunction(this, 'SenderFunction', {
      entry: 'functions/alert-delivery/sender/handler.ts',
      description: 'Sends each queued alert delivery to its destination, retrying with backoff, and records every attempt.',
      timeout: Duration.minutes(2),
      environment: {
        [ENV.entityTable]: props.entityTable.tableName,
        [ENV.deliveryQueueUrl]: queue.queueUrl,
        [ENV.lakeBucket]: props.lakeBucket.bucketName,
        [ENV.userPoolId]: props.userPool.userPoolId,
        ...(props.allowPrivateNetworks ? { [ENV.deliveryAllowPrivateNetworks]: 'true' } : {}),
      },
    });
    grantEntityTableReadWrite(props.entityTable, this.senderFunction);
    // The lake is read only through the search path (useSearch: the lake databases' prefixes), never as a whole.
    // At most 10 s a request (two for Pub/Sub): a batch of 5 fits the timeout.
    this.senderFunction.addEventSource(new SqsEventSource(queue, { batchSize: 5, reportBatchItemFailures: true }));
    this.senderFunction.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['cognito-idp:ListUsers', 'cognito-idp:ListUsersInGroup'],
        resources: [props.userPool.userPoolArn],
      }),
    );
    // SNS and SQS destinations: any topic or queue whose own policy lets this role publish or send ...
    const { partition } = Stack.of(this);
    this.senderFunction.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['sns:Publish'], resources: [`arn:${partition}:sns:*:*:*`] }),
    );
    this.senderFunction.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [`arn:${partition}:sqs:*:*:*`] }),
    );
    // ... except Caracal's own pipeline queues, which a destination could otherwise feed with forged messages.
    this.senderFunction.addToRolePolicy(
      new iam.PolicyStatement({
        effect: iam.Effect.DENY,
        actions: ['sqs:SendMessage'],
        resources: [queue.queueArn, dlq.queueArn, ...props.protectedQueues.map((q) => q.queueArn)],
      }),
    );

    NagSuppressions.addResourceSuppressions(
      [this.fanOutFunction, this.senderFunction],
      [
        { id: 'AwsSolutions-IAM4', reason: "AWSLambdaBasicExecutionRole only grants writing the function's own logs." },
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'The entity table index and lake object wildcards are generated by CDK; SNS and SQS destinations are ' +
            "the users' own topics and queues, named at run time (each one's policy must allow this role), with " +
            "Caracal's own queues denied.",
        },
      ],
      true,
    );
  }

  /**
   * The sender reads an alert's first events (sent in every payload) through the search path: Athena over the
   * signals tables (functions/lib/alerts events.ts).
   */
  useSearch(search: Search, lakeBucket: s3.IBucket): void {
    this.senderFunction.addEnvironment(ENV.athenaWorkgroup, search.workGroup.name);
    search.grantSearch(this.senderFunction, lakeBucket);
  }

  /** Lets a function (the api's retryAlertDelivery) queue a delivery again. */
  allowRetriesFrom(fn: lambda.Function): void {
    fn.addEnvironment(ENV.deliveryQueueUrl, this.deliveryQueue.queueUrl);
    this.deliveryQueue.grantSendMessages(fn);
  }

  /** Delivered alerts link to their page under the app's public URL (and so do test alerts, sent by `others`). */
  useAppUrl(appUrl: string, others: readonly lambda.Function[] = []): void {
    for (const fn of [this.senderFunction, ...others]) fn.addEnvironment(ENV.appUrl, appUrl);
  }
}
