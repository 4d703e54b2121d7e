// A new administrator signs in through the browser, sets a new password and sees the home page, which reads
// GraphQL; all against the local runtime, driven with playwright-core and Debian's Chromium.
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../local/harness';
import { launchChromium } from './browser';

const NEW_PASSWORD = 'Caracal-e2e-2026!';

let runtime: TestRuntime;
let browser: Browser;

beforeAll(async () => {
  runtime = await startTestRuntime();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await runtime?.stop();
});

async function signIn(page: Page, email: string, password: string) {
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('the web app on the local runtime', () => {
  it('takes a new administrator from a deep link through a new password to the page they asked for', async () => {
    const [admin] = runtime.createdUsers;
    expect(admin).toBeDefined();
    const page = await browser.newPage();

    await page.goto(`${runtime.url}/some/deep/link?tab=2`);
    await page.waitForURL(`${runtime.url}/sign-in/`);
    await signIn(page, admin!.username, admin!.temporaryPassword);

    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('textbox', { name: 'Confirm new password' }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();

    await page.waitForURL(`${runtime.url}/some/deep/link?tab=2`);
    await page.getByText('Not all who wander are lost...').waitFor();
    await page.getByRole('link', { name: 'Back to Home' }).click();

    await page.getByRole('heading', { name: 'Welcome' }).waitFor();
    const body = await page.locator('main').innerText();
    expect(body).toContain(admin!.username);
    expect(body).toContain('000000000000');
    expect(body).toMatch(/ADMIN/i);
    await page.close();
  });

  it('says so when the password is wrong, then signs in with the new one and logs out', async () => {
    const [admin] = runtime.createdUsers;
    const page = await browser.newPage();
    await page.goto(`${runtime.url}/`);
    await signIn(page, admin!.username, 'not-the-password');
    expect(await page.getByRole('alert').innerText()).toBe('Incorrect email or password.');

    await page.getByRole('textbox', { name: 'Password' }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Welcome' }).waitFor();

    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Log Out' }).click();
    await page.waitForURL(`${runtime.url}/sign-in/`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.close();
  });
});
