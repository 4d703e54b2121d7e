// A new administrator signs in through the browser, sets a new password and sees the home page, which reads
// GraphQL; all against the local runtime, driven with playwright-core and Debian's Chromium.
import { type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite } from './browser';

const NEW_PASSWORD = 'Caracal-e2e-2026!';

const suite = browserSuite();

async function signIn(page: Page, email: string, password: string) {
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('the web app on the local runtime', () => {
  it('takes a new administrator from a deep link through a new password to the page they asked for', async () => {
    const [admin] = suite.runtime.createdUsers;
    expect(admin).toBeDefined();
    const page = await suite.browser.newPage();

    await page.goto(`${suite.runtime.url}/some/deep/link?tab=2`);
    await page.waitForURL(`${suite.runtime.url}/sign-in/`);
    await signIn(page, admin!.username, admin!.temporaryPassword);

    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('textbox', { name: 'Confirm new password' }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();

    await page.waitForURL(`${suite.runtime.url}/some/deep/link?tab=2`);
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
    const [admin] = suite.runtime.createdUsers;
    const page = await suite.browser.newPage();
    await page.goto(`${suite.runtime.url}/`);
    await signIn(page, admin!.username, 'not-the-password');
    expect(await page.getByRole('alert').innerText()).toBe('Incorrect email or password.');

    await page.getByRole('textbox', { name: 'Password' }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Welcome' }).waitFor();

    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Log Out' }).click();
    await page.waitForURL(`${suite.runtime.url}/sign-in/`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.close();
  });
});
