// The SPA under its Content-Security-Policy (the local runtime serves the one CloudFront serves, from core/):
// an administrator signs in, sets up an authenticator from its QR code, and opens the main screens — the
// schema editor (Monaco and its worker), a log source's chart (echarts, its tooltip shown), alerts, users,
// roles and settings — and no violation is reported. An inline script injected at the end is blocked and
// reported, so the watch is known to see what it looks for.
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../core/content-security-policy';
import { totp } from '../support/totp';
import { graphql, signIn, startTestRuntime, type TestRuntime } from '../local/harness';
import { collectCspViolations, launchChromium } from './browser';

const PASSWORD = 'Strict-Policy-2026!';

let runtime: TestRuntime;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let violations: string[];
let sourceId = '';

async function asAdmin(query: string, variables: Record<string, unknown>, token: string) {
  const { body } = await graphql(runtime, { query, variables }, token);
  expect(body.errors).toBeUndefined();
  return body.data!;
}

/** Opens a route of the SPA and waits for its page title. */
async function open(path: string, title: string) {
  await page.goto(`${runtime.url}${path}`);
  await expect.poll(() => page.title(), { timeout: 15_000 }).toBe(`${title} · Caracal`);
}

beforeAll(async () => {
  runtime = await startTestRuntime();
  const [admin] = runtime.createdUsers;
  const { idToken } = await signIn(runtime, admin.username, admin.temporaryPassword, PASSWORD);
  await asAdmin(
    'mutation($input: UpdateGeneralSettingsInput!) { updateGeneralSettings(input: $input) { mfaRequired } }',
    { input: { mfaRequired: true } },
    idToken,
  );
  const created = await asAdmin(
    'mutation($input: HttpLogSourceInput!) { createHttpLogSource(input: $input) { id } }',
    { input: { label: 'Webhook feed', logTypes: ['GitHub.Audit'], authType: 'Bearer', secret: 'a-bearer-token-for-the-feed' } },
    idToken,
  );
  sourceId = (created.createHttpLogSource as { id: string }).id;
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  violations = await collectCspViolations(context);
  page = await context.newPage();
});

afterAll(async () => {
  await browser?.close();
  await runtime?.stop();
});

describe('the Content-Security-Policy in the browser', () => {
  it('is served with the SPA, naming only its own origin and the S3 stand-in (lookup-table uploads) to connect to', async () => {
    const response = await page.goto(`${runtime.url}/sign-in/`);
    expect(response?.headers()['content-security-policy']).toBe(contentSecurityPolicy([runtime.endpoints.s3]));
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  });

  it('lets an administrator sign in and set up an authenticator from its QR code', async () => {
    const [admin] = runtime.createdUsers;
    await page.getByRole('textbox', { name: 'Email' }).fill(admin.username);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Set up two-step verification' }).waitFor();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).locator('svg').waitFor();
    const secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
    // A code that is not about to roll over, so the server still accepts it.
    const intoStep = Date.now() % 30_000;
    if (intoStep > 27_000) await new Promise((resolve) => setTimeout(resolve, 30_500 - intoStep));
    await page.getByRole('textbox', { name: 'Authentication code' }).fill(await totp(secret, Date.now()));
    await page.getByRole('button', { name: 'Verify and continue' }).click();
    await page.getByRole('button', { name: 'Profile menu' }).waitFor();
  });

  it('runs the schema editor and its worker', async () => {
    await open('/configure/schemas/new/', 'New Schema');
    const editor = page.getByRole('textbox', { name: 'Schema YAML' });
    await editor.focus();
    await page.keyboard.insertText('fields: [{name: a, type: strng}]');
    await page.locator('.monaco-editor .squiggly-error').first().waitFor();
    // The editor starts its worker when a feature needs one; start it as Monaco does, from the app's bundle.
    await page.evaluate('globalThis.MonacoEnvironment.getWorker("schema", "editorWorkerService")');
    await expect
      .poll(() => page.workers().map((w) => new URL(w.url()).origin), { timeout: 15_000 })
      .toEqual([new URL(runtime.url).origin]);
    await open('/configure/schemas/AWS.CloudTrail/', 'AWS.CloudTrail');
    await page.locator('.monaco-editor').first().waitFor({ state: 'attached' });
  });

  it("draws a log source's chart and its tooltip", async () => {
    await open('/configure/log-sources/', 'Log Sources');
    await page.getByRole('link', { name: 'Webhook feed' }).waitFor();
    await open(`/configure/log-sources/${sourceId}/`, 'Webhook feed');
    const chart = page.getByRole('img', { name: 'Events received per hour, last 24 hours' });
    await chart.locator('canvas').waitFor();
    const box = (await chart.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page
      .getByText(/\d+ events/)
      .first()
      .waitFor();
  });

  it('opens alerts, users, roles, settings and support', async () => {
    await open('/', 'Home');
    await open('/alerts-and-errors/', 'Alerts & Errors');
    await open('/settings/users/', 'Users');
    await page.getByText(runtime.createdUsers[0].username).first().waitFor();
    await open('/settings/roles/', 'User Roles');
    await open('/settings/roles/new/', 'Create a User Role');
    await open('/settings/general/', 'General settings');
    await open('/support/', 'Support');
  });

  it('reported no violation on any of them', () => {
    expect(violations).toEqual([]);
  });

  it('blocks and reports an injected inline script', async () => {
    await page.evaluate(`{
      const script = document.createElement('script');
      script.textContent = 'window.injected = true';
      document.body.append(script);
    }`);
    await expect.poll(() => violations.some((v) => v.startsWith('script-src-elem blocked inline'))).toBe(true);
    expect(await page.evaluate('window.injected === true')).toBe(false);
  });
});
