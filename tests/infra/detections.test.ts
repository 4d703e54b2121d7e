// The detections capability and the demo in the synthesized template: the detections function on the
// detections queue with partial batch failures, its environment and grants; the demo function; what the api
// function needs for alert events, detection tests and the demo button; and the Detections construct alone.
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DETECTIONS_CONCURRENCY, Detections } from '../../infra/detections/detections';
import { pinsHashes, pipBundling, pipInstallArguments } from '../../infra/detections/python-modules';
import { allows, bareStack, functionNamed, logicalId, nagErrors, statementsOf, synthesizedStack, variables } from './support';

let template: Template;

beforeAll(() => ({ template } = synthesizedStack()));

describe('the detections function', () => {
  it('consumes the detections queue in batches with partial batch failures, DETECTIONS_CONCURRENCY batches at once', () => {
    const [id] = functionNamed(template, 'DetectionsDetectionsFunction');
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: id },
      EventSourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^ProcessingDetectionsQueue'), 'Arn'] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BatchSize: 10,
      ScalingConfig: { MaximumConcurrency: DETECTIONS_CONCURRENCY },
    });
    expect(DETECTIONS_CONCURRENCY).toBeGreaterThanOrEqual(2);
  });

  it('knows the entity table, the lake, the engine and the user pool, and may use them', () => {
    const [id, fn] = functionNamed(template, 'DetectionsDetectionsFunction');
    expect(Object.keys(variables(fn)).sort()).toEqual(
      expect.arrayContaining(['ENGINE_FUNCTION_NAME', 'ENTITY_TABLE', 'LAKE_BUCKET', 'USER_POOL_ID']),
    );
    expect(allows(template, id, 'lambda:InvokeFunction')).toBe(true);
    expect(allows(template, id, 's3:PutObject')).toBe(true);
    expect(allows(template, id, 'dynamodb:UpdateItem')).toBe(true);
    expect(allows(template, id, 'cognito-idp:ListUsers')).toBe(true);
    expect((fn.Properties.Timeout as number) * 1).toBeLessThanOrEqual(360);
  });
});

describe('the detection engine function', () => {
  it("reaches only the caching helpers' items of the key-value table, and nothing else", () => {
    const [id] = functionNamed(template, 'DetectionsEngineFunction');
    expect(statementsOf(template, id)).toEqual([
      {
        Effect: 'Allow',
        Action: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
        Resource: { 'Fn::GetAtt': [expect.stringMatching(/^DataKeyValueTable/), 'Arn'] },
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['CACHE#*'] } },
      },
    ]);
  });
});

describe("the engine's Python modules layer", () => {
  const engineDir = join(import.meta.dirname, '..', '..', 'functions', 'detection-engine');

  it('is attached to the engine function, for its runtime and architecture', () => {
    const [, engineFn] = functionNamed(template, 'DetectionsEngineFunction');
    const layers = template.findResources('AWS::Lambda::LayerVersion');
    const [layerId, layer] = Object.entries(layers).find(([lid]) => lid.startsWith('DetectionsPythonModules'))!;
    expect(engineFn.Properties.Layers).toEqual([{ Ref: layerId }]);
    expect(layer.Properties.CompatibleRuntimes).toEqual([engineFn.Properties.Runtime]);
    expect(layer.Properties.CompatibleArchitectures).toEqual(engineFn.Properties.Architectures);
  });

  it('installs binary wheels for the Lambda platform into python/, checking hashes when the file pins them', () => {
    const args = pipInstallArguments('/r.txt', '/out/python', {
      pythonVersion: '3.13',
      architecture: lambda.Architecture.ARM_64,
      requireHashes: false,
    });
    expect(args.join(' ')).toContain('-m pip install --requirement /r.txt --target /out/python --platform manylinux2014_aarch64');
    expect(args).toContain('--only-binary=:all:');
    expect(args).not.toContain('--require-hashes');
    const hashed = pipInstallArguments('/r.txt', '/o', {
      pythonVersion: '3.13',
      architecture: lambda.Architecture.X86_64,
      requireHashes: true,
    });
    expect(hashed).toContain('--require-hashes');
    expect(hashed).toContain('manylinux2014_x86_64');
    expect(pinsHashes(`pycountry==24.6.1 --hash=sha256:${'0'.repeat(64)}`)).toBe(true);
    expect(pinsHashes('pycountry==24.6.1')).toBe(false);
    // The engine's own file pins hashes, so the layer is built with --require-hashes.
    expect(pinsHashes(readFileSync(join(engineDir, 'requirements.txt'), 'utf8'))).toBe(true);
  });

  it('stops the synth with a clear message when the machine has no pip (never falls back to Docker)', () => {
    const out = mkdtempSync(join(tmpdir(), 'layer-'));
    try {
      const bundling = pipBundling(join(engineDir, 'requirements.txt'), {
        python: join(out, 'no-such-python3'),
        pythonVersion: '3.13',
        architecture: lambda.Architecture.ARM_64,
      });
      expect(() => bundling.tryBundle(out, {} as never)).toThrow(/needs pip on this machine.*apt-get install python3-pip/s);
      expect(readdirSync(out)).toEqual([]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('the demo function', () => {
  it('writes into the ingest bucket and posts to HTTP ingest', () => {
    const [id, fn] = functionNamed(template, 'DemoDemoFunction');
    expect(Object.keys(variables(fn))).toEqual(expect.arrayContaining(['ENTITY_TABLE', 'INGEST_BUCKET', 'HTTP_INGEST_URL']));
    expect(allows(template, id, 's3:PutObject')).toBe(true);
  });
});

describe('the api function', () => {
  it('reads alert events from the lake, runs detection tests in the engine and starts the demo', () => {
    const [id, fn] = functionNamed(template, 'ApiApiFunction');
    expect(Object.keys(variables(fn))).toEqual(
      expect.arrayContaining(['LAKE_BUCKET', 'ENGINE_FUNCTION_NAME', 'DEMO_FUNCTION_NAME']),
    );
    expect(allows(template, id, 'lambda:InvokeFunction')).toBe(true);
    expect(allows(template, id, 's3:GetObject*') || allows(template, id, 's3:GetObject')).toBe(true);
  });
});

describe('the Detections construct on a bare stack', () => {
  it('leaves the modules layer out for the local runtime, whose python3 provides the modules (no pip at synth)', () => {
    const { stack, fakes } = bareStack('DetectionsLocalTest');
    new Detections(stack, 'Detections', {
      engineCodePath: join(import.meta.dirname, '..', '..', 'functions', 'detection-engine'),
      keyValueTable: fakes.table('KeyValue'),
      detectionsQueue: fakes.queue('Detections'),
      lakeBucket: fakes.bucket('Lake'),
      entityTable: fakes.table('Entities'),
      userPool: fakes.userPool(),
      pythonModulesLayer: false,
    });
    const bare = Template.fromStack(stack);
    bare.resourceCountIs('AWS::Lambda::LayerVersion', 0);
    const [, engineFn] = functionNamed(bare, 'DetectionsEngineFunction');
    expect(engineFn.Properties.Layers).toBeUndefined();
  });

  it('feeds the queue it is given to the detections function and the engine, with no unsuppressed cdk-nag finding', () => {
    const { stack, fakes } = bareStack('DetectionsTest', { nag: true });
    const keyValueTable = fakes.table('KeyValue');
    const detectionsQueue = fakes.queue('Detections');
    new Detections(stack, 'Detections', {
      engineCodePath: join(import.meta.dirname, '..', '..', 'functions', 'detection-engine'),
      keyValueTable,
      detectionsQueue,
      lakeBucket: fakes.bucket('Lake'),
      entityTable: fakes.table('Entities'),
      userPool: fakes.userPool(),
      pythonModulesLayer: true,
    });
    const bare = Template.fromStack(stack);
    const [id, fn] = functionNamed(bare, 'DetectionsDetectionsFunction');
    const [engine, engineFn] = functionNamed(bare, 'DetectionsEngineFunction');
    bare.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: id },
      EventSourceArn: { 'Fn::GetAtt': [logicalId(detectionsQueue), 'Arn'] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(variables(fn).ENGINE_FUNCTION_NAME).toEqual({ Ref: engine });
    expect(variables(engineFn).CARACAL_KV_TABLE).toEqual({ Ref: logicalId(keyValueTable) });
    expect(engineFn.Properties.Runtime).toMatch(/^python3\./);
    expect(statementsOf(bare, engine)).toEqual([
      expect.objectContaining({ Resource: { 'Fn::GetAtt': [logicalId(keyValueTable), 'Arn'] } }),
    ]);
    expect(allows(bare, id, 'lambda:InvokeFunction')).toBe(true);
    expect(nagErrors(stack)).toEqual([]);
  });
});
