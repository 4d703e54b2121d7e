// A lookup table from a CSV upload (a pre-signed PUT to the local S3 stand-in), its data preview, a CIDR key,
// an associated log type with a selector, then "test a value" matching the longest prefix. Against the local
// runtime, driven with playwright-core and Debian's Chromium. Screenshots go to SHOTS_DIR when it is set.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite } from './browser';
import { signInFirstAdmin } from './sign-in';

const CSV =
  'cidr,site,owner\n10.0.0.0/8,corp,it\n10.1.0.0/16,office,facilities\n2001:db8::/32,v6 corp,it\nnot-a-network,bad,none\n';

const suite = browserSuite();

async function shot(page: Page, name: string) {
  if (process.env.SHOTS_DIR) await page.screenshot({ path: join(process.env.SHOTS_DIR, `${name}.png`), fullPage: true });
}

describe('lookup tables in the browser', () => {
  it('creates a table from a CSV upload, associates a log type and tests a value', async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await signInFirstAdmin(page, suite.runtime, '/configure/lookup-tables/');
    await page.getByRole('heading', { name: 'Lookup Tables' }).waitFor();
    await page.getByText('No lookup tables yet').waitFor();
    await shot(page, '1-empty-list');

    await page.getByRole('link', { name: 'Create New' }).first().click();
    await page.getByRole('heading', { name: 'New Lookup Table' }).waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('office_networks');
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'networks.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
    const preview = page.getByRole('table', { name: 'Data preview' });
    await preview.getByText('facilities').waitFor();
    await page.getByRole('combobox', { name: 'Key type' }).click();
    await page.getByRole('option', { name: 'CIDR (longest prefix)' }).click();
    await page.getByText('1 rows will be left out').waitFor();
    expect(await page.getByText("Row 4: 'not-a-network' is not a CIDR or IP address").count()).toBe(1);

    await page.getByRole('button', { name: 'Add log type' }).click();
    await page.getByRole('combobox', { name: 'Log type' }).fill('AWS.CloudTrail');
    await page.getByRole('option', { name: 'AWS.CloudTrail', exact: true }).click();
    const selectors = page
      .getByRole('textbox', { name: 'Selectors', exact: true })
      .or(page.getByRole('combobox', { name: 'Selectors', exact: true }))
      .first();
    await selectors.fill('$.sourceIPAddress');
    await selectors.press('Enter');
    // The selector suggestions stay open after Enter, over the buttons below; a user closes them, and so does this.
    await selectors.press('Escape');
    await page.getByRole('listbox').waitFor({ state: 'hidden' });
    await shot(page, '2-new-table');

    await page.getByRole('button', { name: 'Create table' }).click();
    await page.getByRole('heading', { name: 'Edit office_networks' }).waitFor();
    await page.getByText('3 rows · ').waitFor();

    const testBox = page.getByRole('textbox', { name: 'Test a value' });
    await testBox.fill('10.1.2.3');
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await page.getByText('10.1.2.3 matches a row').waitFor();
    expect(await page.getByText('"site": "office"').count()).toBe(1);
    await testBox.fill('192.0.2.1');
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await page.getByText('192.0.2.1 matches no row').waitFor();
    await testBox.fill('2001:db8::99');
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await page.getByText('2001:db8::99 matches a row').waitFor();
    await shot(page, '3-test-value');

    await page.getByRole('link', { name: 'Lookup Tables' }).first().click();
    const list = page.getByRole('table', { name: 'Lookup tables' });
    await list.getByRole('link', { name: 'office_networks' }).waitFor();
    expect(await list.getByText('AWS.CloudTrail').count()).toBe(1);
    await shot(page, '4-list');

    await page.goto(`${suite.runtime.url}/configure/enrichment-providers/`);
    await page.getByRole('heading', { name: 'Enrichment Providers' }).waitFor();
    await page.getByRole('heading', { name: 'Tor Exit Nodes' }).waitFor();
    await shot(page, '5-providers');
  });
});
