import { Duration, Stack } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as eventSources from 'aws-cdk-lib/aws-lambda-event-sources';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { nodeFunction, queueWithDlq } from '../policy/resources';
import { SOURCE_QUEUE_PREFIX } from '../../core/log-sources/types';
import { ENV } from '../../functions/lib/env';
import { grantEntityTableReadWrite } from '../data/entity-grants';

export interface ProcessingProps {
  /** Where S3 and HTTP ingest objects land; its notifications fill `ingestQueue`. */
  readonly ingestBucket: s3.IBucket;
  readonly ingestQueue: sqs.IQueue;
  readonly lakeBucket: s3.IBucket;
  /** Log sources, classification failures, system alerts. */
  readonly entityTable: dynamodb.ITableV2;
  /** System alerts about a source notify the users who may read alerts. */
  readonly userPool: cognito.IUserPool;
  /** Largest HTTP ingest body accepted, in bytes (the function URL itself stops at 6 MB). */
  readonly httpMaxBodyBytes?: number;
}

/**
 * The ingestion pipeline: the log processor turns each object of the ingest queue into gzip NDJSON in the
 * lake and tells detection through the detections queue; the HTTP ingest function (a function URL) checks
 * each request against its log source's own authentication and hands the body over as an ingest object.
 */
export class Processing extends Construct {
  readonly logProcessor: lambda.Function;
  readonly httpIngestFunction: lambda.IFunction;
  readonly httpIngestUrl: lambda.FunctionUrl;
  /** Holds one EventsWrittenMessage per lake object written; the detections function consumes it. */
  readonly detectionsQueue: sqs.Queue;
  readonly detectionsDlq: sqs.Queue;

  constructor(scope: Construct, id: string, props: ProcessingProps) {
    super(scope, id);
    const { queue, dlq } = queueWithDlq(this, 'DetectionsQueue', { visibilityTimeout: Duration.minutes(6) });
    this.detectionsQueue = queue;
    this.detectionsDlq = dlq;

    const logProcessor = nodeFunction(this, 'LogProcessorFunction', {
      entry: 'functions/log-processor/handler.ts',
      description: 'Classifies, parses and normalizes ingested objects into the lake and hands them to detection.',
      timeout: Duration.minutes(5),
      memorySize: 1024,
      environment: {
        [ENV.entityTable]: props.entityTable.tableName,
        [ENV.ingestBucket]: props.ingestBucket.bucketName,
        [ENV.lakeBucket]: props.lakeBucket.bucketName,
        [ENV.detectionsQueueUrl]: this.detectionsQueue.queueUrl,
        [ENV.userPoolId]: props.userPool.userPoolId,
      },
    });
    logProcessor.addEventSource(
      new eventSources.SqsEventSource(props.ingestQueue, { batchSize: 10, reportBatchItemFailures: true }),
    );
    props.ingestBucket.grantRead(logProcessor);
    props.lakeBucket.grantPut(logProcessor);
    grantEntityTableReadWrite(props.entityTable, logProcessor);
    this.detectionsQueue.grantSendMessages(logProcessor);
    // S3 log sources live in the customer's own buckets: read any object the deployment is allowed to read.
    logProcessor.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: ['arn:aws:s3:::*/*'] }));
    // Objects encrypted with a customer's KMS key are decrypted through S3 only (the key policy must allow it).
    logProcessor.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['kms:Decrypt'],
        resources: ['*'],
        conditions: { StringLike: { 'kms:ViaService': `s3.${Stack.of(this).region}.amazonaws.com` } },
      }),
    );
    // SQS log sources: each has its own queue, created by the log sources API and connected to this function.
    logProcessor.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes', 'sqs:ChangeMessageVisibility'],
        resources: [this.sourceQueues()],
      }),
    );
    logProcessor.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['cognito-idp:ListUsers', 'cognito-idp:ListUsersInGroup'],
        resources: [props.userPool.userPoolArn],
      }),
    );
    this.logProcessor = logProcessor;

    const httpIngest = nodeFunction(this, 'HttpIngestFunction', {
      entry: 'functions/http-ingest/handler.ts',
      description: "Accepts HTTP ingest requests authenticated with their log source's settings.",
      timeout: Duration.seconds(30),
      environment: {
        [ENV.entityTable]: props.entityTable.tableName,
        [ENV.ingestBucket]: props.ingestBucket.bucketName,
        ...(props.httpMaxBodyBytes ? { [ENV.httpIngestMaxBodyBytes]: String(props.httpMaxBodyBytes) } : {}),
      },
    });
    props.ingestBucket.grantPut(httpIngest);
    grantEntityTableReadWrite(props.entityTable, httpIngest);
    // Each log source has its own authentication (None, Basic, Bearer, HMAC, SharedSecret), checked by the function.
    this.httpIngestUrl = httpIngest.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.NONE });
    // Where the local runtime serves this URL on its own origin (`<origin>/ingest/<source id>`).
    (this.httpIngestUrl.node.defaultChild as lambda.CfnUrl).addMetadata('caracal:localPath', 'ingest');
    this.httpIngestFunction = httpIngest;

    NagSuppressions.addResourceSuppressions(
      this,
      [
        { id: 'AwsSolutions-IAM4', reason: "AWSLambdaBasicExecutionRole only grants writing the function's own logs." },
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'S3 log sources are objects in customer buckets (and keys) named at run time, decrypted only through S3; grants on the ingest and lake buckets and the entity table indexes use the object and index wildcards CDK generates.',
        },
      ],
      true,
    );
  }

  /** The queues of SQS log sources (their names start with SOURCE_QUEUE_PREFIX). */
  private sourceQueues(): string {
    const { partition, region, account } = Stack.of(this);
    return `arn:${partition}:sqs:${region}:${account}:${SOURCE_QUEUE_PREFIX}*`;
  }

  /**
   * Lets a function (the api) connect SQS sources' queues to the log processor and disconnect them
   * (functions/lib/log-sources/source-queue.ts), with the processor's name in LOG_PROCESSOR_FUNCTION.
   */
  allowSourceQueueConnections(fn: lambda.Function): void {
    const { partition, region, account } = Stack.of(this);
    fn.addEnvironment(ENV.logProcessorFunction, this.logProcessor.functionName);
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['lambda:CreateEventSourceMapping'],
        resources: ['*'],
        conditions: { StringEquals: { 'lambda:FunctionArn': this.logProcessor.functionArn } },
      }),
    );
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['lambda:ListEventSourceMappings'],
        resources: ['*'],
      }),
    );
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['lambda:DeleteEventSourceMapping', 'lambda:GetEventSourceMapping'],
        resources: [`arn:${partition}:lambda:${region}:${account}:event-source-mapping:*`],
      }),
    );
    NagSuppressions.addResourceSuppressions(
      fn,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'Event-source mappings get their ids when created at run time; creating one is limited to the log processor by the lambda:FunctionArn condition.',
        },
      ],
      true,
    );
  }

  /** Custom schemas with a Python script parser run in the detection engine: the log processor invokes it. */
  useScriptEngine(engine: lambda.IFunction): void {
    this.logProcessor.addEnvironment(ENV.engineFunction, engine.functionName);
    engine.grantInvoke(this.logProcessor);
  }
}
