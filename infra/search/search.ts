import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as athena from 'aws-cdk-lib/aws-athena';
import * as glue from 'aws-cdk-lib/aws-glue';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { LOGS_DATABASE } from '../../core/lake/layout';
import { secureBucket } from '../policy/resources';

export interface SearchProps {
  readonly removalPolicy: RemovalPolicy;
  readonly accessLogs: s3.IBucket;
}

/** The lake's catalog and query engine on AWS: a Glue database and an Athena workgroup. */
export class Search extends Construct {
  readonly resultsBucket: s3.Bucket;
  readonly workGroup: athena.CfnWorkGroup;
  readonly database: glue.CfnDatabase;

  constructor(scope: Construct, id: string, props: SearchProps) {
    super(scope, id);
    this.resultsBucket = secureBucket(this, 'QueryResultsBucket', {
      removalPolicy: props.removalPolicy,
      accessLogs: props.accessLogs,
      lifecycleRules: [{ expiration: Duration.days(30) }],
    });
    this.database = new glue.CfnDatabase(this, 'LogsDatabase', {
      catalogId: Stack.of(this).account,
      databaseInput: { name: LOGS_DATABASE, description: 'Normalized log events, one table per log type.' },
    });
    this.workGroup = new athena.CfnWorkGroup(this, 'WorkGroup', {
      name: `caracal-${Stack.of(this).region}`,
      state: 'ENABLED',
      recursiveDeleteOption: true,
      workGroupConfiguration: {
        enforceWorkGroupConfiguration: true,
        publishCloudWatchMetricsEnabled: true,
        bytesScannedCutoffPerQuery: 100 * 1024 ** 3,
        resultConfiguration: {
          outputLocation: `s3://${this.resultsBucket.bucketName}/results/`,
          encryptionConfiguration: { encryptionOption: 'SSE_S3' },
        },
      },
    });
  }
}
