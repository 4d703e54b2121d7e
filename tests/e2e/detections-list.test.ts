// The detections list in the browser, over the demo detections (demo/detections, uploaded first): its defaults in the
// address, filters (severity, search) kept in the URL, sorting, and a bulk disable of two selected rows with
// the per-item report; then the helpers and data models pages open from the Build navigation.
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { zipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { graphql, signIn } from '../local/harness';
import { browserSuite } from './browser';
import { signInFirstAdmin } from './sign-in';

const SHOTS = process.env.CARACAL_SHOTS;
const suite = browserSuite();
/** Waits for the list to answer (a slow machine's runtime takes seconds). */
const POLL = { timeout: 20_000, interval: 100 };
let page: Page;

async function shot(name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

const DEMO = join(import.meta.dirname, '..', '..', 'demo', 'detections');

/** The demo detections as a zip, base64 encoded. */
function demoZip(): string {
  const files: Record<string, Uint8Array> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(DEMO, path).split(sep).join('/')] = readFileSync(path);
    }
  };
  walk(DEMO);
  return Buffer.from(zipSync(files)).toString('base64');
}

const table = () => page.getByRole('table', { name: 'Detections' });
const rowNames = async () => (await table().locator('tbody tr td:nth-child(2) a').allInnerTexts()).map((t) => t.trim());

beforeAll(async () => {
  page = await suite.browser.newPage({ viewport: { width: 1500, height: 1000 } });
  const admin = await signInFirstAdmin(page, suite.runtime, '/build/detections/');
  await page.getByRole('heading', { name: 'Detections', exact: true }).waitFor();
  const { idToken } = await signIn(suite.runtime, admin.username, admin.password);
  const upload = await graphql(
    suite.runtime,
    {
      query: 'mutation($input: BulkUploadInput!) { bulkUpload(input: $input) { totals { failed } } }',
      variables: { input: { data: demoZip() } },
    },
    idToken,
  );
  expect(upload.body.data).toEqual({ bulkUpload: { totals: { failed: 0 } } });
  await page.reload();
}, 120_000);

describe('the detections list', () => {
  it('shows every demo detection with its defaults in the address', async () => {
    await table().getByRole('link', { name: 'Demo: AWS root account activity' }).waitFor();
    expect(await page.title()).toBe('Detections · Caracal');
    const url = new URL(page.url());
    expect(url.searchParams.get('page')).toBe('1');
    expect(url.searchParams.get('sortBy')).toBe('last-modified');
    expect(url.searchParams.get('sortDir')).toBe('descending');
    const names = await rowNames();
    expect(names).toEqual(expect.arrayContaining(['Demo: AWS root account activity', 'Demo: GitHub repository made public']));
    // Global helpers have their own page.
    expect(names.join(' ')).not.toContain('demo_helpers');
    await shot('01-detections-list');
  });

  it('filters by severity and text, sorts by name, and keeps it all in the URL', async () => {
    await page.getByRole('combobox', { name: 'Severity' }).click();
    await page.getByRole('option', { name: 'Critical' }).click();
    await page.keyboard.press('Escape');
    await page.waitForURL(/severity=CRITICAL/);
    await expect.poll(rowNames, POLL).toEqual(['Demo: AWS root account activity']);
    await shot('02-severity-filter');

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByRole('textbox', { name: 'Search detections' }).fill('okta');
    await page.waitForURL(/search=okta/);
    await expect
      .poll(async () => {
        const names = await rowNames();
        return names.length > 0 && names.every((n) => /okta/i.test(n));
      }, POLL)
      .toBe(true);
    await page.getByRole('button', { name: 'Clear filters' }).click();

    await page.getByRole('combobox', { name: 'Sort by' }).click();
    await page.getByRole('option', { name: 'Name' }).click();
    await page.getByRole('button', { name: 'Sort ascending' }).click();
    await page.waitForURL(/sortBy=name.*sortDir=ascending|sortDir=ascending.*sortBy=name/);
    await expect
      .poll(async () => {
        const names = await rowNames();
        return (
          names.length > 1 && names.every((n, i) => i === 0 || names[i - 1].localeCompare(n, 'en', { sensitivity: 'base' }) <= 0)
        );
      }, POLL)
      .toBe(true);

    // The address alone restores the list.
    await page.goto(`${suite.runtime.url}/build/detections/?page=1&sortBy=severity&sortDir=descending&severity=HIGH`);
    await expect.poll(async () => (await rowNames()).length, POLL).toBeGreaterThan(0);
    const severities = await table().locator('tbody tr td:nth-child(4)').allTextContents();
    expect(severities.every((s) => s.trim() === 'High')).toBe(true);
  });

  it('disables two selected detections at once and reports each', async () => {
    await page.goto(`${suite.runtime.url}/build/detections/`);
    await table().getByRole('link', { name: 'Demo: AWS root account activity' }).waitFor();
    for (const name of ['Demo: AWS root account activity', 'Demo: GitHub repository made public'])
      await page.getByRole('checkbox', { name: `Select ${name}` }).check();
    const bar = page.getByRole('region', { name: 'Bulk actions' });
    await bar.getByText('2 selected').waitFor();
    await shot('03-selection');
    await bar.getByRole('button', { name: 'Disable' }).click();
    const dialog = page.getByRole('dialog', { name: 'Disable detections' });
    await dialog.getByText('2 detections disabled').waitFor();
    expect(await dialog.getByRole('row').count()).toBe(3);
    await shot('04-bulk-report');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect
      .poll(() => page.getByRole('switch', { name: 'Enable Demo: AWS root account activity' }).isChecked(), POLL)
      .toBe(false);
    expect(await page.getByRole('switch', { name: 'Enable Demo: GitHub repository made public' }).isChecked()).toBe(false);

    await page.getByRole('combobox', { name: 'Enabled' }).click();
    await page.getByRole('option', { name: 'Disabled' }).click();
    await expect
      .poll(async () => (await rowNames()).sort(), POLL)
      .toEqual(['Demo: AWS root account activity', 'Demo: GitHub repository made public']);
    await page.getByRole('switch', { name: 'Enable Demo: GitHub repository made public' }).click({ force: true });
    await expect.poll(rowNames, POLL).toEqual(['Demo: AWS root account activity']);
  });

  it('opens the helpers and data models pages from the Build navigation', async () => {
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.getByRole('link', { name: 'Helpers' }).click();
    await page.getByRole('heading', { name: 'Helpers', exact: true }).waitFor();
    await page.getByRole('table', { name: 'Global helpers' }).getByRole('link', { name: 'demo_helpers' }).click();
    await page.getByRole('heading', { name: 'Edit Global Helper' }).waitFor();
    await page.getByTestId('python-editor').locator('.monaco-editor').waitFor();
    expect(await page.title()).toBe('Edit Global Helper · Caracal');
    await shot('05-helper-edit');
    // A helper in use: the delete dialog names who imports it, and the server refuses (InUse).
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete global helper' });
    // The demo's Tor detection imports it too: both are named.
    await confirm
      .getByText(
        /^demo_helpers is imported by .*Demo\.AWS\.ConsoleLoginFromTor.*Demo\.AWS\.ConsoleLoginWithoutMFA|^demo_helpers is imported by .*Demo\.AWS\.ConsoleLoginWithoutMFA.*Demo\.AWS\.ConsoleLoginFromTor/,
      )
      .waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByText(/^Global helper demo_helpers is used by .*Demo\.AWS\.ConsoleLoginWithoutMFA.*; remove those uses first/)
      .waitFor();
    await shot('05b-helper-in-use');
    await nav.getByRole('link', { name: 'Data Models' }).click();
    await page.getByRole('heading', { name: 'Data Models', exact: true }).waitFor();
    await page.getByRole('link', { name: 'New Data Model' }).click();
    await page.getByRole('heading', { name: 'New Data Model' }).waitFor();
    await page.getByRole('textbox', { name: 'Data Model ID' }).fill('E2E.Okta.Model');
    await page.getByRole('combobox', { name: 'Log Types' }).fill('Okta.SystemLog');
    await page.keyboard.press('Enter');
    await page.getByRole('combobox', { name: 'Mapping 1 name' }).fill('user.email');
    await page.getByRole('textbox', { name: 'Mapping 1 path' }).fill('actor.alternateId');
    await shot('06-data-model-new');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'E2E.Okta.Model' }).waitFor();
    await page.getByRole('table', { name: 'Mappings' }).getByText('actor.alternateId').waitFor();
    await shot('07-data-model');
  });
});
