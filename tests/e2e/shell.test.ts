// The application shell in Chromium against the local runtime: an administrator collapses the navigation and
// finds it collapsed after a reload, opens each menu of the top bar, sends feedback from the Support page (and
// it is stored), and changes their name in Profile Settings.
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { localClientConfig } from '../../local/services/net';
import { browserSuite } from './browser';
import { signInFirstAdmin } from './sign-in';

const suite = browserSuite();

async function signInAsAdmin(page: Page) {
  await signInFirstAdmin(page, suite.runtime, '/');
  await page.getByRole('heading', { name: /Welcome/ }).waitFor();
}

/** The feedback items of the entity table (a small test table: a scan is fine here). */
async function storedFeedback(): Promise<Array<Record<string, unknown>>> {
  const tableId = Object.keys(suite.runtime.stack.resources).find((id) => /EntityTable[0-9A-F]{8}$/.test(id));
  const TableName = suite.runtime.resolver.lookup(tableId!)!.ref;
  const dynamo = new DynamoDBClient(localClientConfig(suite.runtime.endpoints.dynamodb, suite.runtime.stack.region));
  const out = await dynamo.send(
    new ScanCommand({
      TableName,
      FilterExpression: 'begins_with(pk, :p)',
      ExpressionAttributeValues: { ':p': { S: 'FEEDBACK#' } },
    }),
  );
  dynamo.destroy();
  return (out.Items ?? []).map((item) => Object.fromEntries(Object.entries(item).map(([k, v]) => [k, v.S ?? v.N ?? v.NULL])));
}

describe('the application shell', () => {
  it('remembers the navigation, opens every menu, sends feedback and saves a name', async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signInAsAdmin(page);
    const navigation = page.getByRole('navigation', { name: 'Main navigation' });

    // The side navigation: expanded by default; collapsed, it stays collapsed after a reload.
    expect(await navigation.getAttribute('data-expanded')).toBe('true');
    await page.getByRole('button', { name: 'Collapse navigation' }).click();
    await page.mouse.move(900, 500);
    await page.reload();
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    await page.getByRole('button', { name: 'Expand navigation' }).waitFor();
    expect(await navigation.getAttribute('data-expanded')).toBeNull();
    expect((await navigation.boundingBox())!.width).toBe(68);
    await page.getByRole('button', { name: 'Expand navigation' }).click();
    await page.mouse.move(900, 500);
    await expect.poll(async () => (await navigation.boundingBox())!.width).toBe(248);
    await navigation.getByRole('link', { name: 'Log Sources' }).waitFor();

    // The settings menu: what an administrator may use, today.
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect.poll(() => page.getByRole('menuitem').allInnerTexts()).toEqual(['General', 'Users', 'User Roles']);
    await page.keyboard.press('Escape');

    // The help menu leads to the Support page; the documentation opens outside the app.
    await page.getByRole('button', { name: 'Help' }).click();
    expect(await page.getByRole('menuitem', { name: 'Documentation' }).getAttribute('target')).toBe('_blank');
    await page.getByRole('menuitem', { name: 'Support' }).click();
    await page.waitForURL(`${suite.runtime.url}/support/`);
    await page.getByRole('heading', { name: 'Support' }).waitFor();

    // Send Feedback from the Support page: stored with the page and the screen width.
    await page.getByRole('button', { name: 'Send Feedback' }).click();
    const feedback = page.getByRole('dialog', { name: 'Send Feedback' });
    await feedback.getByRole('textbox', { name: 'Feedback' }).fill('The collapsed navigation is easy to bring back.');
    const rating = feedback.getByLabel('Usefulness', { exact: true });
    const stars = (await rating.boundingBox())!;
    await rating.click({ position: { x: stars.width * 0.7, y: stars.height / 2 } });
    await feedback.getByRole('button', { name: 'Send Feedback' }).click();
    await page.getByText('Feedback received. Thank you!').waitFor();
    const stored = await storedFeedback();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      featureName: 'General',
      text: 'The collapsed navigation is easy to bring back.',
      usefulness: '4',
      locationUrl: `${suite.runtime.url}/support/`,
      userId: expect.any(String),
    });
    expect(Number(stored[0]!.screenWidth)).toBeGreaterThan(0);

    // Profile Settings: save a name; the profile menu shows it.
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Profile Settings' }).click();
    const profile = page.getByRole('dialog', { name: 'Profile Settings' });
    await profile.getByRole('textbox', { name: 'First Name' }).fill('Ada');
    await profile.getByRole('textbox', { name: 'Last Name' }).fill('Lovelace');
    await profile.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('User profile updated successfully').waitFor();
    await profile.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menu').getByText('Ada Lovelace').waitFor();
    expect(await page.getByRole('menu').innerText()).toContain('admin@caracal.local');
    await page.keyboard.press('Escape');

    // An unknown path: the Not Found page inside the shell, with breadcrumbs from the route.
    await page.goto(`${suite.runtime.url}/configure/log-sources/abc/schemas/draft/`);
    await page.getByText('Not all who wander are lost...').waitFor();
    await page.getByRole('button', { name: 'Show the full path' }).click();
    expect(await page.getByRole('navigation', { name: 'Breadcrumbs' }).innerText()).toMatch(
      /Configure[\s\S]*Log Sources[\s\S]*abc/,
    );
    await page.close();
  });
});
