import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_RUNTIME } from '../../infra/runtimes';
import { LocalFunction, type FunctionSpec } from '../../local/lambda/functions';
import {
  localInterpreters,
  NODE_PACKAGE,
  nodeForFunctions,
  nodeStartLine,
  runtimeMismatches,
} from '../../local/lambda/interpreters';

const scratch = mkdtempSync(join(tmpdir(), 'caracal-node-runtime-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the Node.js that runs Node functions locally', () => {
  it("is the npm package's binary, of the major the template declares", () => {
    const choice = nodeForFunctions(NODE_RUNTIME.version);
    expect(choice.fromPackage).toBe(NODE_PACKAGE);
    expect(choice.path).toMatch(new RegExp(`node_modules/${NODE_PACKAGE}/bin/node$`));
    expect(choice.version.split('.')[0]).toBe(NODE_RUNTIME.version);
    const ran = spawnSync(choice.path, ['-p', 'process.versions.node'], { encoding: 'utf8' });
    expect(ran.stdout.trim()).toBe(choice.version);
    expect(nodeStartLine(choice)).toBe(`Node.js functions run on Node.js ${choice.version} (npm package ${NODE_PACKAGE})`);
    expect(localInterpreters(NODE_RUNTIME.version).node).toBe(NODE_RUNTIME.version);
    expect(runtimeMismatches([NODE_RUNTIME.runtime.name], { python: '3.13', node: NODE_RUNTIME.version })).toEqual([]);
  });

  it("falls back to this machine's Node.js, saying why, when the package is missing", () => {
    const choice = nodeForFunctions(NODE_RUNTIME.version, () => undefined);
    expect(choice).toEqual({
      path: process.execPath,
      version: process.versions.node,
      fallbackReason: `${NODE_PACKAGE} is not installed (npm ci installs it)`,
    });
    expect(nodeStartLine(choice)).toBe(
      `Node.js functions run on this machine's Node.js ${process.versions.node}: ${NODE_PACKAGE} is not installed (npm ci installs it)`,
    );
  });

  it("falls back to this machine's Node.js when the package carries another major than the declared one", () => {
    const manifest = join(scratch, 'package.json');
    writeFileSync(manifest, JSON.stringify({ name: NODE_PACKAGE, version: '22.3.0' }));
    const choice = nodeForFunctions('24', (name) => (name === NODE_PACKAGE ? manifest : undefined));
    expect(choice.path).toBe(process.execPath);
    expect(choice.fromPackage).toBeUndefined();
    expect(choice.fallbackReason).toBe(`${NODE_PACKAGE} is Node.js 22.3.0, not 24`);
    const machineMajor = process.versions.node.split('.')[0];
    expect(runtimeMismatches(['nodejs24.x'], { node: machineMajor })).toEqual(
      machineMajor === '24'
        ? []
        : [`Runtime differs: the template declares nodejs24.x (1 function), this machine runs them on Node.js ${machineMajor}`],
    );
  });
});

describe('a Node function invoked by the local runtime', () => {
  const codeDir = join(scratch, 'bundle');
  const spec = (overrides: Partial<FunctionSpec> = {}): FunctionSpec => ({
    logicalId: 'Probe',
    name: 'probe',
    arn: 'arn:aws:lambda:us-east-1:000000000000:function:probe',
    runtime: NODE_RUNTIME.runtime.name,
    handler: 'index.handler',
    codeDir,
    environment: { PROBE: 'from the template', TZ: 'UTC' },
    timeoutMs: 5000,
    memorySize: 128,
    ...overrides,
  });
  beforeAll(() => {
    mkdirSync(codeDir, { recursive: true });
    writeFileSync(
      join(codeDir, 'index.js'),
      `exports.handler = async (event, context) => {
         console.log('probe invoked with', event.n);
         if (event.fail) throw new TypeError('asked to fail');
         if (event.hang) await new Promise(() => setInterval(() => {}, 1000));
         return { version: process.version, probe: process.env.PROBE, n: event.n, fn: context.functionName,
                  remaining: context.getRemainingTimeInMillis() };
       };`,
    );
  });

  it('reports process.version of the declared major, with its environment, context and logs', async () => {
    const logs: string[] = [];
    const fn = new LocalFunction(spec(), (name, line) => logs.push(`${name}: ${line}`));
    try {
      const ok = await fn.invoke({ n: 7 });
      expect(ok.ok).toBe(true);
      const result = (ok as { result: Record<string, unknown> }).result;
      expect(result.version).toMatch(new RegExp(`^v${NODE_RUNTIME.version}\\.`));
      expect(result).toMatchObject({ probe: 'from the template', n: 7, fn: 'probe' });
      expect(result.remaining).toBeGreaterThan(0);

      const failed = await fn.invoke({ n: 8, fail: true });
      expect(failed).toMatchObject({ ok: false, error: { errorType: 'TypeError', errorMessage: 'asked to fail' } });
      await expect.poll(() => logs).toContain('probe: probe invoked with 8');
    } finally {
      await fn.stop();
    }
  });

  it('times out a hanging invocation and answers the next one from a fresh process', async () => {
    const fn = new LocalFunction(spec({ timeoutMs: 800 }), () => {});
    try {
      const hung = await fn.invoke({ n: 1, hang: true });
      expect(hung).toMatchObject({ ok: false, error: { errorType: 'Sandbox.Timedout' } });
      const next = await fn.invoke({ n: 2 });
      expect(next).toMatchObject({ ok: true, result: { n: 2 } });
    } finally {
      await fn.stop();
    }
  });
});
