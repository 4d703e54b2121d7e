// A custom log from end to end in the browser: an administrator writes a schema for it (inferred from
// samples, then edited), creates an HTTP source for that log type, and sees the events posted to the
// source's endpoint arrive on the source's page, with the line the schema refuses counted as a
// classification failure and readable there.
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../local/harness';
import { launchChromium } from './browser';
import { signInFirstAdmin } from './sign-in';

const TOKEN = 'e2e-custom-log-token-0123456789';

let runtime: TestRuntime;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  runtime = await startTestRuntime();
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await signInFirstAdmin(page, runtime, '/configure/schemas/');
  await page.getByRole('heading', { name: 'Schemas', exact: true }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await runtime?.stop();
});

const audit = (time: string, user: string | undefined, action: string) => JSON.stringify({ time, user, action });

describe('a custom log from schema to arriving events', () => {
  it('creates a schema and a source for it in the browser, and sees its events arrive', async () => {
    await page.getByRole('link', { name: 'New Schema' }).click();
    await page.getByRole('heading', { name: 'New Schema' }).waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('Door.Badge');
    await page
      .getByRole('textbox', { name: 'Sample logs' })
      .fill([audit('2026-11-21T08:00:00Z', 'alice', 'enter'), audit('2026-11-21T08:01:00Z', 'bob', 'leave')].join('\n'));
    await page.getByRole('button', { name: 'Infer schema' }).click();
    await page.getByText('Inferred from 2 events.').waitFor();
    const editor = page.getByRole('textbox', { name: 'Schema YAML' });
    await editor.focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText(
      'fields: [{name: time, type: timestamp, timeFormats: [rfc3339], isEventTime: true}, {name: user, type: string, required: true, indicators: [username]}, {name: action, type: string}]',
    );
    await page.getByText('Valid', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Custom.Door.Badge' }).waitFor();

    await page.goto(`${runtime.url}/configure/log-sources/add-new-source/`);
    await page.getByRole('heading', { name: 'Add New Sources' }).waitFor();
    await page.getByRole('button', { name: 'Add HTTP source' }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Door badges');
    await page.getByPlaceholder('Pick log types').click();
    await page.getByRole('option', { name: 'Custom.Door.Badge', exact: true }).click();
    await page.keyboard.press('Escape');
    await page.locator('input[name="secret"]').fill(TOKEN);
    await page.getByRole('button', { name: 'Save Source' }).click();
    await page.getByRole('heading', { name: 'Door badges' }).waitFor();
    const endpoint = (
      await page
        .getByRole('row', { name: /Endpoint URL/ })
        .getByText(/\/ingest\/[0-9a-f-]{36}$/)
        .innerText()
    ).trim();

    const body = [
      audit('2026-11-21T09:00:00Z', 'carol', 'enter'),
      audit('2026-11-21T09:05:00Z', 'dave', 'enter'),
      audit('2026-11-21T09:06:00Z', undefined, 'tailgate'),
    ].join('\n');
    const posted = await fetch(endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-ndjson' },
      body,
    });
    expect(posted.status).toBe(200);

    // The page polls every 10 seconds; the pipeline takes a moment.
    await page.getByTestId('events-24h').filter({ hasText: /^2$/ }).waitFor({ timeout: 60_000 });
    await page.getByTestId('classification-failures').filter({ hasText: /^1$/ }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'View failures' }).click();
    await page
      .getByRole('dialog')
      .getByText(/tailgate/)
      .first()
      .waitFor();
  });
});
