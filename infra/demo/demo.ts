import { Duration } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { nodeFunction } from '../policy/resources';
import { ENV } from '../../functions/lib/env';
import { grantEntityTableReadWrite } from '../data/entity-grants';

export interface DemoProps {
  /** Log sources, detections and the demo's own state. */
  readonly entityTable: dynamodb.ITableV2;
  /** The demo S3 source reads its `demo/` prefix; the generator writes objects there. */
  readonly ingestBucket: s3.IBucket;
  /** Base URL of HTTP ingest; the generator posts to the demo HTTP source's endpoint under it. */
  readonly httpIngestUrl: string;
  /** The detection engine, which checks the demo detections' Python as every upload's is checked. */
  readonly engineFunction: lambda.IFunction;
  /** The lake bucket: the demo lookup tables' data versions are written under its `lookups/data/` prefix. */
  readonly lakeBucket?: s3.IBucket;
}

/**
 * The demo: a function that creates the demo log sources, loads the demo detections (a panther-analysis zip it
 * is given) and sends realistic events through the real ingest paths. Deployed everywhere: administrators
 * start it from the alerts page (generateDemoEvents), and the local runtime seeds it on first start.
 */
export class Demo extends Construct {
  readonly demoFunction: lambda.IFunction;

  constructor(scope: Construct, id: string, props: DemoProps) {
    super(scope, id);
    const demoFunction = nodeFunction(this, 'DemoFunction', {
      entry: 'functions/demo/handler.ts',
      description: 'Creates the demo sources and detections and sends demo events through the ingest paths.',
      timeout: Duration.minutes(2),
      environment: {
        [ENV.entityTable]: props.entityTable.tableName,
        [ENV.ingestBucket]: props.ingestBucket.bucketName,
        [ENV.httpIngestUrl]: props.httpIngestUrl,
        [ENV.engineFunction]: props.engineFunction.functionName,
        ...(props.lakeBucket ? { [ENV.lakeBucket]: props.lakeBucket.bucketName } : {}),
      },
    });
    grantEntityTableReadWrite(props.entityTable, demoFunction);
    props.engineFunction.grantInvoke(demoFunction);
    props.ingestBucket.grantPut(demoFunction);
    props.lakeBucket?.grantPut(demoFunction, 'lookups/data/*');
    this.demoFunction = demoFunction;
    NagSuppressions.addResourceSuppressions(
      demoFunction,
      [
        { id: 'AwsSolutions-IAM4', reason: "AWSLambdaBasicExecutionRole only grants writing the function's own logs." },
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'Demo objects are named at run time under the ingest bucket (and the demo lookup tables under the lake bucket lookups/data/); the entity table grant covers its indexes.',
        },
      ],
      true,
    );
  }
}
