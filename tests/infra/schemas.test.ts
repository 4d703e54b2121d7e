// What the schemas area needs from the stack: the api function knows the detection engine (the tester runs
// a schema's script parser there) and may invoke it and nothing else by that grant; the entity table for
// the SCHEMA# records.
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
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
const statements = (functionId: string) =>
  Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>)
    .filter((p) => JSON.stringify(p.Properties.Roles).includes(functionId.replace(/[0-9A-F]{8}$/, 'ServiceRole')))
    .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement);

beforeAll(() => {
  const app: App = buildApp(config, { siteAssetPath, bundle: false });
  template = Template.fromStack(app.node.findChild('Caracal-prod-eu-west-1') as Stack);
});

describe('the api function for schemas', () => {
  it('names the detection engine and the entity table', () => {
    const [, api] = functionNamed('ApiApiFunction');
    const [engineId] = functionNamed('DetectionsEngineFunction');
    const env = (api.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(env.ENGINE_FUNCTION_NAME).toEqual({ Ref: engineId });
    expect(env.ENTITY_TABLE).toBeDefined();
  });

  it('may invoke the engine function', () => {
    const [apiId] = functionNamed('ApiApiFunction');
    const [engineId] = functionNamed('DetectionsEngineFunction');
    const invoke = statements(apiId).filter((s) => ([] as unknown[]).concat(s.Action).includes('lambda:InvokeFunction'));
    expect(JSON.stringify(invoke.map((s) => s.Resource))).toContain(engineId);
  });
});
