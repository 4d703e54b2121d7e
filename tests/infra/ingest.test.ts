// The Ingest construct alone: the ingest bucket notifies the ingest queue, which has a dead-letter queue.
import { RemovalPolicy } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { Ingest } from '../../infra/ingest/ingest';
import { bareStack, logicalId, nagErrors } from './support';

describe('the Ingest construct on a bare stack', () => {
  it('notifies the ingest queue of every new object, with no unsuppressed cdk-nag finding', () => {
    const { stack, fakes } = bareStack('IngestTest', { nag: true });
    const accessLogs = fakes.bucket('AccessLogs');
    const ingest = new Ingest(stack, 'Ingest', { removalPolicy: RemovalPolicy.RETAIN, accessLogs });
    const template = Template.fromStack(stack);
    template.hasResourceProperties('Custom::S3BucketNotifications', {
      BucketName: { Ref: logicalId(ingest.ingestBucket) },
      NotificationConfiguration: {
        QueueConfigurations: [
          Match.objectLike({
            Events: ['s3:ObjectCreated:*'],
            QueueArn: { 'Fn::GetAtt': [logicalId(ingest.ingestQueue), 'Arn'] },
          }),
        ],
      },
    });
    template.hasResourceProperties('AWS::SQS::Queue', {
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [logicalId(ingest.ingestDlq), 'Arn'] }, maxReceiveCount: 5 },
    });
    template.hasResourceProperties('AWS::S3::Bucket', {
      LoggingConfiguration: Match.objectLike({ DestinationBucketName: { Ref: logicalId(accessLogs) } }),
    });
    expect(nagErrors(stack)).toEqual([]);
  });
});
