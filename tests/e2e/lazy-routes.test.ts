// Every screen loads on its first visit (web/src/app/AppRoutes.tsx, React.lazy): in Chromium against the local
// runtime, the sign-in page, then each section's page after signing in, renders its heading with no page
// error and no failed script, and only the screens that draw charts or edit code fetch echarts or Monaco.
// Screenshots go to /tmp/shots/first-load/.
import { mkdirSync } from 'node:fs';
import { type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  ALERT_ROUTES,
  DATA_MODEL_ROUTES,
  DESTINATION_ROUTES,
  DETECTION_EDITOR_ROUTES,
  DETECTION_ROUTES,
  ENRICHMENT_PROVIDER_ROUTES,
  HELPER_ROUTES,
  LOG_SOURCE_ROUTES,
  LOOKUP_TABLE_ROUTES,
  PACK_ROUTES,
  SCHEMA_ROUTES,
  SEARCH_ROUTES,
  SETTINGS_ROUTES,
  SUPPORT_PATH,
} from '../../web/src/app/routes';
import { browserSuite } from './browser';

const NEW_PASSWORD = 'Lazy-routes-Passw0rd!';
const SHOTS = '/tmp/shots/first-load';

const suite = browserSuite();

const ROUTES: readonly string[] = [
  ALERT_ROUTES.list,
  DETECTION_ROUTES.list,
  DETECTION_EDITOR_ROUTES.new,
  HELPER_ROUTES.list,
  DATA_MODEL_ROUTES.list,
  PACK_ROUTES.list,
  SEARCH_ROUTES.search,
  SEARCH_ROUTES.savedSearches,
  SEARCH_ROUTES.searchHistory,
  SEARCH_ROUTES.dataExplorer,
  SEARCH_ROUTES.indicatorSearch,
  LOG_SOURCE_ROUTES.list,
  LOG_SOURCE_ROUTES.add,
  SCHEMA_ROUTES.list,
  DESTINATION_ROUTES.list,
  DESTINATION_ROUTES.new,
  LOOKUP_TABLE_ROUTES.list,
  ENRICHMENT_PROVIDER_ROUTES.list,
  SETTINGS_ROUTES.general,
  SETTINGS_ROUTES.users,
  SETTINGS_ROUTES.roles,
  SUPPORT_PATH,
];

/** Scripts fetched from now on, and page errors and failed requests. */
function watch(page: Page) {
  const scripts: string[] = [];
  const problems: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  // A query still running when the next page is opened is aborted by the browser: not a failure.
  page.on('requestfailed', (r) => {
    if (r.failure()?.errorText !== 'net::ERR_ABORTED' || r.resourceType() === 'script')
      problems.push(`failed: ${r.url()} ${r.failure()?.errorText ?? ''}`);
  });
  return { scripts, problems };
}

const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png` });
const mainHeading = (page: Page) => page.getByRole('main').getByRole('heading').first();

describe('screens loaded with their routes', () => {
  it('renders the sign-in page and then every section page', async () => {
    mkdirSync(SHOTS, { recursive: true });
    const page = await suite.browser.newPage({ viewport: { width: 1440, height: 900 } });
    const seen = watch(page);
    const [admin] = suite.runtime.createdUsers;
    await page.goto(`${suite.runtime.url}/`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await shot(page, 'sign-in');
    // Signing in needs neither the charts, the editors, nor the signed-in shell.
    expect(seen.scripts.filter((s) => /echarts|monaco|AppLayout/i.test(s))).toEqual([]);

    await page.getByRole('textbox', { name: 'Email' }).fill(admin!.username);
    await page.getByRole('textbox', { name: 'Password' }).fill(admin!.temporaryPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('textbox', { name: 'Confirm new password' }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    await shot(page, 'home');

    const withCharts: string[] = [];
    for (const route of ROUTES) {
      const before = seen.scripts.length;
      await page.goto(`${suite.runtime.url}${route}`);
      await mainHeading(page).waitFor({ timeout: 30_000 });
      await expect.poll(() => page.getByLabel('Loading', { exact: true }).count(), { timeout: 30_000 }).toBe(0);
      if (seen.scripts.slice(before).some((s) => /echarts/i.test(s))) withCharts.push(route);
      await shot(page, route.replace(/^\/|\/$/g, '').replaceAll('/', '_'));
    }
    expect(seen.problems).toEqual([]);
    // Only the search page (its histogram) among these draws charts.
    expect(withCharts).toEqual([SEARCH_ROUTES.search]);
    await page.close();
  });
});
