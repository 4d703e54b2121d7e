// An administrator creates a narrow role and invites a user with it; the user signs in with the emailed
// temporary password, sees only what the role allows, and the server refuses the rest. All in Chromium
// against the local suite.runtime.
import { type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite } from './browser';

const ADMIN_PASSWORD = 'Admin-e2e-Passw0rd!';
const USER_PASSWORD = 'Grace-e2e-Passw0rd!';
const USER_EMAIL = 'grace@example.com';

const suite = browserSuite();

/** Signs in through the sign-in page, setting a new password when the account still has a temporary one. */
async function signIn(page: Page, email: string, password: string, newPassword: string) {
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill(newPassword);
  await page.getByRole('textbox', { name: 'Confirm new password' }).fill(newPassword);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
}

async function temporaryPasswordFor(email: string): Promise<string> {
  const mailbox = (await (await fetch(`${suite.runtime.url}/local/mailbox.json`)).json()) as Array<{
    to: string;
    code: string | null;
  }>;
  const message = mailbox.filter((m) => m.to === email && m.code).pop();
  if (!message?.code) throw new Error(`no temporary password was emailed to ${email}`);
  return message.code;
}

describe('users and roles in the browser', () => {
  it('a user invited with a narrow role sees only what it allows, and the server refuses the rest', async () => {
    const [admin] = suite.runtime.createdUsers;
    const adminPage = await suite.browser.newPage();
    await adminPage.goto(`${suite.runtime.url}/settings/roles/new/`);
    await signIn(adminPage, admin.username, admin.temporaryPassword, ADMIN_PASSWORD);

    await adminPage.getByRole('heading', { name: 'Create a User Role' }).waitFor();
    await adminPage.getByRole('textbox', { name: 'Name' }).fill('Source Readers');
    await adminPage.getByRole('checkbox', { name: 'View Log Sources' }).check();
    await adminPage.getByRole('button', { name: 'Create Role' }).click();
    await adminPage.getByRole('row', { name: /Source Readers/ }).waitFor();

    await adminPage.goto(`${suite.runtime.url}/settings/users/`);
    await adminPage.getByRole('button', { name: 'Invite User' }).click();
    const sidesheet = adminPage.getByRole('dialog');
    await sidesheet.getByRole('textbox', { name: 'Email' }).fill(USER_EMAIL);
    await sidesheet.getByRole('textbox', { name: 'First Name' }).fill('Grace');
    await sidesheet.getByRole('textbox', { name: 'Last Name' }).fill('Hopper');
    await sidesheet.getByPlaceholder('Select a role').click();
    await adminPage.getByRole('option', { name: 'Source Readers' }).click();
    await sidesheet.getByRole('button', { name: 'Invite', exact: true }).click();
    await adminPage.getByText('User invited successfully').waitFor();
    const firstRow = adminPage.getByRole('table', { name: 'Users' }).getByRole('row').nth(1);
    expect(await firstRow.innerText()).toContain('Grace Hopper');
    expect(await firstRow.innerText()).toContain('Source Readers');
    await adminPage.close();

    const userContext = await suite.browser.newContext();
    const userPage = await userContext.newPage();
    await userPage.goto(`${suite.runtime.url}/`);
    await signIn(userPage, USER_EMAIL, await temporaryPasswordFor(USER_EMAIL), USER_PASSWORD);
    await userPage.getByRole('button', { name: /Profile menu/ }).waitFor();
    expect(await userPage.getByRole('button', { name: 'Settings' }).count()).toBe(0);

    await userPage.goto(`${suite.runtime.url}/settings/users/`);
    await userPage.getByText("Oops! You don't have the proper permissions to view this page.").waitFor();
    expect(await userPage.getByRole('table', { name: 'Users' }).count()).toBe(0);

    const refused = await userPage.evaluate(async () => {
      // The page's own session: Amplify keeps the ID token in the browser's local storage.
      const storage = (
        globalThis as unknown as { localStorage: Record<string, string> & { getItem(key: string): string | null } }
      ).localStorage;
      const key = Object.keys(storage).find((k) => k.startsWith('CognitoIdentityServiceProvider.') && k.endsWith('.idToken'));
      const token = key ? storage.getItem(key) : null;
      const ask = async (query: string) => {
        const response = await fetch('/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: token ?? '' },
          body: JSON.stringify({ query }),
        });
        return (await response.json()) as { data?: unknown; errors?: Array<{ errorType?: string }> };
      };
      return { users: await ask('{ users { edges { node { id } } } }'), me: await ask('{ me { role { name permissions } } }') };
    });
    expect(refused.users.errors?.[0]?.errorType).toBe('Unauthorized');
    expect(refused.me.data).toEqual({ me: { role: { name: 'Source Readers', permissions: ['LogSourceRead'] } } });
    await userContext.close();
  });
});
