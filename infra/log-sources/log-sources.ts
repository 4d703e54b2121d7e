import { Duration, Stack } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { nodeFunction } from '../policy/resources';
import { SOURCE_QUEUE_PREFIX } from '../../core/log-sources/types';
import { ENV } from '../../functions/lib/env';
import { grantEntityTableReadWrite } from '../data/entity-grants';

export interface LogSourcesProps {
  readonly entityTable: dynamodb.ITableV2;
  readonly userPool: cognito.IUserPool;
  /** The api function: it reads source buckets (View bucket data) and creates the queues of SQS sources. */
  readonly apiFunction: lambda.Function;
  /** Where HTTP sources post (`<url>/<source id>`), for the health check; absent while the deployment has none. */
  readonly httpIngestUrl?: string;
  /** Caracal's own buckets (lake, results, site, access logs), which no log source may read. */
  readonly privateBuckets?: readonly s3.IBucket[];
  /** A source that has received data and then none for this long raises SOURCE_NO_DATA. */
  readonly noDataHours?: number;
}

/** Reading any S3 source's bucket and assuming the role a source names (customer resources, named at run time). */
function sourceReadStatements(partition: string): iam.PolicyStatement[] {
  return [
    new iam.PolicyStatement({
      actions: ['s3:GetBucketLocation', 's3:ListBucket', 's3:GetObject'],
      resources: [`arn:${partition}:s3:::*`],
    }),
    new iam.PolicyStatement({ actions: ['sts:AssumeRole'], resources: [`arn:${partition}:iam::*:role/*`] }),
  ];
}

/** Checking the customer-managed KMS key a source names. */
const kmsDescribe = (partition: string) =>
  new iam.PolicyStatement({
    actions: ['kms:DescribeKey'],
    resources: [`arn:${partition}:kms:*:*:key/*`, `arn:${partition}:kms:*:*:alias/*`],
  });

/**
 * Log sources beyond the API's table access: the grants the api function needs for S3 and SQS sources, and
 * the source-health function, run every 15 minutes, which checks each source and raises SOURCE_NO_DATA and
 * SOURCE_PERMISSIONS_CHECKS alerts.
 */
export class LogSources extends Construct {
  readonly healthFunction: lambda.Function;
  readonly healthSchedule: events.Rule;

  constructor(scope: Construct, id: string, props: LogSourcesProps) {
    super(scope, id);
    const { partition, region, account } = Stack.of(this);
    const sourceQueues = `arn:${partition}:sqs:${region}:${account}:${SOURCE_QUEUE_PREFIX}*`;

    for (const statement of sourceReadStatements(partition)) props.apiFunction.addToRolePolicy(statement);
    if (props.privateBuckets?.length) {
      props.apiFunction.addEnvironment(ENV.privateBuckets, props.privateBuckets.map((b) => b.bucketName).join(','));
    }
    // A saved source is checked at once, as the health function checks it.
    props.apiFunction.addToRolePolicy(kmsDescribe(partition));
    props.apiFunction.addToRolePolicy(
      new iam.PolicyStatement({
        actions: [
          'sqs:CreateQueue',
          'sqs:DeleteQueue',
          'sqs:GetQueueAttributes',
          'sqs:GetQueueUrl',
          'sqs:SetQueueAttributes',
          'sqs:TagQueue',
        ],
        resources: [sourceQueues],
      }),
    );

    this.healthFunction = nodeFunction(this, 'SourceHealthFunction', {
      entry: 'functions/source-health/handler.ts',
      description: 'Checks every log source and raises SOURCE_NO_DATA and SOURCE_PERMISSIONS_CHECKS alerts.',
      timeout: Duration.minutes(5),
      environment: {
        [ENV.entityTable]: props.entityTable.tableName,
        [ENV.userPoolId]: props.userPool.userPoolId,
        [ENV.noDataHours]: String(props.noDataHours ?? 24),
        [ENV.awsPartition]: partition,
        ...(props.httpIngestUrl ? { [ENV.httpIngestUrl]: props.httpIngestUrl } : {}),
      },
    });
    grantEntityTableReadWrite(props.entityTable, this.healthFunction);
    for (const statement of sourceReadStatements(partition)) this.healthFunction.addToRolePolicy(statement);
    this.healthFunction.addToRolePolicy(new iam.PolicyStatement({ actions: ['sqs:GetQueueUrl'], resources: [sourceQueues] }));
    this.healthFunction.addToRolePolicy(kmsDescribe(partition));
    this.healthFunction.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['cognito-idp:ListUsers', 'cognito-idp:ListUsersInGroup'],
        resources: [props.userPool.userPoolArn],
      }),
    );

    this.healthSchedule = new events.Rule(this, 'SourceHealthSchedule', {
      description: 'Runs the log source health checks.',
      schedule: events.Schedule.rate(Duration.minutes(15)),
      targets: [new targets.LambdaFunction(this.healthFunction, { retryAttempts: 2 })],
    });

    NagSuppressions.addResourceSuppressions(
      this.healthFunction,
      [
        { id: 'AwsSolutions-IAM4', reason: "AWSLambdaBasicExecutionRole only grants writing the function's own logs." },
        {
          id: 'AwsSolutions-IAM5',
          reason: `S3 log sources are customer buckets and roles named at run time (checked read-only); source queues share the ${SOURCE_QUEUE_PREFIX} name prefix; KMS keys are the customer keys sources name; entity table index wildcards are generated by CDK.`,
        },
      ],
      true,
    );
    NagSuppressions.addResourceSuppressions(
      props.apiFunction,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: `View bucket data reads customer buckets and assumes customer roles named at run time; SQS source queues are created under the ${SOURCE_QUEUE_PREFIX} name prefix.`,
        },
      ],
      true,
    );
  }
}
