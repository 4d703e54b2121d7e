// An administrator creates a Slack webhook destination pointing at a local HTTP receiver on 127.0.0.1, sends a
// test alert from the form and from the list, and sees the receiver get it and the page show the service's
// answer; the webhook URL (which carries the token) never shows again. Against the local runtime, driven with
// playwright-core and Debian's Chromium. Screenshots go to SHOTS_DIR when it is set.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSuite } from './browser';
import { signInFirstAdmin } from './sign-in';

const TOKEN = 'B0ABCDEF/xyzSecretToken123';

const suite = browserSuite();
const received: { path: string; body: string }[] = [];
let receiver: Server;
let hookUrl: string;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/services/T000/${TOKEN}`;
});

afterAll(() => new Promise((resolve) => receiver?.close(resolve)));

async function shot(page: Page, name: string) {
  if (process.env.SHOTS_DIR) await page.screenshot({ path: join(process.env.SHOTS_DIR, `${name}.png`), fullPage: true });
}

describe('alert destinations in the browser', () => {
  it('creates a Slack webhook destination, sends test alerts to a local receiver and shows the answer', async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1400, height: 1000 } });

    await signInFirstAdmin(page, suite.runtime, '/configure/destinations/');
    await page.getByRole('heading', { name: 'Alert Destinations' }).waitFor();
    await shot(page, '1-list');

    await page.getByRole('link', { name: 'Add Destination' }).click();
    await page.getByRole('list', { name: 'Destination types' }).waitFor();
    await shot(page, '2-chooser');
    await page.getByRole('textbox', { name: 'Search destinations' }).fill('slack');
    await page.getByRole('listitem', { name: 'Slack', exact: true }).click();

    const form = page.getByRole('form', { name: 'Slack destination' });
    await form.waitFor();
    await form.getByRole('textbox', { name: 'Display Name' }).fill('SecOps Slack');
    await form.locator('input[name="config.webhookURL"]').fill('http://hooks.slack.com/services/x');
    await form.locator('input[name="config.webhookURL"]').blur();
    await page.getByText('Must be a valid webhook URL').waitFor();
    await shot(page, '3-form-invalid');
    await form.locator('input[name="config.webhookURL"]').fill(hookUrl);

    await form.getByRole('button', { name: 'Send Test Alert' }).click();
    await page.getByText('Test alert delivered (HTTP 200)').waitFor({ timeout: 30_000 });
    const fromForm = received.find((r) => r.path === `/services/T000/${TOKEN}`);
    expect(fromForm).toBeDefined();
    expect(JSON.parse(fromForm!.body)).toHaveProperty('blocks');
    await shot(page, '4-form-tested');

    await form.getByRole('button', { name: 'Add Destination' }).click();
    // Saved, the list opens with the new destination's details beside it.
    const details = page.getByRole('dialog', { name: 'SecOps Slack' });
    await details.waitFor();
    expect(await details.innerText()).toContain('********');
    await shot(page, '5-saved-details');
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'hidden' });
    const table = page.getByRole('table', { name: 'Alert destinations' });
    await table.waitFor();
    const row = table.getByRole('row', { name: /SecOps Slack/ });
    expect(await row.innerText()).toMatch(/Slack[\s\S]*Critical[\s\S]*High[\s\S]*Medium/i);
    expect(await page.locator('body').innerText()).not.toContain(TOKEN);

    const before = received.length;
    await row.getByRole('button', { name: 'Send Test Alert to SecOps Slack' }).click();
    await row.getByText('HTTP 200 · ok').waitFor({ timeout: 30_000 });
    expect(received.length).toBeGreaterThan(before);
    await shot(page, '6-list-tested');

    await row.getByRole('link', { name: 'Edit SecOps Slack' }).click();
    const editForm = page.getByRole('form', { name: 'Slack destination' });
    await editForm.waitFor();
    expect(await editForm.locator('input[name="config.webhookURL"]').inputValue()).toBe('********');
    await shot(page, '7-edit');
    await page.close();
  });
});
