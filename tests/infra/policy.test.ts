// The app-root aspects alone: every function gets a log group with the configured retention, and a store
// without encryption is an error. (Queues: stack.test.ts and dead-letters.test.ts.)
import { Aspects, RemovalPolicy } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import { EncryptionAspect, LogRetentionAspect } from '../../infra/policy/aspects';
import { secureBucket } from '../../infra/policy/resources';
import { bareStack, errors, logicalId, REGION } from './support';

describe('the log retention aspect', () => {
  it('gives every function a log group named after it, kept for the configured time and removed with the stack', () => {
    const { app, stack, fakes } = bareStack('Logs');
    const fn = fakes.function('Work');
    Aspects.of(app).add(new LogRetentionAspect(logs.RetentionDays.THREE_MONTHS));
    const template = Template.fromStack(stack);
    template.hasResource('AWS::Logs::LogGroup', {
      Properties: { LogGroupName: { 'Fn::Join': ['', ['/aws/lambda/', { Ref: logicalId(fn) }]] }, RetentionInDays: 90 },
      DeletionPolicy: 'Delete',
    });
    template.resourceCountIs('AWS::Logs::LogGroup', 1);
  });
});

describe('the encryption aspect', () => {
  it('refuses a bucket without default encryption and a table with encryption turned off', () => {
    const { app, stack } = bareStack('Stores');
    secureBucket(stack, 'Secure', { removalPolicy: RemovalPolicy.RETAIN });
    new s3.CfnBucket(stack, 'Plain');
    new dynamodb.CfnGlobalTable(stack, 'Table', {
      attributeDefinitions: [{ attributeName: 'pk', attributeType: 'S' }],
      keySchema: [{ attributeName: 'pk', keyType: 'HASH' }],
      replicas: [{ region: REGION }],
      billingMode: 'PAY_PER_REQUEST',
      sseSpecification: { sseEnabled: false },
    });
    Aspects.of(app).add(new EncryptionAspect());
    expect(errors(stack)).toEqual([
      '/Stores/Plain: Caracal: every S3 bucket must have default encryption.',
      '/Stores/Table: Caracal: every DynamoDB table must be encrypted.',
    ]);
  });
});
