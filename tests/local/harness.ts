// Starts the local runtime for a test: free ports, a fresh state folder, the test assembly.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { startRuntime, type Runtime, type RuntimeOptions } from '../../local/runtime';
import { localClientConfig } from '../../local/services/net';
import { ROOT, TEST_ASSEMBLY } from '../setup/global';

export interface TestRuntime extends Runtime {
  readonly logs: string[];
  readonly stateDir: string;
}

export async function startTestRuntime(
  assemblyDir = TEST_ASSEMBLY,
  stateDir?: string,
  options: Pick<RuntimeOptions, 'retryDelaySeconds' | 'scheduleTimeScale'> = {},
): Promise<TestRuntime> {
  const dir = stateDir ?? mkdtempSync(join(tmpdir(), 'caracal-test-'));
  const logs: string[] = [];
  const runtime = await startRuntime({
    port: 0,
    stateDir: dir,
    assemblyDir,
    webRoot: join(ROOT, 'web', 'dist'),
    version: JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version,
    log: (line) => logs.push(line),
    ...options,
  });
  const stopRuntime = runtime.stop;
  return Object.assign(runtime, {
    logs,
    stateDir: dir,
    stop: async () => {
      await stopRuntime();
      if (!stateDir) rmSync(dir, { recursive: true, force: true });
    },
  });
}

/** Signs in with USER_PASSWORD_AUTH, answering NEW_PASSWORD_REQUIRED when asked; returns the tokens. */
export async function signIn(runtime: Runtime, email: string, password: string, newPassword?: string) {
  const client = new CognitoIdentityProviderClient(localClientConfig(runtime.endpoints.cognito, runtime.stack.region));
  const ClientId = runtime.webConfig!.userPoolClientId;
  const first = await client.send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId,
      AuthParameters: { USERNAME: email, PASSWORD: password },
    }),
  );
  let result = first.AuthenticationResult;
  if (first.ChallengeName === 'NEW_PASSWORD_REQUIRED') {
    if (!newPassword) throw new Error('a new password is required');
    const answered = await client.send(
      new RespondToAuthChallengeCommand({
        ClientId,
        ChallengeName: 'NEW_PASSWORD_REQUIRED',
        Session: first.Session,
        ChallengeResponses: { USERNAME: email, NEW_PASSWORD: newPassword },
      }),
    );
    result = answered.AuthenticationResult;
  }
  client.destroy();
  if (!result?.IdToken || !result.AccessToken) throw new Error(`sign-in did not finish: ${first.ChallengeName}`);
  return { idToken: result.IdToken, accessToken: result.AccessToken };
}

export async function graphql(runtime: Runtime, body: unknown, token?: string) {
  const response = await fetch(`${runtime.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json()) as { data?: Record<string, unknown> | null; errors?: Array<Record<string, unknown>> },
  };
}
