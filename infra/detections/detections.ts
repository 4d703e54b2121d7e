import { Duration } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as eventSources from 'aws-cdk-lib/aws-lambda-event-sources';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { nodeFunction } from '../policy/resources';
import { PYTHON_RUNTIME } from '../runtimes';
import { PythonModulesLayer } from './python-modules';
import { ENV } from '../../functions/lib/env';
import { grantEntityTableReadWrite } from '../data/entity-grants';

/** The partition-key prefix of the caching helpers' items in the key-value table. */
export const CACHE_KEY_PREFIX = 'CACHE#';

/**
 * Detections batches in flight at once (the mapping's ScalingConfig.MaximumConcurrency; the local runtime runs
 * that many consumers too). The detections queue is a fair queue (its messages' group is their log source and log
 * type): while one source's burst keeps consumers busy, the next consumer to ask gets another source's message
 * first, so a new alert waits for one batch to end, not for the burst. Five is what Lambda starts an SQS mapping
 * with; it also bounds the writes a burst sends to the entity table at once.
 */
export const DETECTIONS_CONCURRENCY = 5;

export interface DetectionsProps {
  /** The Python engine's folder (`functions/detection-engine`): its code as is, and the third-party modules of
   * its requirements.txt as a layer built at synth time (python-modules.ts). */
  readonly engineCodePath: string;
  readonly keyValueTable: dynamodb.ITableV2;
  /** EventsWrittenMessage per lake object, from the log processor. */
  readonly detectionsQueue: sqs.IQueue;
  /** Events are read from it; signals and detection errors are written to it. */
  readonly lakeBucket: s3.IBucket;
  /** Detections, alerts and their dedup state. */
  readonly entityTable: dynamodb.ITableV2;
  /** System alerts notify the users who may read alerts. */
  readonly userPool: cognito.IUserPool;
  /** Whether the engine gets the layer of requirements.txt's modules (built with pip at synth time). The local
   * runtime runs the engine on the machine's python3, which provides them itself, so it synthesizes without. */
  readonly pythonModulesLayer: boolean;
}

/**
 * The detection engine (a pure Python Lambda that runs detections over events) and the detections function
 * (Node) that feeds it each lake object of the detections queue, dedups matches into alerts and writes signals.
 */
export class Detections extends Construct {
  readonly engineFunction: lambda.Function;
  readonly detectionsFunction: lambda.Function;
  /** The third-party modules detections import (pycountry, policyuniverse, ...). */
  readonly pythonModules: lambda.LayerVersion | undefined;

  constructor(scope: Construct, id: string, props: DetectionsProps) {
    super(scope, id);
    this.pythonModules = props.pythonModulesLayer
      ? new PythonModulesLayer(this, 'PythonModules', {
          engineCodePath: props.engineCodePath,
          architecture: lambda.Architecture.ARM_64,
        }).layer
      : undefined;
    this.engineFunction = new lambda.Function(this, 'EngineFunction', {
      description: 'Runs Python and YAML detections over batches of events.',
      runtime: PYTHON_RUNTIME.runtime,
      architecture: lambda.Architecture.ARM_64,
      handler: 'handler.handler',
      code: lambda.Code.fromAsset(props.engineCodePath, { exclude: ['**/__pycache__', '**/*.pyc', '**/*.ts'] }),
      layers: this.pythonModules ? [this.pythonModules] : undefined,
      memorySize: 1024,
      timeout: Duration.minutes(2),
      environment: { [ENV.keyValueTable]: props.keyValueTable.tableName },
    });
    // The engine's host (never the sandbox its user code runs in) serves the caching helpers' items, whose
    // partition keys all start with CACHE# (caracal_engine/kv.py): the role reaches only those.
    this.engineFunction.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
        resources: [props.keyValueTable.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${CACHE_KEY_PREFIX}*`] } },
      }),
    );
    NagSuppressions.addResourceSuppressions(
      this.engineFunction,
      [
        { id: 'AwsSolutions-IAM4', reason: "AWSLambdaBasicExecutionRole only grants writing the function's own logs." },
        {
          id: 'AwsSolutions-L1',
          reason: 'The engine declares the Python its tests pass on (infra/runtimes.ts), not whichever is newest.',
        },
      ],
      true,
    );

    const detectionsFunction = nodeFunction(this, 'DetectionsFunction', {
      entry: 'functions/detections/handler.ts',
      description: 'Runs the enabled detections over each lake object, dedups matches into alerts and writes signals.',
      timeout: Duration.minutes(5),
      memorySize: 1024,
      environment: {
        [ENV.entityTable]: props.entityTable.tableName,
        [ENV.lakeBucket]: props.lakeBucket.bucketName,
        [ENV.engineFunction]: this.engineFunction.functionName,
        [ENV.userPoolId]: props.userPool.userPoolId,
      },
    });
    detectionsFunction.addEventSource(
      new eventSources.SqsEventSource(props.detectionsQueue, {
        batchSize: 10,
        reportBatchItemFailures: true,
        maxConcurrency: DETECTIONS_CONCURRENCY,
      }),
    );
    props.lakeBucket.grantReadWrite(detectionsFunction);
    grantEntityTableReadWrite(props.entityTable, detectionsFunction);
    this.engineFunction.grantInvoke(detectionsFunction);
    detectionsFunction.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['cognito-idp:ListUsers', 'cognito-idp:ListUsersInGroup'],
        resources: [props.userPool.userPoolArn],
      }),
    );
    this.detectionsFunction = detectionsFunction;
    NagSuppressions.addResourceSuppressions(
      detectionsFunction,
      [
        { id: 'AwsSolutions-IAM4', reason: "AWSLambdaBasicExecutionRole only grants writing the function's own logs." },
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'Lake objects are named per partition at run time; the entity table grant covers its indexes; engine invoke covers its versions. All wildcards are the ones CDK generates.',
        },
      ],
      true,
    );
  }
}
