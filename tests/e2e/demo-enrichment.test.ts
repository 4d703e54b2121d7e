// The demo's enrichment as a new user sees it, in Chromium against the local runtime: after the demo is seeded,
// Enrichment Providers lists the two bundled demo tables (Tor exit nodes, threat intel), the alert of the demo detection that reads their enrichment
// (a console login from a Tor exit node) shows its context, and a search opened from a dashboard widget
// (dashboard-widget-search/) runs at once over the enriched events and names the widget. Screenshots go to
// SHOTS_DIR when it is set.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoFunctionName, seedDemo } from '../../demo/seed';
import { dashboardWidgetSearchPath, detectionAlertsPath } from '../../web/src/app/routes';
import { browserSuite } from './browser';

const NEW_PASSWORD = 'Caracal-e2e-2026!';
const suite = browserSuite();

async function shot(page: Page, name: string) {
  if (process.env.SHOTS_DIR) await page.screenshot({ path: join(process.env.SHOTS_DIR, `${name}.png`), fullPage: true });
}

describe('the demo, enriched, in the browser', () => {
  it('shows the demo enrichment tables, the enriched alert and a search opened from a dashboard widget', async () => {
    const demo = demoFunctionName(suite.runtime.functions.values())!;
    expect(await seedDemo(suite.runtime.invoke, demo)).toMatch(/created the lookup tables/);
    const [admin] = suite.runtime.createdUsers;
    const page = await suite.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && pageErrors.push(m.text()));
    await page.goto(`${suite.runtime.url}/configure/enrichment-providers/`);
    await page
      .getByRole('textbox', { name: 'Email' })
      .waitFor()
      .catch(async (e: unknown) => {
        await shot(page, '0-sign-in-failed');
        throw new Error(`${String(e)}; page errors: ${pageErrors.join(' | ')}`);
      });
    await page.getByRole('textbox', { name: 'Email' }).fill(admin!.username);
    await page.getByRole('textbox', { name: 'Password' }).fill(admin!.temporaryPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('textbox', { name: 'Confirm new password' }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    // the demo's tables are packaged providers' tables: under Enrichment Providers, with their rows
    await page.getByRole('link', { name: 'demo_threat_intel: 4 rows' }).waitFor();
    await page.getByRole('link', { name: 'demo_tor_exit_nodes: 4 rows' }).click();
    await page.getByText('AWS.CloudTrail').first().waitFor();
    await shot(page, '1-demo-lookup-tables');

    // the alert the enrichment raises (the first round's events are processed meanwhile)
    const deadline = Date.now() + 90_000;
    for (;;) {
      await page.goto(`${suite.runtime.url}${detectionAlertsPath('Demo.AWS.ConsoleLoginFromTor')}`);
      const link = page.getByText(/from Tor exit node 198\.51\.100\.201/).first();
      if (
        await link
          .waitFor({ timeout: 20_000 })
          .then(() => true)
          .catch(() => false)
      ) {
        await link.click();
        break;
      }
      if (Date.now() > deadline) {
        await shot(page, '2-alerts-failed');
        throw new Error('no alert from the Tor demo detection');
      }
    }
    await page.getByText('Anonymizing relay', { exact: false }).first().waitFor();
    await shot(page, '2-enriched-alert');

    await page.goto(
      `${suite.runtime.url}${dashboardWidgetSearchPath({
        title: 'Console logins from Tor exit nodes',
        dashboardPath: '/dashboard/overview/',
        mode: 'SQL',
        query:
          "SELECT p_event_time, sourceIPAddress, p_enrichment FROM panther_logs.public.aws_cloudtrail WHERE eventName = 'ConsoleLogin' AND p_enrichment IS NOT NULL",
        range: { preset: 'PT24H' },
      })}`,
    );
    await page.getByText('the search behind the widget').waitFor();
    await page.getByText('Console logins from Tor exit nodes').first().waitFor();
    await page.getByRole('link', { name: 'Back to the dashboard' }).waitFor();
    await page.getByText('198.51.100.201').first().waitFor({ timeout: 60_000 });
    await shot(page, '3-dashboard-widget-search');
    await page.close();
  });
});
