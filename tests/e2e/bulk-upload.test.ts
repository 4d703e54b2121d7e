// Bulk upload in the browser: the fixture repository (tests/fixtures/bulk-upload, zipped here) is chosen in
// the Upload dialog, its validation report shows what is new and what is invalid with its reason before
// anything is saved, Apply saves it with a result per item, and the uploaded detections are listed as managed
// (their pack holds them); the pack's page lists its items and disables the whole pack.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { zipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSuite } from './browser';
import { signInFirstAdmin } from './sign-in';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'bulk-upload');
const SHOTS = process.env.CARACAL_SHOTS;
const suite = browserSuite();
/** Waits for the list to answer (a slow machine's runtime takes seconds). */
const POLL = { timeout: 20_000, interval: 100 };
let page: Page;
let zipPath: string;

async function shot(name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** The fixture folder as a zip under a top folder, as a GitHub download of a repository is. */
function zipFixture(): string {
  const files: Record<string, Uint8Array> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name !== 'README.md') files[`upload-fixture/${relative(FIXTURE, path).split(sep).join('/')}`] = readFileSync(path);
    }
  };
  walk(FIXTURE);
  const path = join(mkdtempSync(join(tmpdir(), 'caracal-upload-')), 'detections.zip');
  writeFileSync(path, zipSync(files));
  return path;
}

beforeAll(async () => {
  zipPath = zipFixture();
  page = await suite.browser.newPage({ viewport: { width: 1500, height: 1000 } });
  await signInFirstAdmin(page, suite.runtime, '/build/detections/');
  await page.getByRole('heading', { name: 'Detections', exact: true }).waitFor();
});

const cellsOf = async (name: string) => {
  const row = page.getByRole('table', { name: 'Upload items' }).getByRole('row').filter({ hasText: name });
  return (await row.locator('td').allTextContents()).map((t) => t.trim());
};

describe('bulk upload', () => {
  it('validates the zip first, then applies it, and the items are listed', async () => {
    await page.getByRole('button', { name: 'Upload' }).click();
    const dialog = page.getByRole('dialog', { name: 'Bulk upload' });
    await dialog.getByText('Drop a .zip file here').waitFor();
    const chooser = page.waitForEvent('filechooser');
    await dialog.getByRole('button', { name: 'Choose a zip' }).click();
    await (await chooser).setFiles(zipPath);

    await dialog.getByText('What uploading detections.zip would do:').waitFor();
    const totals = dialog.getByRole('list', { name: 'Upload totals' });
    expect((await totals.getByRole('listitem').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
      'New 4',
      'Changed 0',
      'Unchanged 0',
      'Invalid 1',
    ]);
    expect(await cellsOf('Upload.Broken')).toEqual([expect.stringMatching(/Severity/), 'Rule', 'New', 'Invalid']);
    expect((await cellsOf('Upload.Okta.AdminLogin')).slice(1)).toEqual(['Rule', 'New', 'OK']);
    expect((await cellsOf('Upload.Pack')).slice(1)).toEqual(['Pack', 'New', 'OK']);
    await shot('10-upload-validation');

    // Nothing is saved by the check.
    expect(await page.getByRole('table', { name: 'Detections' }).getByText('Upload: Okta admin app sign-in').count()).toBe(0);

    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.getByText('Uploaded detections.zip:').waitFor();
    expect((await cellsOf('Upload.Okta.AdminLogin')).slice(1)).toEqual(['Rule', 'New', 'Saved']);
    expect((await cellsOf('Upload.Broken')).at(-1)).toBe('Invalid');
    await shot('11-upload-applied');
    await dialog.getByRole('button', { name: 'Done' }).click();

    const table = page.getByRole('table', { name: 'Detections' });
    await table.getByRole('link', { name: 'Upload: Okta admin app sign-in' }).waitFor();
    await table.getByRole('link', { name: 'Upload: GitHub repository deleted' }).waitFor();
    await page.getByRole('combobox', { name: 'Source' }).click();
    await page.getByRole('option', { name: 'Managed' }).click();
    await expect
      .poll(async () => (await table.locator('tbody tr td:nth-child(2) a').allInnerTexts()).sort(), POLL)
      .toEqual(['Upload: GitHub repository deleted', 'Upload: Okta admin app sign-in']);
    await shot('12-managed-filter');
  });

  it('lists the pack, shows what it holds and disables it as a whole', async () => {
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Packs' }).click();
    await page.getByRole('heading', { name: 'Packs', exact: true }).waitFor();
    await page.getByRole('table', { name: 'Packs' }).getByRole('link', { name: 'Upload pack' }).click();
    await page.getByRole('heading', { name: 'Upload pack' }).waitFor();
    const items = page.getByRole('table', { name: 'Pack items' });
    await items.getByRole('link', { name: 'upload_helpers' }).waitFor();
    expect(await items.locator('tbody').getByText('Enabled', { exact: true }).count()).toBe(2);
    await shot('13-pack');
    await page.getByRole('button', { name: 'Disable pack' }).click();
    const dialog = page.getByRole('dialog', { name: 'Disable detections' });
    await dialog.getByText('2 detections disabled').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => items.locator('tbody').getByText('Disabled', { exact: true }).count(), POLL).toBe(2);
    await page.getByText('Disabled', { exact: true }).first().waitFor();
    await shot('14-pack-disabled');
  });
});
