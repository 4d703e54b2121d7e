// The detection editor from end to end in the browser: an administrator writes a Python rule from the template
// (a title from its template too), adds two unit tests, runs them on the server, fixes the failing one, saves
// the rule switched off, enables it on its page, sees its two versions, then sends matching Okta events
// through an HTTP source and sees the rule's alert in /alerts-and-errors/.
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, signIn, startTestRuntime, type TestRuntime } from '../local/harness';
import { launchChromium } from './browser';
import { NEW_PASSWORD, signInFirstAdmin } from './sign-in';

const TOKEN = 'e2e-detection-editor-token-0123456789';

let runtime: TestRuntime;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  runtime = await startTestRuntime();
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await signInFirstAdmin(page, runtime, '/build/detections/new/');
  await page.getByRole('heading', { name: 'New Detection' }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await runtime?.stop();
});

const oktaLogin = (result: 'SUCCESS' | 'FAILURE', user: string, published = new Date().toISOString()) => ({
  uuid: crypto.randomUUID(),
  published,
  eventType: 'user.session.start',
  version: '0',
  severity: result === 'FAILURE' ? 'WARN' : 'INFO',
  displayMessage: 'User login to Okta',
  actor: { id: `00u${user}0000`, type: 'User', alternateId: `${user}@acme.example`, displayName: user },
  client: { ipAddress: '203.0.113.7' },
  outcome: { result },
});

/**
 * Replaces the whole text of a Monaco editor (found by its label) with one line. Text inserted in one go is
 * typed: the editor closes the first bracket or quote itself, so what it added after the cursor is removed.
 */
async function replaceEditorText(label: string | RegExp, text: string) {
  const editor = page.getByRole('textbox', { name: label });
  await editor.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
  await page.keyboard.press('Shift+ControlOrMeta+End');
  await page.keyboard.press('Delete');
}

describe('a Python rule from the editor to an alert', () => {
  it('is written from the template, tested, fixed, saved, enabled and raises an alert on matching events', async () => {
    await page.getByRole('button', { name: 'Rule', exact: true }).click();
    await page.getByRole('heading', { name: 'New Rule' }).waitFor();
    await page.getByRole('textbox', { name: 'Rule ID' }).fill('E2E.Okta.FailedLogin');
    await page.getByRole('textbox', { name: 'Display Name' }).fill('Okta failed login');
    await page.getByRole('switch', { name: 'Enabled' }).uncheck({ force: true });
    await page.getByLabel('Log Types').first().click();
    await page.getByRole('option', { name: 'Okta.SystemLog', exact: true }).click();
    await page.keyboard.press('Escape');

    // The rule's template: only its `return False` line changes.
    const rule = page.getByRole('textbox', { name: 'Rule Function' });
    await rule.focus();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('End');
    await page.keyboard.press('Shift+Home');
    await page.keyboard.insertText('return event.deep_get("outcome", "result") == "FAILURE"');
    await page.getByRole('button', { name: 'title', exact: true }).click();

    await page.getByRole('button', { name: '+ Add new unit test' }).click();
    await replaceEditorText(/^Event of Test-/, JSON.stringify(oktaLogin('FAILURE', 'mallory')));
    await page.getByRole('button', { name: '+ Add new unit test' }).click();
    await page.getByRole('tab').nth(1).click();
    // A success expected to alert: this test is wrong, and fails.
    await replaceEditorText(/^Event of Test-/, JSON.stringify(oktaLogin('SUCCESS', 'alice')));
    await page.getByRole('button', { name: 'Run All Tests' }).click();
    await page.getByTestId('test-run-message').filter({ hasText: '1 of 2 tests failed' }).waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('test-result').first().getByText('FAIL').count()).toBe(1);

    await page.getByRole('switch', { name: /Expected result/ }).uncheck({ force: true });
    await page.getByRole('button', { name: 'Run All Tests' }).click();
    await page.getByTestId('test-run-message').filter({ hasText: 'All tests passed!' }).waitFor({ timeout: 60_000 });
    await page.getByText('"Suspicious activity by <unknown user>"').first().waitFor();

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Okta failed login' }).waitFor({ timeout: 30_000 });
    await page.getByText('Version 1, saved by').waitFor();
    await page.getByRole('switch', { name: 'Enabled' }).click({ force: true });
    await page.getByText('Version 2, saved by').waitFor({ timeout: 30_000 });
    await page.getByRole('radio', { name: 'Compare version 1 as the old side' }).waitFor();

    const [admin] = runtime.createdUsers;
    const token = (await signIn(runtime, admin!.username, NEW_PASSWORD)).idToken;
    const created = await graphql(
      runtime,
      {
        query: `mutation($input: HttpLogSourceInput!) { createHttpLogSource(input: $input) { id http { endpointUrl } } }`,
        variables: { input: { label: 'Okta e2e', logTypes: ['Okta.SystemLog'], authType: 'Bearer', secret: TOKEN } },
      },
      token,
    );
    expect(created.body.errors).toBeUndefined();
    const endpoint = (created.body.data as { createHttpLogSource: { http: { endpointUrl: string } } }).createHttpLogSource.http
      .endpointUrl;
    const posted = await fetch(endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-ndjson' },
      body: [oktaLogin('FAILURE', 'mallory'), oktaLogin('SUCCESS', 'alice')].map((e) => JSON.stringify(e)).join('\n'),
    });
    expect(posted.status).toBe(200);

    await page.goto(`${runtime.url}/alerts-and-errors/`);
    const alert = page.getByText('Suspicious activity by <unknown user>').first();
    for (let attempt = 0; attempt < 12 && !(await alert.isVisible()); attempt++) {
      await page.waitForTimeout(5_000);
      await page.reload();
    }
    await alert.waitFor({ timeout: 10_000 });
  });
});
