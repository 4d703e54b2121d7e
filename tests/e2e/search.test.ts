// Search in the browser over the demo data: a PantherFlow query written with completion (the table name) and a
// deliberate typo (an unknown function: its diagnostic, then its quick fix), run on the local Athena stand-in,
// an event opened in the sidesheet, the search saved and found under Saved Searches, and the run found in
// Search History. Screenshots of every Investigate page when CARACAL_SHOTS names a folder.
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoFunctionName, seedDemo } from '../../demo/seed';
import { graphql, signIn } from '../local/harness';
import { browserSuite } from './browser';
import { signInFirstAdmin } from './sign-in';

const SHOTS = process.env.CARACAL_SHOTS;
const SAVED_NAME = 'E2E CloudTrail events';
const suite = browserSuite();
let page: Page;
let token: string;

async function shot(name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function call<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const { body } = await graphql(suite.runtime, { query, variables }, token);
  if (body.errors?.length) throw new Error(JSON.stringify(body.errors));
  return body.data as T;
}

/** The PantherFlow query as the page's URL holds it (the editor writes every change there). */
const urlQuery = () => new URL(page.url()).searchParams.get('query') ?? '';

/** Types into the focused Monaco editor line by line, closing any suggestion list before a new line. */
async function typeLines(lines: readonly string[]) {
  for (const [i, line] of lines.entries()) {
    await page.keyboard.type(line, { delay: 10 });
    await page.keyboard.press('Escape');
    if (i < lines.length - 1) await page.keyboard.press('Enter');
  }
}

beforeAll(async () => {
  const runtime = suite.runtime;
  await seedDemo(runtime.invoke, demoFunctionName(runtime.functions.values())!);
  page = await suite.browser.newPage({ viewport: { width: 1500, height: 1100 } });
  const admin = await signInFirstAdmin(page, runtime, '/investigate/search/?mode=pantherflow&range=PAllTime');
  await page.getByRole('heading', { name: 'Search', exact: true }).waitFor({ timeout: 60_000 });
  token = (await signIn(runtime, admin.username, admin.password)).idToken;
}, 240_000);

describe('PantherFlow search in the browser', () => {
  it('completes, diagnoses and fixes a typo, runs over the demo data, opens an event, saves and finds the search in history', async () => {
    // The demo's CloudTrail events reach the lake through the pipeline; wait until the catalog has the table.
    type Catalog = { lakeCatalog: { name: string; tables: { name: string }[] }[] };
    await expect
      .poll(
        async () =>
          (await call<Catalog>('{ lakeCatalog { name tables { name } } }')).lakeCatalog.flatMap((d) =>
            d.tables.map((t) => t.name),
          ),
        { timeout: 90_000, interval: 1000 },
      )
      .toContain('aws_cloudtrail');
    await page.reload();
    await page.getByRole('heading', { name: 'Search', exact: true }).waitFor();
    await page.getByRole('tab', { name: 'PantherFlow Search', selected: true }).waitFor();
    const editor = page.getByTestId('pantherflow-editor');
    await editor.locator('.view-lines').waitFor();
    await editor.locator('.view-lines').click();

    // Completion: the table name from the lake catalog.
    await page.keyboard.type('panther_logs.public.aws_cloudt', { delay: 20 });
    const suggestion = page.locator('.suggest-widget .monaco-list-row', { hasText: 'aws_cloudtrail' }).first();
    await suggestion.waitFor({ timeout: 15_000 });
    await shot('search-pantherflow-completion');
    await page.keyboard.press('Enter');
    await expect.poll(urlQuery).toBe('panther_logs.public.aws_cloudtrail');

    // A deliberate typo: strings.lenn is no function; the editor marks it and offers strings.len.
    await page.keyboard.press('Enter');
    await typeLines(['| where strings.lenn(eventName) > 0', '| limit 50']);
    await expect.poll(urlQuery).toContain('strings.lenn(eventName)');
    await editor.locator('.squiggly-error').first().waitFor({ timeout: 15_000 });
    await shot('search-pantherflow-diagnostic');
    await editor.getByText('lenn').first().click();
    await page.keyboard.press('Control+.');
    const fix = page.getByText('Change to strings.len', { exact: false }).first();
    await fix.waitFor({ timeout: 15_000 });
    await shot('search-pantherflow-quick-fix');
    await fix.click();
    await expect.poll(urlQuery).toContain('where strings.len(eventName) > 0');
    await expect.poll(() => editor.locator('.squiggly-error').count(), { timeout: 15_000 }).toBe(0);

    // Run over the demo data.
    await page.getByRole('button', { name: 'Run search' }).click();
    const status = page.getByLabel('Search status');
    await status.getByText('SUCCEEDED').waitFor({ timeout: 60_000 });
    const rows = page.getByRole('table', { name: 'Search results' }).getByRole('row');
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBeGreaterThan(1);
    await expect(status.getByText(/Bytes scanned:/)).toBeTruthy();
    await shot('search-results');

    // Open an event: its fields and JSON, as text.
    await rows.nth(1).click();
    const drawer = page.getByRole('dialog', { name: 'Event' });
    await drawer.waitFor();
    await expect.poll(() => drawer.getByTestId('event-json').innerText()).toContain('"eventName"');
    await shot('search-event');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });

    // Save the search and find it under Saved Searches.
    await page.getByRole('button', { name: 'Save search' }).click();
    const form = page.getByRole('dialog', { name: 'Save search' });
    await form.getByRole('textbox', { name: 'Name' }).fill(SAVED_NAME);
    await form.getByRole('textbox', { name: 'Description' }).fill('Demo CloudTrail events with a name');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText(`Saved as "${SAVED_NAME}".`).waitFor();
    await page.getByRole('navigation').getByRole('link', { name: 'Saved Searches' }).click();
    await page.getByRole('heading', { name: 'Saved Searches' }).waitFor();
    await page.getByRole('link', { name: SAVED_NAME }).waitFor();
    await shot('saved-searches');

    // The run is in Search History, and opens with its results.
    await page.getByRole('navigation').getByRole('link', { name: 'Search History' }).click();
    await page.getByRole('heading', { name: 'Search History' }).waitFor();
    const history = page.getByRole('table', { name: 'Search history' });
    await history.getByText('strings.len(eventName) > 0').first().waitFor();
    await shot('search-history');
    await history.getByText('strings.len(eventName) > 0').first().click();
    await page.getByLabel('Search status').getByText('SUCCEEDED').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByRole('table', { name: 'Search results' }).getByRole('row').count()).toBeGreaterThan(1);

    // Opening the saved search fills the page with its query.
    await page.goto(`${suite.runtime.url}/investigate/saved-searches/`);
    await page.getByRole('link', { name: SAVED_NAME }).click();
    await page.getByRole('tab', { name: 'PantherFlow Search', selected: true }).waitFor();
    await expect.poll(urlQuery).toContain('strings.len(eventName) > 0');
  });

  it('shows the builder, Native SQL, the data explorer and indicator search', async () => {
    await page.goto(`${suite.runtime.url}/investigate/search/?logType=AWS.CloudTrail&range=PAllTime`);
    await page.getByRole('tab', { name: 'Search', selected: true }).waitFor();
    await page.getByRole('button', { name: 'Run search' }).click();
    await page.getByLabel('Search status').getByText('SUCCEEDED').waitFor({ timeout: 60_000 });
    await shot('search-builder');
    await page.getByRole('tab', { name: 'Native SQL' }).click();
    await page.getByTestId('sql-editor').locator('.view-lines').waitFor();
    await shot('search-sql');

    await page.goto(`${suite.runtime.url}/investigate/data-explorer/`);
    await page.getByRole('heading', { name: 'Data Explorer' }).waitFor();
    await page
      .getByRole('navigation', { name: 'Databases and tables' })
      .getByText('aws_cloudtrail', { exact: true })
      .first()
      .click();
    await page.getByRole('table', { name: 'Columns' }).getByText('eventName').waitFor();
    await page.getByRole('button', { name: 'Show recent rows' }).click();
    await expect
      .poll(() => page.getByRole('table', { name: 'Search results' }).getByRole('row').count(), { timeout: 60_000 })
      .toBeGreaterThan(1);
    await shot('data-explorer');

    await page.goto(`${suite.runtime.url}/investigate/indicator-search/`);
    await page.getByRole('heading', { name: 'Indicator Search' }).waitFor();
    // The demo's console sign-ins come from 192.0.2.44 (p_any_ip_addresses).
    await page.getByRole('textbox', { name: 'Indicator' }).fill('192.0.2.44');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const counts = page.getByRole('table', { name: 'Matches per log type' });
    await counts.getByText('AWS.CloudTrail').waitFor({ timeout: 60_000 });
    await shot('indicator-search');
    await counts.getByRole('link', { name: 'Show the rows' }).first().click();
    await page.getByRole('tab', { name: 'Native SQL', selected: true }).waitFor();
    await page.getByRole('button', { name: 'Run search' }).click();
    await page.getByLabel('Search status').getByText('SUCCEEDED').waitFor({ timeout: 60_000 });
    await expect.poll(() => page.getByRole('table', { name: 'Search results' }).getByRole('row').count()).toBeGreaterThan(1);
    await shot('indicator-rows');
  });
});
