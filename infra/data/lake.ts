import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY } from 'aws-cdk-lib/cx-api';
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
    // S3 server access logs are delivered under a bucket policy for logging.s3.amazonaws.com (each source
    // bucket's statement names it), not the legacy LogDeliveryWrite ACL (cfn-lint W3045). Object-writer
    // ownership stays: CloudFront's standard logs are still written with ACLs.
    this.node.setContext(S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY, true);
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
