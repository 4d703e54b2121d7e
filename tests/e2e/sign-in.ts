// The browser tests' first sign-in: the runtime's first administrator opens a page of the app, is shown the
// sign-in form, signs in with the temporary password the runtime created, and sets a new one.
import type { Page } from 'playwright-core';
import type { TestRuntime } from '../local/harness';

/** The new password the browser tests give the first administrator. */
export const NEW_PASSWORD = 'Caracal-e2e-2026!';

export interface SignedIn {
  readonly username: string;
  /** The password set (for the API: signIn(runtime, username, password)). */
  readonly password: string;
}

/**
 * Opens `path` (a path of the app, '/build/detections/' say) on `page`, signs the first administrator in there
 * and sets `newPassword`; answers once the new-password form has gone. The caller then waits for what the page
 * it asked for shows. `onFailure` runs (a screenshot, say) when the sign-in form does not appear within 60 s.
 */
export async function signInFirstAdmin(
  page: Page,
  runtime: TestRuntime,
  path: string,
  options: { readonly newPassword?: string; readonly onFailure?: (error: unknown) => Promise<void> } = {},
): Promise<SignedIn> {
  const [admin] = runtime.createdUsers;
  if (!admin) throw new Error('The test runtime created no administrator');
  const password = options.newPassword ?? NEW_PASSWORD;
  await page.goto(`${runtime.url}${path}`);
  await page
    .getByRole('textbox', { name: 'Email' })
    .waitFor({ timeout: 60_000 })
    .catch(async (error: unknown) => {
      await options.onFailure?.(error);
      throw error;
    });
  await page.getByRole('textbox', { name: 'Email' }).fill(admin.username);
  await page.getByRole('textbox', { name: 'Password' }).fill(admin.temporaryPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill(password);
  await page.getByRole('textbox', { name: 'Confirm new password' }).fill(password);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await page.getByRole('textbox', { name: 'Confirm new password' }).waitFor({ state: 'detached' });
  return { username: admin.username, password };
}
