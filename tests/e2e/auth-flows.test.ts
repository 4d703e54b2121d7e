// Every sign-in and session flow in the browser, against the local runtime and its Cognito stand-in, with
// playwright-core and Debian's Chromium: an invited user's first sign-in (temporary password from the local
// mailbox, new password, then authenticator setup because the organisation requires MFA); sign-in with the
// TOTP challenge; forgot and reset password with the mailed code; changing the password signs out everywhere;
// a user deactivated while signed in is signed out with a message that says so.
// Codes come from core's RFC 6238 implementation. Set AUTH_SHOTS=<dir> to keep a screenshot of each screen.
import { CognitoIdentityProviderClient, GetUserCommand, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totp } from '../support/totp';
import { localClientConfig } from '../../local/services/net';
import { graphql, signIn as sdkSignIn, startTestRuntime, type TestRuntime } from '../local/harness';
import { launchChromium } from './browser';

const SHOTS = process.env.AUTH_SHOTS;
const EMAIL = 'analyst@caracal.local';
const FIRST_PASSWORD = 'Tawny-Lynx-2026!';
const RESET_PASSWORD = 'Savanna-Reset-2026!';
const CHANGED_PASSWORD = 'Changed-Caracal-2026!';

let runtime: TestRuntime;
let browser: Browser;
let secret = '';
let adminToken = '';
let userId = '';
/** A second device, signed in before the password change. */
let otherDevice: BrowserContext;
/** A device signed in when the user is deactivated. */
let stillSignedIn: BrowserContext;

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

function latestMail(to: string, subject: string) {
  const mail = runtime.mailbox.filter((m) => m.to === to && m.subject === subject).at(-1);
  if (!mail?.code) throw new Error(`no "${subject}" mail for ${to}`);
  return mail;
}

async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  return { context, page: await context.newPage() };
}

async function enterCredentials(page: Page, email: string, password: string) {
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A code for the authenticator that is not about to roll over (so the server still accepts it). */
async function freshCode(): Promise<string> {
  const intoStep = Date.now() % 30_000;
  if (intoStep > 27_000) await new Promise((resolve) => setTimeout(resolve, 30_500 - intoStep));
  return totp(secret, Date.now());
}

async function answerTotpChallenge(page: Page) {
  await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
  await page.getByRole('textbox', { name: 'Authentication code' }).fill(await freshCode());
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
}

const inTheApp = (page: Page) => page.getByRole('button', { name: 'Profile menu' }).waitFor();

beforeAll(async () => {
  runtime = await startTestRuntime();
  browser = await launchChromium();
  const [admin] = runtime.createdUsers;
  const { idToken } = await sdkSignIn(runtime, admin.username, admin.temporaryPassword, 'Admin-Caracal-2026!');
  adminToken = idToken;
  const required = await graphql(
    runtime,
    { query: 'mutation { updateGeneralSettings(input: { mfaRequired: true }) { mfaRequired } }' },
    idToken,
  );
  expect(required.body.errors).toBeUndefined();
  const invited = await graphql(
    runtime,
    {
      query: 'mutation($input: InviteUserInput!) { inviteUser(input: $input) { id email } }',
      variables: { input: { email: EMAIL, givenName: 'Ada', familyName: 'Lovelace', role: { kind: 'Id', value: 'Admin' } } },
    },
    idToken,
  );
  expect(invited.body.errors).toBeUndefined();
  userId = (invited.body.data?.inviteUser as { id: string }).id;
});

afterAll(async () => {
  await browser?.close();
  await runtime?.stop();
});

describe('sign-in and session in the browser', () => {
  it('takes an invited user through a new password and authenticator setup, then into the app', async () => {
    const temporary = latestMail(EMAIL, 'Your Caracal account').code!;
    const { context, page } = await newPage();
    await page.goto(`${runtime.url}/sign-in/`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await shot(page, '01-sign-in');
    await enterCredentials(page, EMAIL, temporary);

    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill(FIRST_PASSWORD);
    await page.getByLabel('Confirm new password').fill(FIRST_PASSWORD);
    expect(await page.getByTestId('password-strength').innerText()).toMatch(/Good|Strong/);
    await shot(page, '02-new-password');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();

    await page.getByRole('heading', { name: 'Set up two-step verification' }).waitFor();
    const shown = page.getByTestId('totp-secret');
    await shown.waitFor();
    secret = (await shown.innerText()).replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await expect(page.getByRole('img', { name: 'QR code for your authenticator app' }).locator('svg').count()).resolves.toBe(1);
    await shot(page, '03-mfa-setup');
    await page.getByRole('textbox', { name: 'Authentication code' }).fill('000000');
    await page.getByRole('button', { name: 'Verify and continue' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').innerText()).toContain('That code is not right');
    await page.getByRole('textbox', { name: 'Authentication code' }).fill(await freshCode());
    await page.getByRole('button', { name: 'Verify and continue' }).click();

    await inTheApp(page);
    expect(new URL(page.url()).pathname).toBe('/');
    await page.goto(`${runtime.url}/sign-in/`);
    await page.waitForURL(`${runtime.url}/`);
    await inTheApp(page);
    await context.close();
  });

  it('asks for the authenticator code at the next sign-in', async () => {
    const { context, page } = await newPage();
    await page.goto(`${runtime.url}/investigate/search/?q=1`);
    await page.waitForURL(`${runtime.url}/sign-in/`);
    await enterCredentials(page, EMAIL, FIRST_PASSWORD);
    await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    await shot(page, '04-mfa-code');
    await page.getByRole('textbox', { name: 'Authentication code' }).fill('123456' === (await freshCode()) ? '654321' : '123456');
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    await page.getByRole('alert').waitFor();
    await answerTotpChallenge(page);
    await page.waitForURL(`${runtime.url}/investigate/search/?q=1`);
    await inTheApp(page);

    // Tokens that look expired (a clock an hour ahead) are refreshed with the refresh token, without a new sign-in.
    const idTokenNow = () =>
      page.evaluate(() => {
        const storage = Object.entries((globalThis as unknown as { localStorage: Record<string, string> }).localStorage);
        return storage.find(([key]) => key.endsWith('.idToken'))?.[1] ?? '';
      });
    const before = await idTokenNow();
    await page.evaluate(() => {
      const storage = (
        globalThis as unknown as { localStorage: Record<string, string> & { setItem(k: string, v: string): void } }
      ).localStorage;
      const key = Object.keys(storage).find((name) => name.endsWith('.clockDrift'));
      if (key) storage.setItem(key, String(2 * 3_600_000));
    });
    await page.reload();
    await inTheApp(page);
    expect(new URL(page.url()).pathname).toBe('/investigate/search/');
    expect(await idTokenNow()).not.toBe(before);
    otherDevice = context;
  });

  it('resets a forgotten password with the code from the mailbox', async () => {
    const { context, page } = await newPage();
    await page.goto(`${runtime.url}/sign-in/`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL(`${runtime.url}/password-forgot/`);
    await page.getByRole('textbox', { name: 'Email' }).fill(EMAIL);
    await shot(page, '05-password-forgot');
    await page.getByRole('button', { name: 'Send reset code' }).click();

    await page.waitForURL(`${runtime.url}/password-reset/`);
    await page.getByText(`If an account exists for ${EMAIL}, a code is on its way to a***@c***.local.`).waitFor();
    const code = latestMail(EMAIL, 'Reset your Caracal password').code!;
    await page.getByRole('textbox', { name: 'Code' }).fill(code);
    await page.getByLabel('New password', { exact: true }).fill(RESET_PASSWORD);
    await page.getByLabel('Confirm new password').fill(RESET_PASSWORD);
    await shot(page, '06-password-reset');
    await page.getByRole('button', { name: 'Reset password' }).click();

    await page.waitForURL(`${runtime.url}/sign-in/`);
    await page.getByText('Your password has been reset. Sign in with your new password.').waitFor();
    await enterCredentials(page, EMAIL, RESET_PASSWORD);
    await answerTotpChallenge(page);
    await inTheApp(page);
    await context.close();
  });

  it('signs out of every device after changing the password', async () => {
    const { context, page } = await newPage();
    await page.goto(`${runtime.url}/sign-in/`);
    await enterCredentials(page, EMAIL, RESET_PASSWORD);
    await answerTotpChallenge(page);
    await inTheApp(page);

    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Profile Settings' }).click();
    await page.getByRole('tab', { name: 'Account Security' }).click();
    await page.getByText('On', { exact: true }).waitFor();
    await page.getByLabel('Current password').fill('Not-The-Password-1!');
    await page.getByLabel('New password', { exact: true }).fill(CHANGED_PASSWORD);
    await page.getByLabel('Confirm new password').fill(CHANGED_PASSWORD);
    await shot(page, '07-account-security');
    await page.getByRole('button', { name: 'Update password' }).click();
    await page.getByText('Update password failed.').waitFor();
    await page.getByLabel('Current password').fill(RESET_PASSWORD);
    await page.getByRole('button', { name: 'Update password' }).click();
    await page.waitForURL(`${runtime.url}/sign-in/`);

    // The other device's tokens were revoked by the global sign-out.
    const otherPage = otherDevice.pages()[0];
    const stored = await otherPage.evaluate(() => {
      const storage = Object.entries((globalThis as unknown as { localStorage: Record<string, string> }).localStorage);
      const read = (suffix: string) => storage.find(([key]) => key.endsWith(suffix))?.[1] ?? '';
      return { refresh: read('.refreshToken'), access: read('.accessToken') };
    });
    const client = new CognitoIdentityProviderClient(localClientConfig(runtime.endpoints.cognito, 'us-east-1'));
    await expect(
      client.send(
        new InitiateAuthCommand({
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          ClientId: runtime.webConfig!.userPoolClientId,
          AuthParameters: { REFRESH_TOKEN: stored.refresh },
        }),
      ),
    ).rejects.toMatchObject({ message: 'Refresh Token has been revoked' });
    await expect(client.send(new GetUserCommand({ AccessToken: stored.access }))).rejects.toMatchObject({
      message: 'Access Token has been revoked',
    });
    client.destroy();
    // Its ID token has not expired, but the server refuses it: a reload signs that device out, saying why.
    await otherPage.reload();
    await otherPage.getByText('You have been signed out of every device. Sign in again to continue.').waitFor();
    expect(new URL(otherPage.url()).pathname).toBe('/sign-in/');

    await enterCredentials(page, EMAIL, CHANGED_PASSWORD);
    await answerTotpChallenge(page);
    await inTheApp(page);
    stillSignedIn = context;
    await otherDevice.close();
  });

  it('refuses a deactivated user at sign-in with a clear message, and lets them back in once reactivated', async () => {
    const deactivated = await graphql(
      runtime,
      { query: `mutation { deactivateUser(id: "${userId}") { id enabled } }` },
      adminToken,
    );
    expect(deactivated.body.errors).toBeUndefined();
    // Signed in when deactivated: the next request signs them out, saying why (not Permission Denied pages).
    const signedInPage = stillSignedIn.pages()[0];
    await signedInPage.reload();
    await signedInPage.getByText('Your account has been deactivated').waitFor();
    expect(new URL(signedInPage.url()).pathname).toBe('/sign-in/');
    await stillSignedIn.close();

    const { context, page } = await newPage();
    await page.goto(`${runtime.url}/sign-in/`);
    await enterCredentials(page, EMAIL, CHANGED_PASSWORD);
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').innerText()).toBe('This account has been deactivated. Contact your administrator.');
    await shot(page, '11-deactivated');

    const reactivated = await graphql(
      runtime,
      { query: `mutation { reactivateUser(id: "${userId}") { id enabled } }` },
      adminToken,
    );
    expect(reactivated.body.errors).toBeUndefined();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await answerTotpChallenge(page);
    await inTheApp(page);
    await context.close();
  });

  it('offers support sign-in and the single sign-on return page', async () => {
    const { context, page } = await newPage();
    await page.goto(`${runtime.url}/support-sign-in/`);
    await page.getByRole('heading', { name: 'Support sign in' }).waitFor();
    expect(await page.title()).toBe('Support sign in · Caracal');
    await shot(page, '08-support-sign-in');
    await page.goto(`${runtime.url}/oauth/`);
    await page.getByText('Single sign-on is not configured').waitFor();
    await shot(page, '09-oauth');
    await page.getByRole('link', { name: 'Back to sign in' }).click();
    await page.waitForURL(`${runtime.url}/sign-in/`);
    await page.goto(`${runtime.url}/local/mailbox`);
    await page.getByRole('heading', { name: 'Local mailbox' }).waitFor();
    await shot(page, '10-mailbox');
    await context.close();
  });
});
