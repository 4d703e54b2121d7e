// The `caracal` launcher (bin/caracal.mjs) runs the CLI compiled by bin/build.mjs: no TypeScript is
// transpiled per call, sources are found where they were (the engine's worker.py), a changed source means a
// new build, and `npx caracal` finds the command in node_modules/.bin.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'caracal-cli');
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const caracal = (...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, 'bin', 'caracal.mjs'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });

interface Manifest {
  dir: string;
  entry: string;
  inputs: [string, number][];
}
const manifest = () => JSON.parse(readFileSync(join(CACHE, 'current.json'), 'utf8')) as Manifest;

describe('the caracal launcher', () => {
  it('builds the CLI as plain JavaScript and links node_modules/.bin/caracal', () => {
    const built = spawnSync(process.execPath, [join(ROOT, 'bin', 'build.mjs')], { cwd: ROOT, encoding: 'utf8' });
    expect(built.stderr).toBe('');
    expect(built.stdout).toMatch(/compiled the command-line tool \(\d+ sources\)/);
    expect(readlinkSync(join(ROOT, 'node_modules', '.bin', 'caracal'))).toBe('../../bin/caracal.mjs');
    const m = manifest();
    const files = readdirSync(join(CACHE, m.dir));
    expect(files).toContain('caracal.mjs');
    expect(files.filter((f) => f.endsWith('.ts'))).toEqual([]);
    // Every source it was built from is recorded with its time, bin/caracal.ts and the commands among them.
    const inputs = m.inputs.map(([path]) => path);
    expect(inputs).toEqual(
      expect.arrayContaining(['bin/caracal.ts', 'bin/commands/test.ts', 'functions/detection-engine/worker-client.ts']),
    );
    for (const [path, mtime] of m.inputs) expect(statSync(join(ROOT, path)).mtimeMs).toBe(mtime);
    expect(inputs.some((p) => p.includes('node_modules'))).toBe(false);
  });

  it('answers --version', () => {
    const r = caracal('--version');
    expect(r.stdout).toBe(`caracal ${version}\n`);
    expect(r.status).toBe(0);
    const m = manifest();
    expect(existsSync(join(CACHE, m.dir, m.entry))).toBe(true);
  });

  it('runs commands whose code finds files beside its sources (the engine worker, the demo detections)', () => {
    const r = caracal('test', join(ROOT, 'demo', 'detections'));
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/\b\d+ passed, 0 failed\n$/);
    expect(r.status).toBe(0);
  });

  it('ends at once when `caracal test` ends before it needs the worker it started early', () => {
    // bin/caracal.ts starts the Python worker before loading the command; a command that stops first closes it.
    for (const args of [
      ['test', join(ROOT, 'no-such-folder')],
      ['test', '--bogus'],
    ]) {
      const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'caracal.mjs'), ...args], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(r.error).toBeUndefined();
      expect(r.status).toBe(2);
    }
    expect(caracal('test', '--help').stdout).toContain('usage: caracal test');
  });

  it('refuses an unknown command with the usage', () => {
    const r = caracal('frobnicate');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("caracal: unknown command 'frobnicate'");
    expect(r.stderr).toContain('--version');
  });
});
