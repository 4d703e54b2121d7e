// The lookups construct on its own: the lookup-refresh function and schedule, the lake bucket's CORS rule for
// browser uploads, the lookups/ grants of the api function and the log processor, and S3-sourced tables' reads
// limited to the configured buckets (lookupBuckets): no s3:GetObject on every bucket's objects.
import type { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CONFIG, validateDeploymentConfig } from '../../infra/config';
import { Lookups, type LookupsProps } from '../../infra/lookups/lookups';
import { actionsOf, bareStack, functionNamed, logicalId, nagErrors, statementsOf, variables, type Statement } from './support';

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
    sourceBuckets: ['example-reference-data', 'example-intel'],
  });
  template = Template.fromStack(stack);
});

/** The lookups construct alone with these props (fakes for the rest). */
function lookupsWith(props: Partial<LookupsProps>) {
  const bare = bareStack('LookupsAlone');
  const api = bare.fakes.function('Api');
  new Lookups(bare.stack, 'Lookups', {
    entityTable: bare.fakes.table(),
    lakeBucket: bare.fakes.bucket('Lake'),
    userPool: bare.fakes.userPool(),
    apiFunction: api,
    logProcessor: bare.fakes.function('Processor'),
    ...props,
  });
  const alone = Template.fromStack(bare.stack);
  return { template: alone, refresh: functionNamed(alone, 'LookupsLookupRefresh'), api: logicalId(api) };
}

/** The resources of the statements allowing s3:GetObject exactly (not the lake's s3:GetObject* grants). */
const getObjectResources = (statements: readonly Statement[]) =>
  statements.filter((s) => [s.Action].flat().includes('s3:GetObject')).flatMap((s) => [s.Resource].flat());

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

describe("S3-sourced tables' buckets", () => {
  it('lets the refresh function and the api read objects of the configured buckets only', () => {
    const [refresh, refreshFunction] = functionNamed(template, 'LookupsLookupRefresh');
    const expected = [
      { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::example-reference-data/*']] },
      { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::example-intel/*']] },
    ];
    expect(getObjectResources(statementsOf(template, refresh))).toEqual(expected);
    expect(getObjectResources(statementsOf(template, logicalId(apiFunction)))).toEqual(expected);
    expect(JSON.stringify(statementsOf(template, refresh))).not.toContain(':s3:::*');
    expect(variables(refreshFunction).LOOKUP_BUCKETS).toBe('example-reference-data,example-intel');
  });

  it('without configured buckets, reads no S3 object beyond the lake bucket lookups/ prefix', () => {
    const alone = lookupsWith({});
    const [refresh, refreshFunction] = alone.refresh;
    expect(getObjectResources(statementsOf(alone.template, refresh))).toEqual([]);
    expect(getObjectResources(statementsOf(alone.template, alone.api))).toEqual([]);
    const reads = statementsOf(alone.template, refresh).filter((s) =>
      [s.Action].flat().some((a) => String(a).startsWith('s3:GetObject')),
    );
    expect(reads.length).toBeGreaterThan(0);
    for (const statement of reads) expect(JSON.stringify(statement.Resource)).toContain('/lookups/*');
    expect(variables(refreshFunction).LOOKUP_BUCKETS).toBeUndefined();
  });
});

describe('lookupBuckets in the deployment configuration', () => {
  it('is a list of distinct S3 bucket names, empty by default', () => {
    expect(LOCAL_CONFIG.lookupBuckets).toEqual([]);
    expect(validateDeploymentConfig({ ...LOCAL_CONFIG, lookupBuckets: ['example-reference-data', 'intel.example.com'] })).toEqual(
      [],
    );
    expect(validateDeploymentConfig({ ...LOCAL_CONFIG, lookupBuckets: ['*'] })).toContain(
      "lookupBuckets: '*' is not an S3 bucket name",
    );
    expect(validateDeploymentConfig({ ...LOCAL_CONFIG, lookupBuckets: ['arn:aws:s3:::x'] })).toContain(
      "lookupBuckets: 'arn:aws:s3:::x' is not an S3 bucket name",
    );
    expect(validateDeploymentConfig({ ...LOCAL_CONFIG, lookupBuckets: ['abc', 'abc'] })).toContain(
      'lookupBuckets must not repeat',
    );
    expect(validateDeploymentConfig({ ...LOCAL_CONFIG, lookupBuckets: 'abc' as unknown as string[] })).toContain(
      'lookupBuckets must be a list of S3 bucket names',
    );
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
