// The Data and Lake constructs alone: the three tables with their keys, indexes and TTL; the lake bucket,
// logged into the access-log bucket.
import { RemovalPolicy } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { Data } from '../../infra/data/data';
import { ALERT_INDEXES, projectedBy } from '../../functions/lib/alerts/indexes';
import { Lake } from '../../infra/data/lake';
import { bareStack, logicalId, nagErrors } from './support';

describe('the Data construct on a bare stack', () => {
  it('creates the settings, key-value and entity tables, with no unsuppressed cdk-nag finding', () => {
    const { stack } = bareStack('DataTest', { nag: true });
    const data = new Data(stack, 'Data', { removalPolicy: RemovalPolicy.DESTROY });
    const template = Template.fromStack(stack);
    const tables = template.findResources('AWS::DynamoDB::GlobalTable');
    expect(Object.keys(tables).sort()).toEqual(
      [data.entityTable, data.keyValueTable, data.settingsTable].map((t) => logicalId(t)).sort(),
    );
    for (const table of Object.values(tables)) expect(table.DeletionPolicy).toBe('Delete');
    const entity = tables[logicalId(data.entityTable)].Properties;
    expect(entity.GlobalSecondaryIndexes.map((i: { IndexName: string }) => i.IndexName)).toEqual([
      'gsi1',
      'gsi2',
      'gsi3',
      ...ALERT_INDEXES,
    ]);
    // The alert indexes project only what the list filters read (an alert is not copied whole into each).
    for (const index of entity.GlobalSecondaryIndexes.slice(3))
      expect(index.Projection).toEqual({ ProjectionType: 'INCLUDE', NonKeyAttributes: projectedBy(index.IndexName) });
    expect(entity.GlobalSecondaryIndexes.length).toBeLessThanOrEqual(20);
    expect(entity.TimeToLiveSpecification).toEqual({ AttributeName: 'expiresAt', Enabled: true });
    expect(tables[logicalId(data.settingsTable)].Properties.TimeToLiveSpecification).toBeUndefined();
    expect(nagErrors(stack)).toEqual([]);
  });
});

describe('the Lake construct on a bare stack', () => {
  it('logs the lake bucket into the access-log bucket, with no unsuppressed cdk-nag finding', () => {
    const { stack } = bareStack('LakeTest', { nag: true });
    const lake = new Lake(stack, 'Lake', { removalPolicy: RemovalPolicy.RETAIN });
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::S3::Bucket', 2);
    template.hasResourceProperties('AWS::S3::Bucket', {
      LoggingConfiguration: { DestinationBucketName: { Ref: logicalId(lake.accessLogsBucket) }, LogFilePrefix: 'LakeBucket/' },
    });
    template.hasResourceProperties('AWS::S3::Bucket', {
      OwnershipControls: { Rules: [{ ObjectOwnership: 'ObjectWriter' }] },
      LifecycleConfiguration: { Rules: [Match.objectLike({ ExpirationInDays: 365 })] },
      AccessControl: Match.absent(),
    });
    // S3 delivers the server access logs under the bucket policy, not the legacy LogDeliveryWrite ACL.
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: logicalId(lake.accessLogsBucket) },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Allow', Principal: { Service: 'logging.s3.amazonaws.com' }, Action: 's3:PutObject' }),
        ]),
      },
    });
    expect(nagErrors(stack)).toEqual([]);
  });
});
