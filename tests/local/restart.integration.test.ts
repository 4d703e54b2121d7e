// The local platform across restarts of one state folder: a signed-in user stays signed in (the Cognito
// stand-in keeps its port, so its tokens' issuer stays the same).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { graphql, signIn, startTestRuntime, type TestRuntime } from './harness';

const stateDir = mkdtempSync(join(tmpdir(), 'caracal-restart-'));
const running: TestRuntime[] = [];
afterAll(async () => {
  for (const runtime of running) await runtime.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

async function start(): Promise<TestRuntime> {
  const runtime = await startTestRuntime(undefined, stateDir);
  running.push(runtime);
  return runtime;
}

async function stop(runtime: TestRuntime): Promise<void> {
  running.splice(running.indexOf(runtime), 1);
  await runtime.stop();
}

const ME = { query: '{ me { email } }' };

describe('restarting on the same state folder', () => {
  it('keeps a signed-in user signed in: the token of the first start works after the restart', async () => {
    const first = await start();
    const [admin] = first.createdUsers;
    const { idToken } = await signIn(first, admin.username, admin.temporaryPassword, 'Correct-Horse-42-Battery');
    expect((await graphql(first, ME, idToken)).body.data).toEqual({ me: { email: admin.username } });
    const issuerEndpoint = first.endpoints.cognito;
    await stop(first);

    const second = await start();
    expect(second.endpoints.cognito).toBe(issuerEndpoint);
    const answer = await graphql(second, ME, idToken);
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data).toEqual({ me: { email: admin.username } });
    await stop(second);
  }, 120_000);

  it('takes another port when the remembered one is held by another program, and remembers that one', async () => {
    const first = await start();
    const taken = Number(new URL(first.endpoints.cognito).port);
    await stop(first);
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(taken, '127.0.0.1', resolve));
    try {
      const second = await start();
      expect(Number(new URL(second.endpoints.cognito).port)).not.toBe(taken);
      const moved = second.endpoints.cognito;
      await stop(second);
      const third = await start();
      expect(third.endpoints.cognito).toBe(moved);
      await stop(third);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  }, 120_000);
});
