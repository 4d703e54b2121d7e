import { Duration } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

export interface DetectionsProps {
  /** The Python engine's folder (`functions/detection-engine`): standard library only, no bundling. */
  readonly engineCodePath: string;
  readonly keyValueTable: dynamodb.ITableV2;
}

/** The detection engine: a pure Python Lambda that runs detections over events. */
export class Detections extends Construct {
  readonly engineFunction: lambda.Function;

  constructor(scope: Construct, id: string, props: DetectionsProps) {
    super(scope, id);
    this.engineFunction = new lambda.Function(this, 'EngineFunction', {
      description: 'Runs Python and YAML detections over batches of events.',
      runtime: lambda.Runtime.PYTHON_3_15,
      architecture: lambda.Architecture.ARM_64,
      handler: 'handler.handler',
      code: lambda.Code.fromAsset(props.engineCodePath, { exclude: ['**/__pycache__', '**/*.pyc', '**/*.ts'] }),
      memorySize: 1024,
      timeout: Duration.minutes(2),
      environment: { CARACAL_KV_TABLE: props.keyValueTable.tableName },
    });
    props.keyValueTable.grantReadWriteData(this.engineFunction);
    NagSuppressions.addResourceSuppressions(
      this.engineFunction,
      [{ id: 'AwsSolutions-IAM4', reason: "AWSLambdaBasicExecutionRole only grants writing the function's own logs." }],
      true,
    );
  }
}
