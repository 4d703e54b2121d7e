// Function workers of the local runtime under faults: a worker that died is replaced (the next call does not
// wait out the timeout on a dead process), Ctrl-C in the terminal (SIGINT to the process group) does not kill
// work in flight, and the function's declared memory is its worker's limit.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_RUNTIME } from '../../infra/runtimes';
import { LocalFunction, type FunctionSpec, type InvokeResult } from '../../local/lambda/functions';

const scratch = mkdtempSync(join(tmpdir(), 'caracal-workers-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const PYTHON = `
import os, signal, time

_hog = []

def handler(event, context):
    if event.get("crash"):
        os.kill(os.getpid(), signal.SIGKILL)
    if event.get("exit"):
        os._exit(3)
    if event.get("sleep"):
        time.sleep(event["sleep"])
    if event.get("allocate_mb"):
        _hog.append(bytearray(event["allocate_mb"] * 1024 * 1024))
    return {"pid": os.getpid(), "n": event.get("n")}
`;

const NODE = `
const hog = [];
exports.handler = async (event) => {
  if (event.crash) process.kill(process.pid, 'SIGKILL');
  if (event.sleep) await new Promise((r) => setTimeout(r, event.sleep * 1000));
  if (event.allocate_mb) for (let i = 0; i < event.allocate_mb; i++) hog.push(new Array(128 * 1024).fill(i));
  return { pid: process.pid, n: event.n };
};
`;

function spec(language: 'python' | 'node', overrides: Partial<FunctionSpec> = {}): FunctionSpec {
  return {
    logicalId: 'Probe',
    name: `probe-${language}`,
    arn: `arn:aws:lambda:us-east-1:000000000000:function:probe-${language}`,
    runtime: language === 'python' ? 'python3.13' : NODE_RUNTIME.runtime.name,
    handler: language === 'python' ? 'probe.handler' : 'index.handler',
    codeDir: join(scratch, language),
    environment: { TZ: 'UTC' },
    timeoutMs: 30_000,
    memorySize: 256,
    ...overrides,
  };
}

beforeAll(() => {
  mkdirSync(join(scratch, 'python'), { recursive: true });
  writeFileSync(join(scratch, 'python', 'probe.py'), PYTHON);
  mkdirSync(join(scratch, 'node'), { recursive: true });
  writeFileSync(join(scratch, 'node', 'index.js'), NODE);
});

const pidOf = (r: InvokeResult) => (r.ok ? (r.result as { pid: number }).pid : undefined);

describe.each(['python', 'node'] as const)('a %s worker', (language) => {
  it('that crashed is replaced: the crashing call fails at once, the next call is answered by a new process', async () => {
    const fn = new LocalFunction(spec(language), () => {});
    try {
      const first = await fn.invoke({ n: 1 });
      expect(first.ok).toBe(true);
      const started = Date.now();
      const crashed = await fn.invoke({ crash: true });
      expect(crashed).toMatchObject({ ok: false, error: { errorType: 'Runtime.ExitError' } });
      const next = await fn.invoke({ n: 2 });
      expect(next).toMatchObject({ ok: true, result: { n: 2 } });
      expect(pidOf(next)).not.toBe(pidOf(first));
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      await fn.stop();
    }
  }, 60_000);

  it('that died while idle is not handed the next call', async () => {
    const fn = new LocalFunction(spec(language), () => {});
    try {
      const first = await fn.invoke({ n: 1 });
      process.kill(pidOf(first)!, 'SIGKILL');
      await new Promise((r) => setTimeout(r, 300));
      const next = await fn.invoke({ n: 2 });
      expect(next).toMatchObject({ ok: true, result: { n: 2 } });
    } finally {
      await fn.stop();
    }
  }, 60_000);

  it('keeps working through a SIGINT to the process group (Ctrl-C in the terminal), so the runtime can drain it', async () => {
    const fn = new LocalFunction(spec(language), () => {});
    try {
      const first = await fn.invoke({ n: 1 });
      const inFlight = fn.invoke({ n: 2, sleep: 1 });
      await new Promise((r) => setTimeout(r, 300));
      process.kill(pidOf(first)!, 'SIGINT');
      expect(await inFlight).toMatchObject({ ok: true, result: { n: 2, pid: pidOf(first) } });
    } finally {
      await fn.stop();
    }
  }, 60_000);

  it('has its declared memory as a limit: a call allocating beyond it fails clearly, and the next call works', async () => {
    const logs: string[] = [];
    const fn = new LocalFunction(spec(language, { memorySize: 256 }), (_, line) => logs.push(line));
    try {
      expect(await fn.invoke({ n: 1, allocate_mb: 20 })).toMatchObject({ ok: true });
      const over = await fn.invoke({ n: 2, allocate_mb: 600 });
      expect(over).toMatchObject({
        ok: false,
        error: { errorType: 'Runtime.OutOfMemory', errorMessage: expect.stringContaining('256 MB') },
      });
      const next = await fn.invoke({ n: 3, allocate_mb: 20 });
      expect(next).toMatchObject({ ok: true, result: { n: 3 } });
    } finally {
      await fn.stop();
    }
  }, 90_000);
});

describe('idle workers', () => {
  it('are ended after the idle time, and the next call starts a new one', async () => {
    const fn = new LocalFunction(spec('python'), () => {}, 500);
    try {
      const first = await fn.invoke({ n: 1 });
      expect(fn.workers).toBe(1);
      await expect.poll(() => fn.workers, { timeout: 5_000 }).toBe(0);
      expect(() => process.kill(pidOf(first)!, 0)).toThrow();
      const next = await fn.invoke({ n: 2 });
      expect(next).toMatchObject({ ok: true, result: { n: 2 } });
      expect(pidOf(next)).not.toBe(pidOf(first));
    } finally {
      await fn.stop();
    }
  }, 30_000);

  it('are kept while calls keep coming within the idle time', async () => {
    const fn = new LocalFunction(spec('python'), () => {}, 1_500);
    try {
      const pids = new Set<number | undefined>();
      for (let i = 0; i < 4; i++) {
        pids.add(pidOf(await fn.invoke({ n: i })));
        await new Promise((r) => setTimeout(r, 500));
      }
      expect(pids.size).toBe(1);
    } finally {
      await fn.stop();
    }
  }, 30_000);
});
