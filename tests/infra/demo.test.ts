// The Demo construct alone: the demo function knows where to write and post demo events and which engine
// checks the demo detections, and may use them.
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { Demo } from '../../infra/demo/demo';
import { allows, bareStack, functionNamed, logicalId, nagErrors, statementsOf, variables } from './support';

describe('the Demo construct on a bare stack', () => {
  it('writes into the ingest bucket, posts to HTTP ingest and invokes the engine, with no unsuppressed cdk-nag finding', () => {
    const { stack, fakes } = bareStack('DemoTest', { nag: true });
    const engineFunction = fakes.function('Engine');
    new Demo(stack, 'Demo', {
      entityTable: fakes.table(),
      ingestBucket: fakes.bucket('Ingest'),
      httpIngestUrl: 'https://ingest.example.com/',
      engineFunction,
    });
    const template = Template.fromStack(stack);
    const [id, fn] = functionNamed(template, 'DemoDemoFunction');
    expect(variables(fn)).toMatchObject({
      HTTP_INGEST_URL: 'https://ingest.example.com/',
      ENGINE_FUNCTION_NAME: { Ref: logicalId(engineFunction) },
      ENTITY_TABLE: expect.anything(),
      INGEST_BUCKET: expect.anything(),
    });
    expect(allows(template, id, 's3:PutObject')).toBe(true);
    const invoke = statementsOf(template, id).filter((s) => [s.Action].flat().includes('lambda:InvokeFunction'));
    expect(JSON.stringify(invoke)).toContain(logicalId(engineFunction));
    expect(nagErrors(stack)).toEqual([]);
  });
});
