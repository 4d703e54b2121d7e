// The log-sources construct on its own: the source-health function and schedule, and the grants it gives the
// api function for S3 and SQS sources.
import { App, Aspects, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { LogSources } from '../../infra/log-sources/log-sources';

let stack: Stack;
let template: Template;
let apiRoleId: string;

beforeAll(() => {
  const app = new App();
  stack = new Stack(app, 'LogSourcesTest', { env: { account: '123456789012', region: 'eu-west-1' } });
  const entityTable = new dynamodb.TableV2(stack, 'Entities', {
    partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
  });
  const userPool = new cognito.UserPool(stack, 'Users');
  const apiFunction = new lambda.Function(stack, 'Api', {
    runtime: lambda.Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline('export const handler = async () => null;'),
  });
  const lake = new s3.Bucket(stack, 'Lake', { bucketName: 'caracal-lake-test' });
  new LogSources(stack, 'LogSources', {
    entityTable,
    userPool,
    apiFunction,
    httpIngestUrl: 'https://ingest.example.com',
    privateBuckets: [lake],
  });

  Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
  app.synth();
  template = Template.fromStack(stack);
  apiRoleId = stack.getLogicalId(apiFunction.role!.node.defaultChild as never);
});

const statementsOf = (roleId: string) =>
  Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((p) => JSON.stringify(p.Properties.Roles).includes(roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>);

describe('source health', () => {
  it('runs a function every 15 minutes', () => {
    template.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(15 minutes)', State: 'ENABLED' });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Handler: 'index.handler',
      Environment: {
        Variables: Match.objectLike({
          NO_DATA_HOURS: '24',
          HTTP_INGEST_URL: 'https://ingest.example.com',
          ENTITY_TABLE: Match.anyValue(),
        }),
      },
    });
  });

  it('may read source buckets and check KMS keys and source queues, read-only', () => {
    const healthRole = Object.entries(template.findResources('AWS::IAM::Role')).find(([id]) =>
      id.startsWith('LogSourcesSourceHealth'),
    )![0];
    const actions = statementsOf(healthRole).flatMap((s) => [s.Action].flat());
    expect(actions).toEqual(
      expect.arrayContaining(['s3:GetBucketLocation', 's3:ListBucket', 's3:GetObject', 'kms:DescribeKey', 'sqs:GetQueueUrl']),
    );
    expect(actions.some((a) => /^s3:(Put|Delete)/.test(a) || a === 'sqs:CreateQueue')).toBe(false);
  });
});

describe('api grants', () => {
  it("names Caracal's own buckets, which no source may read, to the api function", () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ PRIVATE_BUCKETS: Match.anyValue() }) },
    });
    expect(JSON.stringify(template.findResources('AWS::Lambda::Function'))).toContain('PRIVATE_BUCKETS');
  });

  it('lets the api function read source buckets and manage only caracal-source- queues', () => {
    const statements = statementsOf(apiRoleId);
    const sqsStatement = statements.find((s) => [s.Action].flat().includes('sqs:CreateQueue'))!;
    expect(JSON.stringify(sqsStatement.Resource)).toContain(':caracal-source-*');
    expect([sqsStatement.Action].flat()).not.toContain('sqs:SendMessage');
    const s3Statement = statements.find((s) => [s.Action].flat().includes('s3:GetObject'))!;
    expect([s3Statement.Action].flat().sort()).toEqual(['s3:GetBucketLocation', 's3:GetObject', 's3:ListBucket']);
  });
});

it('leaves no unsuppressed cdk-nag finding in the construct', () => {
  const errors = Annotations.fromStack(stack).findError('*', Match.stringLikeRegexp('AwsSolutions-.*'));
  const mine = errors.filter((e) => e.id.includes('/LogSources/'));
  expect(mine.map((e) => `${e.id}: ${e.entry.data}`)).toEqual([]);
});
