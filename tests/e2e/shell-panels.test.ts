// The signed-in shell's account and notification panels load when first opened (React.lazy in
// web/src/app/shell/ProfileMenu.tsx and notifications/NotificationBell.tsx), not with the shell: in Chromium
// against the local runtime, their scripts are not fetched after signing in, and clicking the bell or
// Profile Settings fetches them and opens a working panel. Screenshots go to /tmp/shots/shell-panels/.
import { mkdirSync } from 'node:fs';
import { type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite } from './browser';

const NEW_PASSWORD = 'Shell-panels-Passw0rd!';
const SHOTS = '/tmp/shots/shell-panels';
const CENTRE = /NotificationCentre/;
const PROFILE = /ProfileSettingsModal/;

const suite = browserSuite();
const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png` });

describe('the shell’s lazy panels', () => {
  it('fetches the notification centre and the profile settings only when opened, and both work', async () => {
    mkdirSync(SHOTS, { recursive: true });
    const page = await suite.browser.newPage({ viewport: { width: 1440, height: 900 } });
    const scripts: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    const [admin] = suite.runtime.createdUsers;
    await page.goto(`${suite.runtime.url}/`);
    await page.getByRole('textbox', { name: 'Email' }).fill(admin!.username);
    await page.getByRole('textbox', { name: 'Password' }).fill(admin!.temporaryPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('textbox', { name: 'Confirm new password' }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    expect(scripts.filter((s) => CENTRE.test(s) || PROFILE.test(s))).toEqual([]);

    await page
      .getByRole('banner')
      .getByRole('button', { name: /^Notifications/ })
      .click();
    const sheet = page.getByRole('dialog', { name: 'Notifications' });
    await sheet.getByRole('tab', { name: /Inbox/ }).waitFor();
    await sheet.getByRole('tab', { name: 'Archived' }).click();
    await expect.poll(() => sheet.getByRole('tab', { name: 'Archived' }).getAttribute('aria-selected')).toBe('true');
    expect(scripts.some((s) => CENTRE.test(s))).toBe(true);
    await shot(page, 'notification-centre');
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });
    // Opened again: already loaded, it opens at once.
    await page
      .getByRole('banner')
      .getByRole('button', { name: /^Notifications/ })
      .click();
    await sheet.getByRole('tab', { name: /Inbox/ }).waitFor();
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });

    expect(scripts.some((s) => PROFILE.test(s))).toBe(false);
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Profile Settings' }).click();
    const modal = page.getByRole('dialog', { name: 'Profile Settings' });
    await modal.getByRole('tab', { name: 'Account Security' }).click();
    await expect.poll(() => modal.getByRole('tab', { name: 'Account Security' }).getAttribute('aria-selected')).toBe('true');
    expect(scripts.some((s) => PROFILE.test(s))).toBe(true);
    await shot(page, 'profile-security');
    await modal.getByRole('tab', { name: 'Profile Settings' }).click();
    await modal.getByRole('textbox').first().waitFor();
    await shot(page, 'profile-settings');
    expect(problems).toEqual([]);
    await page.close();
  });
});
