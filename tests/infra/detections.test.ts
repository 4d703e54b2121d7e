// The detections capability and the demo in the synthesized template: the detections function on the
// detections queue with partial batch failures, its environment and grants; the demo function; what the api
// function needs for alert events, detection tests and the demo button.
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../bin/app';
import { LOCAL_CONFIG, type DeploymentConfig } from '../../infra/config';

const siteAssetPath = join(import.meta.dirname, 'fixtures', 'site');
const config: DeploymentConfig = {
  ...LOCAL_CONFIG,
  local: false,
  account: '123456789012',
  regions: ['eu-west-1'],
  stage: 'prod',
};
let template: Template;

type Resource = { Properties: Record<string, unknown> };

const functionNamed = (prefix: string): [string, Resource] => {
  const found = Object.entries(template.findResources('AWS::Lambda::Function') as Record<string, Resource>).find(([id]) =>
    id.startsWith(prefix),
  );
  if (!found) throw new Error(`no function ${prefix}*`);
  return found;
};
const variables = (r: Resource) => (r.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
const policiesOf = (functionId: string) =>
  Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>).filter((p) =>
    JSON.stringify(p.Properties.Roles).includes(functionId.replace(/[0-9A-F]{8}$/, 'ServiceRole')),
  );
const statements = (functionId: string) =>
  policiesOf(functionId).flatMap((p) => (p.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement);
const allows = (functionId: string, action: string) =>
  statements(functionId).some((s) => ([] as unknown[]).concat(s.Action).includes(action));

beforeAll(() => {
  const app: App = buildApp(config, { siteAssetPath, bundle: false });
  template = Template.fromStack(app.node.findChild('Caracal-prod-eu-west-1') as Stack);
});

describe('the detections function', () => {
  it('consumes the detections queue in batches with partial batch failures', () => {
    const [id] = functionNamed('DetectionsDetectionsFunction');
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: id },
      EventSourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^ProcessingDetectionsQueue'), 'Arn'] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BatchSize: 10,
    });
  });

  it('knows the entity table, the lake, the engine and the user pool, and may use them', () => {
    const [id, fn] = functionNamed('DetectionsDetectionsFunction');
    expect(Object.keys(variables(fn)).sort()).toEqual(
      expect.arrayContaining(['ENGINE_FUNCTION_NAME', 'ENTITY_TABLE', 'LAKE_BUCKET', 'USER_POOL_ID']),
    );
    expect(allows(id, 'lambda:InvokeFunction')).toBe(true);
    expect(allows(id, 's3:PutObject')).toBe(true);
    expect(allows(id, 'dynamodb:UpdateItem')).toBe(true);
    expect(allows(id, 'cognito-idp:ListUsers')).toBe(true);
    expect((fn.Properties.Timeout as number) * 1).toBeLessThanOrEqual(360);
  });
});

describe('the detection engine function', () => {
  it("reaches only the caching helpers' items of the key-value table, and nothing else", () => {
    const [id] = functionNamed('DetectionsEngineFunction');
    const granted = statements(id);
    expect(granted).toEqual([
      {
        Effect: 'Allow',
        Action: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
        Resource: { 'Fn::GetAtt': [expect.stringMatching(/^DataKeyValueTable/), 'Arn'] },
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['CACHE#*'] } },
      },
    ]);
  });
});

describe('the demo function', () => {
  it('writes into the ingest bucket and posts to HTTP ingest', () => {
    const [id, fn] = functionNamed('DemoDemoFunction');
    expect(Object.keys(variables(fn))).toEqual(expect.arrayContaining(['ENTITY_TABLE', 'INGEST_BUCKET', 'HTTP_INGEST_URL']));
    expect(allows(id, 's3:PutObject')).toBe(true);
  });
});

describe('the api function', () => {
  it('reads alert events from the lake, runs detection tests in the engine and starts the demo', () => {
    const [id, fn] = functionNamed('ApiApiFunction');
    expect(Object.keys(variables(fn))).toEqual(
      expect.arrayContaining(['LAKE_BUCKET', 'ENGINE_FUNCTION_NAME', 'DEMO_FUNCTION_NAME']),
    );
    expect(allows(id, 'lambda:InvokeFunction')).toBe(true);
    expect(allows(id, 's3:GetObject*') || allows(id, 's3:GetObject')).toBe(true);
  });
});
