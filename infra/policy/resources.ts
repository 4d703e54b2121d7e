// Secure defaults shared by every capability: buckets, queues with dead-letter queues, and Lambda functions.
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_RUNTIME } from '../runtimes';

/** The repository: function entries and the lock file are found from here, whatever the working directory. */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface SecureBucketProps {
  readonly removalPolicy: RemovalPolicy;
  /** Where S3 server access logs go; omit only for the access-log bucket itself. */
  readonly accessLogs?: s3.IBucket;
  readonly accessLogsPrefix?: string;
  readonly lifecycleRules?: s3.LifecycleRule[];
  readonly objectOwnership?: s3.ObjectOwnership;
}

export function secureBucket(scope: Construct, id: string, props: SecureBucketProps): s3.Bucket {
  return new s3.Bucket(scope, id, {
    encryption: s3.BucketEncryption.S3_MANAGED,
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
    serverAccessLogsBucket: props.accessLogs,
    serverAccessLogsPrefix: props.accessLogs ? (props.accessLogsPrefix ?? `${id}/`) : undefined,
    lifecycleRules: props.lifecycleRules,
    objectOwnership: props.objectOwnership,
    removalPolicy: props.removalPolicy,
    autoDeleteObjects: props.removalPolicy === RemovalPolicy.DESTROY ? false : undefined,
  });
}

export interface QueueWithDlqProps {
  readonly visibilityTimeout: Duration;
  /** Receives before a message moves to the dead-letter queue. */
  readonly maxReceiveCount?: number;
  /** How long a message waits to be received (default 4 days; SQS keeps one 14 days at most). */
  readonly retentionPeriod?: Duration;
}

/** A queue and its dead-letter queue, both encrypted and TLS-only. */
export function queueWithDlq(scope: Construct, id: string, props: QueueWithDlqProps): { queue: sqs.Queue; dlq: sqs.Queue } {
  const dlq = new sqs.Queue(scope, `${id}Dlq`, {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
  });
  const queue = new sqs.Queue(scope, id, {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    visibilityTimeout: props.visibilityTimeout,
    retentionPeriod: props.retentionPeriod ?? Duration.days(4),
    deadLetterQueue: { queue: dlq, maxReceiveCount: props.maxReceiveCount ?? 5 },
  });
  return { queue, dlq };
}

export interface NodeFunctionProps {
  /** Path of the handler module (a `handler.ts` exporting `handler`): from the repository root, or absolute. */
  readonly entry: string;
  readonly environment?: Record<string, string>;
  readonly timeout?: Duration;
  readonly memorySize?: number;
  readonly description: string;
}

/** A Node.js Lambda bundled by esbuild on the machine (no Docker). */
export function nodeFunction(scope: Construct, id: string, props: NodeFunctionProps): nodejs.NodejsFunction {
  return new nodejs.NodejsFunction(scope, id, {
    entry: resolve(ROOT, props.entry),
    projectRoot: ROOT,
    depsLockFilePath: join(ROOT, 'package-lock.json'),
    handler: 'handler',
    description: props.description,
    runtime: NODE_RUNTIME.runtime,
    architecture: lambda.Architecture.ARM_64,
    memorySize: props.memorySize ?? 512,
    timeout: props.timeout ?? Duration.seconds(30),
    environment: { NODE_OPTIONS: '--enable-source-maps', ...props.environment },
    bundling: {
      format: nodejs.OutputFormat.ESM,
      // Dependencies written as CommonJS still call require(); give the ES module one.
      banner: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
      target: 'node20',
      // Bundle the AWS SDK too: the function runs the SDK version it was tested with, on AWS and locally.
      externalModules: [],
      minify: true,
      sourceMap: true,
      forceDockerBundling: false,
    },
  });
}
