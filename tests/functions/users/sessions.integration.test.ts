// Sessions that must end on the server, not only in one browser: a password change signs the user out of
// every device (the SPA changes the password with Cognito, then asks the API to sign them out everywhere),
// and a deactivated user's next request is refused with a message that says so. Each user here holds two
// sessions (two token sets) at once.
import {
  ChangePasswordCommand,
  CognitoIdentityProviderClient,
  GetTokensFromRefreshTokenCommand,
  GetUserCommand,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localClientConfig } from '../../../local/services/net';
import { startTestRuntime, type TestRuntime } from '../../local/harness';
import { USER_PASSWORD, createRole, inviteAndSignIn, ok, refused, signInAdmin } from './support';

const ME = '{ me { id enabled } }';
const NEW_PASSWORD = 'Changed-Passw0rd-2026!';

let runtime: TestRuntime;
let client: CognitoIdentityProviderClient;
let ClientId: string;
let adminToken: string;
let roleId: string;

async function session(email: string, password: string) {
  const answer = await client.send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId,
      AuthParameters: { USERNAME: email, PASSWORD: password },
    }),
  );
  const tokens = answer.AuthenticationResult;
  if (!tokens?.IdToken || !tokens.AccessToken || !tokens.RefreshToken) throw new Error('sign-in did not finish');
  return { idToken: tokens.IdToken, accessToken: tokens.AccessToken, refreshToken: tokens.RefreshToken };
}

const refresh = (refreshToken: string) =>
  client.send(new GetTokensFromRefreshTokenCommand({ ClientId, RefreshToken: refreshToken }));

beforeAll(async () => {
  runtime = await startTestRuntime();
  client = new CognitoIdentityProviderClient(localClientConfig(runtime.endpoints.cognito, runtime.stack.region));
  ClientId = runtime.webConfig!.userPoolClientId;
  adminToken = await signInAdmin(runtime);
  roleId = (await createRole(runtime, adminToken, 'Alert Readers', ['AlertRead'])).id;
});
afterAll(() => {
  client?.destroy();
  return runtime?.stop();
});

describe('changing the password', () => {
  it("signs the user out of every device: the other session's requests and refresh are refused", async () => {
    await inviteAndSignIn(runtime, adminToken, 'changer@example.com', roleId);
    const here = await session('changer@example.com', USER_PASSWORD);
    const elsewhere = await session('changer@example.com', USER_PASSWORD);
    expect((await ok(runtime, elsewhere.idToken, ME)).me.enabled).toBe(true);

    // As the SPA does: the new password through Cognito, then the sign-out from every device through the API.
    await client.send(
      new ChangePasswordCommand({
        AccessToken: here.accessToken,
        PreviousPassword: USER_PASSWORD,
        ProposedPassword: NEW_PASSWORD,
      }),
    );
    expect(await ok(runtime, here.idToken, 'mutation { signOutEverywhere }')).toEqual({ signOutEverywhere: true });

    for (const { idToken, accessToken, refreshToken } of [elsewhere, here]) {
      expect(await refused(runtime, idToken, ME)).toEqual({
        errorType: 'UnauthorizedException',
        message: 'You have been signed out of every device. Sign in again to continue.',
      });
      await expect(refresh(refreshToken)).rejects.toMatchObject({ name: 'NotAuthorizedException' });
      await expect(client.send(new GetUserCommand({ AccessToken: accessToken }))).rejects.toMatchObject({
        name: 'NotAuthorizedException',
      });
    }

    const again = await session('changer@example.com', NEW_PASSWORD);
    expect((await ok(runtime, again.idToken, ME)).me.enabled).toBe(true);
    expect((await refresh(again.refreshToken)).AuthenticationResult?.IdToken).toBeTruthy();
  });
});

describe('deactivating a user who is signed in', () => {
  it('refuses their next request with a message saying so, and their refresh; reactivation needs a new sign-in', async () => {
    const { id } = await inviteAndSignIn(runtime, adminToken, 'leaving@example.com', roleId);
    const first = await session('leaving@example.com', USER_PASSWORD);
    const second = await session('leaving@example.com', USER_PASSWORD);

    await ok(runtime, adminToken, 'mutation D($id: ID!) { deactivateUser(id: $id) { id } }', { id });
    for (const { idToken, refreshToken } of [first, second]) {
      expect(await refused(runtime, idToken, ME)).toEqual({
        errorType: 'UnauthorizedException',
        message: 'Your account has been deactivated',
      });
      await expect(refresh(refreshToken)).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    }

    await ok(runtime, adminToken, 'mutation R($id: ID!) { reactivateUser(id: $id) { id } }', { id });
    expect((await refused(runtime, first.idToken, ME)).errorType).toBe('UnauthorizedException');
    const again = await session('leaving@example.com', USER_PASSWORD);
    expect((await ok(runtime, again.idToken, ME)).me.enabled).toBe(true);
  });
});
