// `npm start` as a user runs it: prints where it runs and how to sign in, keeps state across restarts,
// starts from scratch with --reset, and stops cleanly on Ctrl-C.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../setup/global';

const stateDir = mkdtempSync(join(tmpdir(), 'caracal-start-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
  rmSync(stateDir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  output: () => string;
  url: string;
}

async function start(...args: string[]): Promise<Started> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'local', 'start.ts'), '--port', '0', '--state-dir', stateDir, ...args],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      // its own process group, so a test can send Ctrl-C as a terminal does: to the whole group
      detached: true,
    },
  );
  children.push(child);
  let text = '';
  child.stdout!.on('data', (d) => (text += d));
  child.stderr!.on('data', (d) => (text += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not become ready:\n${text}`)), 110_000);
    child.stdout!.on('data', () => {
      const m = /Caracal is running at (http:\/\/localhost:\d+)/.exec(text);
      if (m && text.includes('Press Ctrl-C to stop.')) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${text}`)));
  });
  return { child, output: () => text, url };
}

/** Ctrl-C in the terminal: SIGINT to the whole process group (the runtime and its function workers). */
async function interrupt(started: Started, times = 1): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => started.child.on('exit', (code) => resolve(code)));
  for (let i = 0; i < times; i++) {
    process.kill(-started.child.pid!, 'SIGINT');
    if (i + 1 < times) await new Promise((r) => setTimeout(r, 100));
  }
  return exited;
}

describe('npm start', () => {
  it('prints the URL and a temporary password on first start, and stops cleanly on Ctrl-C', async () => {
    const first = await start();
    expect(first.output()).toMatch(/Sign in as admin@caracal\.local with the temporary password \S{12,}/);
    const config = (await (await fetch(`${first.url}/config.json`)).json()) as { graphqlUrl: string };
    expect(config.graphqlUrl).toBe(`${first.url}/graphql`);
    expect(await interrupt(first)).toBe(0);
    expect(first.output()).toContain('Stopping...');
  });

  it('keeps the administrator across restarts, and --reset starts from scratch', async () => {
    const again = await start();
    expect(again.output()).toContain('Sign in with your account');
    expect(again.output()).not.toContain('temporary password');
    expect(await interrupt(again)).toBe(0);
    const reset = await start('--reset');
    expect(reset.output()).toContain('Reset: removed');
    expect(reset.output()).toMatch(/Sign in as admin@caracal\.local with the temporary password/);
    expect(await interrupt(reset)).toBe(0);
  });

  it('stops at once on a second Ctrl-C', async () => {
    const started = await start();
    expect(await interrupt(started, 2)).toBe(130);
    expect(started.output()).toContain('Stopping...');
    expect(started.output()).toContain('Stopped at once.');
  });

  it('refuses an unknown option with the list of options', async () => {
    await expect(start('--frobnicate')).rejects.toThrow(
      /unknown option --frobnicate \(options: --port N, --reset, --state-dir DIR\)/,
    );
  });
});
