import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3n from 'aws-cdk-lib/aws-s3-notifications';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { suppressStackSingleton } from '../policy/nag';
import { queueWithDlq, secureBucket } from '../policy/resources';

export interface IngestProps {
  readonly removalPolicy: RemovalPolicy;
  readonly accessLogs: s3.IBucket;
}

/**
 * Where logs arrive: the ingest bucket notifies the ingest queue of every new object; the log processor
 * (a later capability) consumes the queue.
 */
export class Ingest extends Construct {
  readonly ingestBucket: s3.Bucket;
  readonly ingestQueue: sqs.Queue;
  readonly ingestDlq: sqs.Queue;

  constructor(scope: Construct, id: string, props: IngestProps) {
    super(scope, id);
    this.ingestBucket = secureBucket(this, 'IngestBucket', {
      removalPolicy: props.removalPolicy,
      accessLogs: props.accessLogs,
      lifecycleRules: [{ expiration: Duration.days(30) }],
    });
    const { queue, dlq } = queueWithDlq(this, 'IngestQueue', { visibilityTimeout: Duration.minutes(6) });
    this.ingestQueue = queue;
    this.ingestDlq = dlq;
    this.ingestBucket.addEventNotification(s3.EventType.OBJECT_CREATED, new s3n.SqsDestination(queue));
    suppressStackSingleton(this, 'BucketNotificationsHandler', [
      { id: 'AwsSolutions-IAM4', reason: "CDK's bucket-notification custom resource uses AWSLambdaBasicExecutionRole." },
      {
        id: 'AwsSolutions-IAM5',
        reason: "CDK's bucket-notification custom resource must call s3:PutBucketNotification on buckets it is given.",
      },
    ]);
  }
}
