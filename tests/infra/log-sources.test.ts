// The log-sources construct on its own: the source-health function and schedule, and the grants it gives the
// api function for S3 and SQS sources.
import type { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { LogSources } from '../../infra/log-sources/log-sources';
import { actionsOf, bareStack, functionNamed, logicalId, nagErrors, statementsOf } from './support';

let stack: Stack;
let template: Template;
let apiFunction: lambda.Function;

beforeAll(() => {
  const bare = bareStack('LogSourcesTest', { nag: true });
  stack = bare.stack;
  apiFunction = bare.fakes.function('Api');
  new LogSources(stack, 'LogSources', {
    entityTable: bare.fakes.table(),
    userPool: bare.fakes.userPool(),
    apiFunction,
    httpIngestUrl: 'https://ingest.example.com',
    privateBuckets: [bare.fakes.bucket('Lake')],
  });
  template = Template.fromStack(stack);
});

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
    const [health] = functionNamed(template, 'LogSourcesSourceHealth');
    const actions = actionsOf(statementsOf(template, health));
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
    const statements = statementsOf(template, logicalId(apiFunction));
    const sqsStatement = statements.find((s) => [s.Action].flat().includes('sqs:CreateQueue'))!;
    expect(JSON.stringify(sqsStatement.Resource)).toContain(':caracal-source-*');
    expect([sqsStatement.Action].flat()).not.toContain('sqs:SendMessage');
    const s3Statement = statements.find((s) => [s.Action].flat().includes('s3:GetObject'))!;
    expect([s3Statement.Action].flat().sort()).toEqual(['s3:GetBucketLocation', 's3:GetObject', 's3:ListBucket']);
  });
});

it('leaves no unsuppressed cdk-nag finding in the construct', () => {
  expect(nagErrors(stack)).toEqual([]);
});
