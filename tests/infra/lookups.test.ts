// The lookups construct on its own: the lookup-refresh function and schedule, the lake bucket's CORS rule for
// browser uploads, and the lookups/ grants of the api function and the log processor.
import type { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { Lookups } from '../../infra/lookups/lookups';
import { actionsOf, bareStack, functionNamed, logicalId, nagErrors, statementsOf } from './support';

let stack: Stack;
let template: Template;
let apiFunction: lambda.Function;
let processor: lambda.Function;

beforeAll(() => {
  const bare = bareStack('LookupsTest', { nag: true });
  stack = bare.stack;
  apiFunction = bare.fakes.function('Api');
  processor = bare.fakes.function('Processor');
  new Lookups(stack, 'Lookups', {
    entityTable: bare.fakes.table(),
    lakeBucket: bare.fakes.bucket('Lake'),
    userPool: bare.fakes.userPool(),
    apiFunction,
    logProcessor: processor,
  });
  template = Template.fromStack(stack);
});

describe('lookup refresh', () => {
  it('runs a function every 15 minutes with the table and the lake bucket', () => {
    template.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(15 minutes)', State: 'ENABLED' });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ ENTITY_TABLE: Match.anyValue(), LAKE_BUCKET: Match.anyValue() }) },
    });
    const [refresh] = functionNamed(template, 'LookupsLookupRefresh');
    const actions = actionsOf(statementsOf(template, refresh));
    expect(actions).toEqual(expect.arrayContaining(['s3:GetObject', 's3:PutObject']));
  });
});

describe('grants', () => {
  it('lets the browser PUT uploads (CORS) and the api write only under lookups/', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      CorsConfiguration: { CorsRules: [Match.objectLike({ AllowedMethods: ['PUT'] })] },
    });
    const statements = statementsOf(template, logicalId(apiFunction));
    const put = statements.find((s) => [s.Action].flat().some((a) => String(a).startsWith('s3:PutObject')))!;
    expect(JSON.stringify(put.Resource)).toContain('/lookups/*');
  });

  it('lets the log processor only read lookups/', () => {
    const actions = actionsOf(statementsOf(template, logicalId(processor)));
    expect(actions).toContain('s3:GetObject*');
    expect(actions.some((a) => /^s3:(Put|Delete)/.test(a))).toBe(false);
  });
});

it('leaves no unsuppressed cdk-nag finding in the construct', () => {
  expect(nagErrors(stack)).toEqual([]);
});
