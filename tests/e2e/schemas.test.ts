// A custom schema made in the browser: samples pasted, the schema inferred, edited in the Monaco editor,
// tested and saved, then found in the list and opened; an invalid spec shows error markers and disables Save.
// Monaco and its worker come from the app's own origin: the test fails if any request leaves it.
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../local/harness';
import { launchChromium } from './browser';
import { signInFirstAdmin } from './sign-in';

let runtime: TestRuntime;
let browser: Browser;
let page: Page;
const foreignRequests: string[] = [];

beforeAll(async () => {
  runtime = await startTestRuntime();
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const origin = new URL(runtime.url).origin;
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) foreignRequests.push(url);
  });
  await signInFirstAdmin(page, runtime, '/configure/schemas/');
  await page.getByRole('heading', { name: 'Schemas', exact: true }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await runtime?.stop();
});

/** Replaces the editor's text (flow-style YAML on one line, so the editor's auto-indent does not apply). */
async function setEditorText(text: string) {
  const editor = page.getByRole('textbox', { name: 'Schema YAML' });
  await editor.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
}

const SAMPLES = [
  { time: '2026-01-02T03:04:05Z', user: 'alice', action: 'login', sourceIp: '10.0.0.1' },
  { time: '2026-01-02T03:05:05Z', user: 'bob', action: 'logout', sourceIp: '10.0.0.2' },
  { time: '2026-01-02T03:06:05Z', action: 'logout', sourceIp: '10.0.0.3' },
]
  .map((e) => JSON.stringify(e))
  .join('\n');

describe('schemas in the browser', () => {
  it('infers a schema from pasted samples, edits, tests and saves it, then lists and opens it', async () => {
    await page.getByRole('table', { name: 'Schemas' }).getByRole('link', { name: 'AWS.CloudTrail' }).waitFor();
    await page.getByRole('link', { name: 'New Schema' }).click();
    await page.getByRole('heading', { name: 'New Schema' }).waitFor();
    expect(await page.title()).toBe('New Schema · Caracal');

    await page.getByRole('textbox', { name: 'Name' }).fill('Acme.Audit');
    await page.getByRole('textbox', { name: 'Description' }).fill('Acme audit trail');
    await page.getByRole('textbox', { name: 'Sample logs' }).fill(SAMPLES);
    await page.getByRole('button', { name: 'Infer schema' }).click();
    await page.getByText('Inferred from 3 events.').waitFor();
    await page.getByRole('tab', { name: 'Tree' }).click();
    const tree = page.getByRole('tree', { name: 'Fields' });
    for (const field of ['time', 'user', 'action', 'sourceIp']) await tree.getByRole('treeitem', { name: field }).waitFor();
    await page.getByRole('tab', { name: 'YAML' }).click();

    await setEditorText(
      'fields: [{name: time, type: timestamp, timeFormats: [rfc3339], isEventTime: true}, {name: user, type: string, required: true, indicators: [username]}, {name: action, type: string}]',
    );
    await page.getByText('Valid', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Run test' }).click();
    const results = page.getByLabel('Test results');
    await results.getByText('2 events parsed').waitFor();
    await results.getByText('1 failure', { exact: true }).waitFor();
    const failures = page.getByRole('table', { name: 'Failures' });
    expect(await failures.getByRole('cell').first().innerText()).toBe('3');
    expect(await failures.innerText()).toContain('user');

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Custom.Acme.Audit' }).waitFor();
    expect(await page.getByText('Acme audit trail').count()).toBe(1);
    await page.getByText('No schema reference link').waitFor();
    await page.getByRole('tree', { name: 'Fields' }).getByRole('treeitem', { name: 'user' }).waitFor();

    await page.getByRole('link', { name: 'Schemas', exact: true }).first().click();
    await page.getByRole('textbox', { name: 'Search schemas' }).fill('acme');
    const row = page.getByRole('table', { name: 'Schemas' }).getByRole('link', { name: 'Custom.Acme.Audit' });
    await row.waitFor();
    await row.click();
    await page.getByRole('heading', { name: 'Custom.Acme.Audit' }).waitFor();
  });

  it('shows error markers for an invalid spec and disables Save', async () => {
    await page.goto(`${runtime.url}/configure/schemas/new/`);
    await page.getByRole('heading', { name: 'New Schema' }).waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('Acme.Broken');
    await setEditorText('fields: [{name: a, type: strng}]');
    const problems = page.getByRole('list', { name: 'Schema problems' });
    await problems.getByText(/fields\[0\]\.type: Must be one of/).waitFor();
    await page.locator('.monaco-editor .squiggly-error').first().waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);

    await setEditorText('fields: a: b');
    await problems.getByText(/Invalid YAML/).waitFor();
    await page.locator('.monaco-editor .squiggly-error').first().waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);

    await setEditorText('fields: [{name: a, type: string}]');
    await page.getByText('Valid', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(false);
  });

  it('loaded the editor and its worker from the app itself', () => {
    expect(foreignRequests).toEqual([]);
  });
});
