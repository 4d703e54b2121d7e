// An administrator creates an HTTP log source with Bearer authentication through the browser, posts JSON
// events to its endpoint with the token, and sees the last event and the figures of the details page update;
// a wrong token is refused. All against the local runtime, driven with playwright-core and Debian's Chromium.

import { describe, expect, it } from 'vitest';
import { browserSuite } from './browser';
import { signInFirstAdmin } from './sign-in';

const TOKEN = 'e2e-bearer-token-0123456789';

const suite = browserSuite();

const cloudTrailEvent = (n: number) => ({
  eventVersion: '1.08',
  eventTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  eventSource: 'signin.amazonaws.com',
  eventName: 'ConsoleLogin',
  awsRegion: 'us-east-1',
  eventID: `e2e-${n}`,
  eventType: 'AwsConsoleSignIn',
  recipientAccountId: '123456789012',
  userIdentity: { type: 'IAMUser', userName: `user${n}` },
});

describe('log sources in the browser', () => {
  it('creates an HTTP source with a Bearer token, receives events at its endpoint and shows them arriving', async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1400, height: 1000 } });

    await signInFirstAdmin(page, suite.runtime, '/configure/log-sources/');
    await page.getByRole('heading', { name: 'Log Sources' }).waitFor();
    await page.getByText('No log sources yet').waitFor();

    await page.getByRole('link', { name: 'Add New Source' }).first().click();
    await page.getByRole('heading', { name: 'Add New Sources' }).waitFor();
    await page.getByRole('button', { name: 'Add HTTP source' }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('E2E Webhook');
    await page.getByPlaceholder('Pick log types').click();
    await page.getByRole('option', { name: 'AWS.CloudTrail', exact: true }).click();
    await page.keyboard.press('Escape');
    await page.locator('input[name="secret"]').fill(TOKEN);
    await page.getByRole('button', { name: 'Save Source' }).click();

    await page.getByRole('heading', { name: 'E2E Webhook' }).waitFor();
    expect(await page.getByTestId('last-event').innerText()).toBe('No events yet');
    const endpoint = (
      await page
        .getByRole('row', { name: /Endpoint URL/ })
        .getByText(/\/ingest\/[0-9a-f-]{36}$/)
        .innerText()
    ).trim();
    expect(endpoint).toMatch(/^http:\/\/(localhost|127\.0\.0\.1):\d+\/ingest\/[0-9a-f-]{36}$/);
    expect(await page.locator('main').innerText()).not.toContain(TOKEN);

    const post = (token: string, body: unknown) =>
      fetch(endpoint, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post('not-the-token', cloudTrailEvent(0))).status).toBe(403);
    for (let n = 1; n <= 3; n++) expect((await post(TOKEN, cloudTrailEvent(n))).status).toBe(200);

    // The page polls every 10 seconds; the pipeline takes a moment.
    await page.getByTestId('events-24h').filter({ hasText: /^3$/ }).waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('last-event').innerText()).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2} UTC$/);

    await page.getByRole('link', { name: 'Log Sources' }).first().click();
    await page.getByRole('table', { name: 'Log sources' }).waitFor();
    const row = page.getByRole('row', { name: /E2E Webhook/ });
    expect(await row.innerText()).toMatch(/HTTP[\s\S]*AWS\.CloudTrail[\s\S]*\d{2}\/\d{2}\/\d{4} \d{2}:\d{2} UTC/);
    await page.close();
  });
});
