// What the schemas area needs from the stack: the api function knows the detection engine (the tester runs
// a schema's script parser there) and may invoke it and nothing else by that grant; the entity table for
// the SCHEMA# records.
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { functionNamed, statementsOf, synthesizedStack, variables } from './support';

let template: Template;

beforeAll(() => ({ template } = synthesizedStack()));

describe('the api function for schemas', () => {
  it('names the detection engine and the entity table', () => {
    const [, api] = functionNamed(template, 'ApiApiFunction');
    const [engineId] = functionNamed(template, 'DetectionsEngineFunction');
    const env = variables(api);
    expect(env.ENGINE_FUNCTION_NAME).toEqual({ Ref: engineId });
    expect(env.ENTITY_TABLE).toBeDefined();
  });

  it('may invoke the engine function', () => {
    const [apiId] = functionNamed(template, 'ApiApiFunction');
    const [engineId] = functionNamed(template, 'DetectionsEngineFunction');
    const invoke = statementsOf(template, apiId).filter((s) => [s.Action].flat().includes('lambda:InvokeFunction'));
    expect(JSON.stringify(invoke.map((s) => s.Resource))).toContain(engineId);
  });
});
