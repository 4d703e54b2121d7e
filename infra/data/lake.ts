import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { secureBucket } from '../policy/resources';

export interface LakeProps {
  readonly removalPolicy: RemovalPolicy;
}

/**
 * The data lake bucket (gzip NDJSON under `<db>/<table>/year=/month=/day=/hour=/`) and the bucket that
 * receives every other bucket's server access logs.
 */
export class Lake extends Construct {
  readonly accessLogsBucket: s3.Bucket;
  readonly lakeBucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: LakeProps) {
    super(scope, id);
    this.accessLogsBucket = secureBucket(this, 'AccessLogsBucket', {
      removalPolicy: props.removalPolicy,
      objectOwnership: s3.ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [{ expiration: Duration.days(365) }],
    });
    NagSuppressions.addResourceSuppressions(this.accessLogsBucket, [
      { id: 'AwsSolutions-S1', reason: 'This is the access-log bucket; logging it into itself would loop.' },
    ]);
    this.lakeBucket = secureBucket(this, 'LakeBucket', {
      removalPolicy: props.removalPolicy,
      accessLogs: this.accessLogsBucket,
    });
  }
}
