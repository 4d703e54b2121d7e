// Notifications in the browser against the local runtime: an administrator changes the general settings,
// the platform notifies them, the notification shows as a snackbar and on the bell, and is read, archived
// and unarchived in the notification centre. Screenshots go to $SHOTS_DIR when it is set.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startTestRuntime, type TestRuntime } from '../local/harness';
import { useApiFunctionEnvironment } from '../functions/notifications/runtime-env';
import { launchChromium } from './browser';

const PASSWORD = 'Caracal-e2e-2026!';
const SHOTS_DIR = process.env.SHOTS_DIR;

let runtime: TestRuntime;
let browser: Browser;
let adminId: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  useApiFunctionEnvironment(runtime);
  const [admin] = runtime.createdUsers;
  const { idToken } = await signIn(runtime, admin.username, admin.temporaryPassword, PASSWORD);
  adminId = JSON.parse(Buffer.from(idToken.split('.')[1], 'base64url').toString()).sub;
  browser = await launchChromium();
  if (SHOTS_DIR) mkdirSync(SHOTS_DIR, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await runtime?.stop();
});

async function shot(page: Page, name: string) {
  if (SHOTS_DIR) await page.screenshot({ path: join(SHOTS_DIR, `${name}.png`) });
}

async function signInAsAdmin(page: Page) {
  await page.goto(`${runtime.url}/`);
  try {
    await page.getByRole('textbox', { name: 'Email' }).waitFor({ timeout: 15_000 });
  } catch (err) {
    await shot(page, 'sign-in-failure');
    throw new Error(`no sign-in form at ${page.url()}: ${(await page.locator('body').innerText()).slice(0, 500)}`, {
      cause: err,
    });
  }
  await page.getByRole('textbox', { name: 'Email' }).fill(runtime.createdUsers[0].username);
  await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('banner').waitFor();
}

const bell = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^Notifications/ });
const sheet = (page: Page) => page.getByRole('dialog', { name: 'Notifications' });

describe('notifications in the web app', () => {
  it('raises a notification on a general settings change, shows it, and reads, archives and unarchives it', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await signInAsAdmin(page);
    await expect.poll(() => bell(page).getAttribute('aria-label'), { timeout: 15_000 }).toBe('Notifications');

    await page.goto(`${runtime.url}/settings/general/`);
    await page.getByRole('heading', { name: 'General settings' }).waitFor();
    await page.getByRole('textbox', { name: /Organization name/ }).fill('Caracal Labs');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('General settings updated successfully').waitFor();
    await shot(page, 'general-settings');

    // The bell polls at once on load: the new notification shows as a snackbar and on the badge.
    await page.reload();
    const snackbar = page.locator('.mantine-Notification-root', { hasText: 'General settings changed' });
    await snackbar.waitFor();
    expect(await snackbar.innerText()).toContain('organization name set to "Caracal Labs"');
    await expect.poll(() => bell(page).getAttribute('aria-label'), { timeout: 15_000 }).toBe('Notifications (1 unread)');
    await shot(page, 'snackbar-and-bell');

    await bell(page).click();
    const item = sheet(page).getByTestId('notification-item');
    await item.getByText('General settings changed').waitFor();
    await sheet(page).getByRole('tab', { name: /Inbox/ }).getByText('1').waitFor();

    await item.getByRole('button', { name: 'Mark as read' }).click();
    await sheet(page).getByText("You're up-to-date!").waitFor();
    await expect.poll(() => bell(page).getAttribute('aria-label'), { timeout: 15_000 }).toBe('Notifications');
    await expect
      .poll(() => sheet(page).getByRole('button', { name: 'Mark all as Read' }).isDisabled(), { timeout: 15_000 })
      .toBe(true);

    await sheet(page).getByRole('switch', { name: 'Show Read Notifications' }).click();
    await item.getByRole('button', { name: 'Mark as unread' }).waitFor();
    await item.getByRole('button', { name: 'Archive' }).click();
    await sheet(page).getByText("You're up-to-date!").waitFor();

    await sheet(page).getByRole('tab', { name: 'Archived' }).click();
    await item.getByText('General settings changed').waitFor();
    await shot(page, 'sidesheet-archived');
    await item.getByRole('button', { name: 'Unarchive' }).click();
    await sheet(page).getByText("You're up-to-date!").waitFor();
    await expect
      .poll(() => sheet(page).getByRole('button', { name: 'Unarchive All' }).isDisabled(), { timeout: 15_000 })
      .toBe(true);

    await sheet(page).getByRole('tab', { name: /Inbox/ }).click();
    await item.getByText('General settings changed').waitFor();

    // A reload does not show the same snackbar again (seen ids are kept for the session).
    await page.reload();
    await bell(page).waitFor();
    await page.waitForTimeout(1500);
    expect(await page.locator('.mantine-Notification-root', { hasText: 'General settings changed' }).count()).toBe(0);
    await page.close();
  });

  it('shows several notifications, the empty state and the preferences', async () => {
    const { createNotification } = await import('../../functions/lib/notifications');
    await createNotification({
      userId: adminId,
      topic: 'SYSTEM_ERROR',
      level: 'ERROR',
      title: 'Source has not received events',
      message: 'The log source "CloudTrail production" has not received events for 2 hours.',
    });
    await createNotification({
      userId: adminId,
      topic: 'SYSTEM_NOTIFICATION',
      level: 'WARNING',
      title: 'Ingestion capacity limit',
      message: 'Ingestion reached 90% of the capacity limit of this deployment.',
    });
    await createNotification({
      userId: adminId,
      topic: 'DETECTION_NOTIFICATION',
      level: 'INFO',
      title: 'New alert: AWS root account activity',
      message: 'Detection AWS.CloudTrail.RootActivity raised an alert.',
      alertId: 'alert-42',
    });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await signInAsAdmin(page);
    await expect.poll(() => bell(page).getAttribute('aria-label'), { timeout: 15_000 }).toBe('Notifications (3 unread)');
    await page.locator('.mantine-Notification-root').nth(2).waitFor();
    await shot(page, 'snackbars-staggered');
    await bell(page).click();
    await expect.poll(() => sheet(page).getByTestId('notification-item').count(), { timeout: 15_000 }).toBe(3);
    await shot(page, 'sidesheet-inbox');

    await sheet(page).getByRole('button', { name: 'Mark all as Read' }).click();
    await sheet(page).getByText("You're up-to-date!").waitFor();
    await shot(page, 'sidesheet-empty');

    await sheet(page).getByRole('button', { name: 'Notification preferences' }).click();
    await sheet(page).getByText('Enable in-app notifications').first().waitFor();
    expect(await sheet(page).getByRole('switch').count()).toBe(3);
    await shot(page, 'sidesheet-preferences');
    await page.close();
  });
});
