// The Cognito stand-in answers every account flow of the web app as Cognito does: invitations with a
// temporary password in the local mailbox, challenge sessions, TOTP with RFC 6238 codes, forgotten
// passwords, password changes, global sign-out and disabled users.
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminGetUserCommand,
  AdminUpdateUserAttributesCommand,
  AdminUserGlobalSignOutCommand,
  AssociateSoftwareTokenCommand,
  ChangePasswordCommand,
  CognitoIdentityProviderClient,
  ConfirmForgotPasswordCommand,
  ForgotPasswordCommand,
  GetTokensFromRefreshTokenCommand,
  GetUserCommand,
  GlobalSignOutCommand,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
  RevokeTokenCommand,
  SetUserMFAPreferenceCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { SignJWT, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totp } from '../support/totp';
import type { MailMessage } from '../../local/services/cognito';
import { localClientConfig } from '../../local/services/net';
import { startTestRuntime, type TestRuntime } from './harness';

const PASSWORD = 'Tawny-Lynx-2026!';
let runtime: TestRuntime;
let client: CognitoIdentityProviderClient;
let UserPoolId: string;
let ClientId: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  client = new CognitoIdentityProviderClient(localClientConfig(runtime.endpoints.cognito, 'us-east-1'));
  UserPoolId = runtime.webConfig!.userPoolId;
  ClientId = runtime.webConfig!.userPoolClientId;
});
afterAll(async () => {
  client?.destroy();
  await runtime?.stop();
});

const latestMail = (to: string): MailMessage | undefined => runtime.mailbox.filter((m) => m.to === to).at(-1);

function passwordAuth(email: string, password: string) {
  return client.send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId,
      AuthParameters: { USERNAME: email, PASSWORD: password },
    }),
  );
}

/** Invites a user (the temporary password goes to the mailbox) and completes the first sign-in. */
async function invitedAndSignedIn(email: string) {
  await client.send(
    new AdminCreateUserCommand({
      UserPoolId,
      Username: email,
      DesiredDeliveryMediums: ['EMAIL'],
      UserAttributes: [{ Name: 'email', Value: email }],
    }),
  );
  const temporary = latestMail(email)!.code!;
  const first = await passwordAuth(email, temporary);
  const answered = await client.send(
    new RespondToAuthChallengeCommand({
      ClientId,
      ChallengeName: 'NEW_PASSWORD_REQUIRED',
      Session: first.Session,
      ChallengeResponses: { USERNAME: email, NEW_PASSWORD: PASSWORD },
    }),
  );
  return answered.AuthenticationResult!;
}

describe('invitations', () => {
  it('mails a temporary password that follows the policy, shown in the mailbox page and JSON', async () => {
    await client.send(
      new AdminCreateUserCommand({
        UserPoolId,
        Username: 'invitee@caracal.local',
        DesiredDeliveryMediums: ['EMAIL'],
        UserAttributes: [{ Name: 'email', Value: 'invitee@caracal.local' }],
      }),
    );
    const mail = latestMail('invitee@caracal.local')!;
    expect(mail.subject).toBe('Your Caracal account');
    expect(mail.body).toContain(`Sign in with invitee@caracal.local and the temporary password ${mail.code}`);
    expect(mail.code!.length).toBeGreaterThanOrEqual(12);
    expect(mail.code).toMatch(/[A-Z]/);
    expect(mail.code).toMatch(/\d/);
    expect(
      runtime.logs.some((line) => line.includes(`[mailbox] to invitee@caracal.local: Your Caracal account (code ${mail.code})`)),
    ).toBe(true);

    const json = (await (await fetch(`${runtime.url}/local/mailbox.json`)).json()) as MailMessage[];
    expect(json.at(-1)).toMatchObject({ to: 'invitee@caracal.local', code: mail.code });
    const page = await fetch(`${runtime.url}/local/mailbox`);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('Local mailbox');
    expect(html).toContain(
      mail.code!.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]};`),
    );
  });

  it('refuses a temporary password that breaks the policy', async () => {
    await expect(
      client.send(new AdminCreateUserCommand({ UserPoolId, Username: 'weak@caracal.local', TemporaryPassword: 'short' })),
    ).rejects.toMatchObject({
      name: 'InvalidPasswordException',
      message: 'Password does not conform to policy: Password not long enough',
    });
  });
});

describe('challenge sessions', () => {
  it('answers a challenge only with the session its sign-in returned, for that user', async () => {
    await client.send(
      new AdminCreateUserCommand({
        UserPoolId,
        Username: 'victim@caracal.local',
        MessageAction: 'SUPPRESS',
        TemporaryPassword: 'Temp-Pass-12345',
      }),
    );
    const respond = (Session: string | undefined, USERNAME: string, NEW_PASSWORD = PASSWORD) =>
      client.send(
        new RespondToAuthChallengeCommand({
          ClientId,
          ChallengeName: 'NEW_PASSWORD_REQUIRED',
          Session,
          ChallengeResponses: { USERNAME, NEW_PASSWORD },
        }),
      );
    await expect(respond('made-up-session-that-is-long-enough', 'victim@caracal.local')).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Invalid session for the user, session is expired.',
    });
    const first = await passwordAuth('victim@caracal.local', 'Temp-Pass-12345');
    expect(first.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
    await expect(respond(first.Session, 'invitee@caracal.local')).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    await expect(respond(first.Session, 'victim@caracal.local', 'weakpassword')).rejects.toMatchObject({
      name: 'InvalidPasswordException',
      message: 'Password does not conform to policy: Password must have uppercase characters',
    });
    const done = await respond(first.Session, 'victim@caracal.local');
    expect(done.AuthenticationResult?.RefreshToken).toBeTruthy();
    await expect(respond(first.Session, 'victim@caracal.local')).rejects.toMatchObject({ name: 'NotAuthorizedException' });

    const refreshed = await client.send(
      new InitiateAuthCommand({
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        ClientId,
        AuthParameters: { REFRESH_TOKEN: done.AuthenticationResult!.RefreshToken! },
      }),
    );
    expect(refreshed.AuthenticationResult?.IdToken).toBeTruthy();

    // Amplify refreshes with GetTokensFromRefreshToken, which cognito-local lacks.
    const viaAmplifysCall = await client.send(
      new GetTokensFromRefreshTokenCommand({ ClientId, RefreshToken: done.AuthenticationResult!.RefreshToken! }),
    );
    expect(viaAmplifysCall.AuthenticationResult?.AccessToken).toBeTruthy();
    expect(viaAmplifysCall.AuthenticationResult?.IdToken).toBeTruthy();
    await expect(
      client.send(new GetTokensFromRefreshTokenCommand({ ClientId, RefreshToken: 'not-a-token' })),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'Invalid Refresh Token' });
  });
});

describe('TOTP', () => {
  it('sets up an authenticator with RFC 6238 codes, then asks for a code at every sign-in', async () => {
    const tokens = await invitedAndSignedIn('totp@caracal.local');
    const { SecretCode } = await client.send(new AssociateSoftwareTokenCommand({ AccessToken: tokens.AccessToken }));
    expect(SecretCode).toMatch(/^[A-Z2-7]{16,}$/);
    await expect(
      client.send(new VerifySoftwareTokenCommand({ AccessToken: tokens.AccessToken, UserCode: '000000' })),
    ).rejects.toMatchObject({ name: 'CodeMismatchException' });
    const verified = await client.send(
      new VerifySoftwareTokenCommand({ AccessToken: tokens.AccessToken, UserCode: await totp(SecretCode!, Date.now()) }),
    );
    expect(verified.Status).toBe('SUCCESS');
    await client.send(
      new SetUserMFAPreferenceCommand({
        AccessToken: tokens.AccessToken,
        SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
      }),
    );
    const me = await client.send(new GetUserCommand({ AccessToken: tokens.AccessToken }));
    expect(me.PreferredMfaSetting).toBe('SOFTWARE_TOKEN_MFA');
    expect(me.UserMFASettingList).toEqual(['SOFTWARE_TOKEN_MFA']);

    const challenge = await passwordAuth('totp@caracal.local', PASSWORD);
    expect(challenge.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
    expect(challenge.AuthenticationResult).toBeUndefined();
    const answer = (code: string) =>
      client.send(
        new RespondToAuthChallengeCommand({
          ClientId,
          ChallengeName: 'SOFTWARE_TOKEN_MFA',
          Session: challenge.Session,
          ChallengeResponses: { USERNAME: 'totp@caracal.local', SOFTWARE_TOKEN_MFA_CODE: code },
        }),
      );
    const wrong = String((Number(await totp(SecretCode!, Date.now())) + 500_000) % 1_000_000).padStart(6, '0');
    await expect(answer(wrong)).rejects.toMatchObject({ name: 'CodeMismatchException' });
    const signedIn = await answer(await totp(SecretCode!, Date.now()));
    expect(signedIn.AuthenticationResult?.AccessToken).toBeTruthy();

    // Starting over with a new authenticator drops the old one at once; until the new one is verified the
    // user signs in with the password alone (as on Cognito), never locked out.
    const access = signedIn.AuthenticationResult!.AccessToken!;
    const replacement = await client.send(new AssociateSoftwareTokenCommand({ AccessToken: access }));
    expect(replacement.SecretCode).not.toBe(SecretCode);
    expect((await client.send(new GetUserCommand({ AccessToken: access }))).UserMFASettingList ?? []).toEqual([]);
    await expect(passwordAuth('totp@caracal.local', PASSWORD)).resolves.toHaveProperty('AuthenticationResult');
    await client.send(
      new VerifySoftwareTokenCommand({ AccessToken: access, UserCode: await totp(replacement.SecretCode!, Date.now()) }),
    );
    expect((await passwordAuth('totp@caracal.local', PASSWORD)).ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
  });

  it('refuses a forged access token where cognito-local only decoded it', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const tokens = await passwordAuth('victim@caracal.local', PASSWORD);
    const claims = JSON.parse(Buffer.from(tokens.AuthenticationResult!.AccessToken!.split('.')[1], 'base64url').toString());
    const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'CognitoLocal' }).sign(privateKey);
    for (const send of [
      () => client.send(new AssociateSoftwareTokenCommand({ AccessToken: forged })),
      () => client.send(new GetUserCommand({ AccessToken: forged })),
      () =>
        client.send(
          new ChangePasswordCommand({ AccessToken: forged, PreviousPassword: PASSWORD, ProposedPassword: 'Other-Pass-2026!' }),
        ),
    ]) {
      await expect(send()).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'Invalid Access Token' });
    }
  });
});

describe('forgotten passwords', () => {
  it('mails a code, and resets the password only with that code and a password that follows the policy', async () => {
    const sent = await client.send(new ForgotPasswordCommand({ ClientId, Username: 'victim@caracal.local' }));
    expect(sent.CodeDeliveryDetails).toEqual({ AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: 'v***@c***.local' });
    const mail = latestMail('victim@caracal.local')!;
    expect(mail.subject).toBe('Reset your Caracal password');
    expect(mail.code).toMatch(/^\d{6}$/);
    expect(mail.body).toContain(mail.code);

    const confirm = (ConfirmationCode: string | undefined, Password: string) =>
      client.send(new ConfirmForgotPasswordCommand({ ClientId, Username: 'victim@caracal.local', ConfirmationCode, Password }));
    const wrong = mail.code === '123456' ? '654321' : '123456';
    await expect(confirm(wrong, 'Reset-Pass-2026!')).rejects.toMatchObject({ name: 'CodeMismatchException' });
    await expect(confirm(mail.code!, 'nouppercase-2026!')).rejects.toMatchObject({ name: 'InvalidPasswordException' });
    await confirm(mail.code!, 'Reset-Pass-2026!');
    await expect(confirm(undefined as unknown as string, 'Again-Pass-2026!')).rejects.toThrow();
    await expect(passwordAuth('victim@caracal.local', 'Reset-Pass-2026!')).resolves.toHaveProperty('AuthenticationResult');
    await expect(passwordAuth('victim@caracal.local', PASSWORD)).rejects.toMatchObject({ name: 'NotAuthorizedException' });
  });

  it('does not reveal whether an email has an account', async () => {
    const sent = await client.send(new ForgotPasswordCommand({ ClientId, Username: 'nobody@example.com' }));
    expect(sent.CodeDeliveryDetails?.Destination).toBe('n***@e***.com');
    expect(latestMail('nobody@example.com')).toBeUndefined();
  });

  it('refuses a reset for a user who never chose a password', async () => {
    await expect(client.send(new ForgotPasswordCommand({ ClientId, Username: 'invitee@caracal.local' }))).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'User password cannot be reset in the current state.',
    });
  });
});

describe('signing out on one device', () => {
  it('marks tokens as revocable, so Amplify revokes the refresh token at sign-out', async () => {
    const tokens = (await passwordAuth('victim@caracal.local', 'Reset-Pass-2026!')).AuthenticationResult!;
    const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
    expect(claims(tokens.AccessToken!).origin_jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(claims(tokens.IdToken!).origin_jti).toBe(claims(tokens.AccessToken!).origin_jti);
    await expect(client.send(new GetUserCommand({ AccessToken: tokens.AccessToken }))).resolves.toHaveProperty('Username');
    const { status } = await fetch(`${runtime.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: tokens.IdToken! },
      body: JSON.stringify({ query: '{ me { id } }' }),
    });
    expect(status).toBe(200);

    await client.send(new RevokeTokenCommand({ ClientId, Token: tokens.RefreshToken }));
    await expect(
      client.send(new GetTokensFromRefreshTokenCommand({ ClientId, RefreshToken: tokens.RefreshToken! })),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'Refresh Token has been revoked' });
  });
});

describe('password change and sign-out everywhere', () => {
  it('changes the password with the current one, then a global sign-out revokes every token', async () => {
    const tokens = await invitedAndSignedIn('changer@caracal.local');
    const other = (await passwordAuth('changer@caracal.local', PASSWORD)).AuthenticationResult!;
    await expect(
      client.send(
        new ChangePasswordCommand({
          AccessToken: tokens.AccessToken,
          PreviousPassword: 'Wrong-Pass-2026!',
          ProposedPassword: 'Next-Pass-2026!',
        }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'Incorrect username or password.' });
    await expect(
      client.send(
        new ChangePasswordCommand({ AccessToken: tokens.AccessToken, PreviousPassword: PASSWORD, ProposedPassword: 'weak' }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidPasswordException' });
    await client.send(
      new ChangePasswordCommand({
        AccessToken: tokens.AccessToken,
        PreviousPassword: PASSWORD,
        ProposedPassword: 'Next-Pass-2026!',
      }),
    );

    await client.send(new GlobalSignOutCommand({ AccessToken: tokens.AccessToken }));
    for (const access of [tokens.AccessToken, other.AccessToken]) {
      await expect(client.send(new GetUserCommand({ AccessToken: access }))).rejects.toMatchObject({
        name: 'NotAuthorizedException',
        message: 'Access Token has been revoked',
      });
    }
    for (const refresh of [tokens.RefreshToken, other.RefreshToken]) {
      await expect(
        client.send(
          new InitiateAuthCommand({ AuthFlow: 'REFRESH_TOKEN_AUTH', ClientId, AuthParameters: { REFRESH_TOKEN: refresh! } }),
        ),
      ).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'Refresh Token has been revoked' });
    }
    await expect(
      client.send(new GetTokensFromRefreshTokenCommand({ ClientId, RefreshToken: tokens.RefreshToken! })),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'Refresh Token has been revoked' });
    const again = (await passwordAuth('changer@caracal.local', 'Next-Pass-2026!')).AuthenticationResult!;
    await expect(client.send(new GetUserCommand({ AccessToken: again.AccessToken }))).resolves.toHaveProperty('Username');

    await client.send(new AdminUserGlobalSignOutCommand({ UserPoolId, Username: 'changer@caracal.local' }));
    await expect(client.send(new GetUserCommand({ AccessToken: again.AccessToken }))).rejects.toMatchObject({
      message: 'Access Token has been revoked',
    });
  });
});

describe('what user management calls', () => {
  it('deactivates, reactivates, updates, groups and deletes users as Cognito does', async () => {
    const tokens = await invitedAndSignedIn('managed@caracal.local');
    await client.send(new AdminDisableUserCommand({ UserPoolId, Username: 'managed@caracal.local' }));
    await expect(passwordAuth('managed@caracal.local', PASSWORD)).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'User is disabled.',
    });
    await expect(client.send(new GetUserCommand({ AccessToken: tokens.AccessToken }))).rejects.toMatchObject({
      name: 'NotAuthorizedException',
    });
    await expect(
      client.send(
        new InitiateAuthCommand({
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          ClientId,
          AuthParameters: { REFRESH_TOKEN: tokens.RefreshToken! },
        }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    expect((await client.send(new AdminGetUserCommand({ UserPoolId, Username: 'managed@caracal.local' }))).Enabled).toBe(false);

    await client.send(new AdminEnableUserCommand({ UserPoolId, Username: 'managed@caracal.local' }));
    await client.send(
      new AdminUpdateUserAttributesCommand({
        UserPoolId,
        Username: 'managed@caracal.local',
        UserAttributes: [
          { Name: 'given_name', Value: 'Ada' },
          { Name: 'family_name', Value: 'Lovelace' },
        ],
      }),
    );
    await client.send(new AdminAddUserToGroupCommand({ UserPoolId, Username: 'managed@caracal.local', GroupName: 'Admin' }));
    const back = (await passwordAuth('managed@caracal.local', PASSWORD)).AuthenticationResult!;
    const claims = JSON.parse(Buffer.from(back.IdToken!.split('.')[1], 'base64url').toString());
    expect(claims['cognito:groups']).toEqual(['Admin']);
    const attributes = (await client.send(new GetUserCommand({ AccessToken: back.AccessToken }))).UserAttributes ?? [];
    expect(Object.fromEntries(attributes.map((a) => [a.Name, a.Value]))).toMatchObject({
      given_name: 'Ada',
      family_name: 'Lovelace',
    });

    await client.send(new AdminDeleteUserCommand({ UserPoolId, Username: 'managed@caracal.local' }));
    await expect(passwordAuth('managed@caracal.local', PASSWORD)).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    await expect(client.send(new GetUserCommand({ AccessToken: back.AccessToken }))).rejects.toMatchObject({
      name: 'NotAuthorizedException',
    });
  });
});
