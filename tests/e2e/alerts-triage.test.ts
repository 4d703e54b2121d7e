// Alert triage in the browser against the local runtime: an analyst assigns an alert to themselves, comments,
// resolves it and closes a selection of alerts in bulk; script payloads in an alert's title, its events and a
// comment show as text and never run. Screenshots go to $SHOTS_DIR when it is set.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { partitionPath, SIGNALS_DATABASE } from '../../core/lake/layout';
import type { Alert } from '../../core/alerts/model';
import { putAlert } from '../../functions/lib/alerts/repository';
import { s3 } from '../../functions/lib/clients';
import { graphql, signIn } from '../local/harness';
import { useApiFunctionEnvironment } from '../functions/notifications/runtime-env';
import { browserSuite } from './browser';

const PASSWORD = 'Caracal-e2e-2026!';
const SHOTS_DIR = process.env.SHOTS_DIR;
const IMG = '<img src=x onerror="window.__xss=1">';
const SCRIPT = '<script>window.__xss=2</script>';
const TITLE = `Root login ${IMG} ${SCRIPT}`;
const ALERT_ID = 'a'.repeat(31) + '1';

const suite = browserSuite();

function alertOf(id: string, overrides: Partial<Alert> = {}): Alert {
  const at = new Date(Date.now() - 3_600_000).toISOString();
  return {
    id,
    type: 'ALERT',
    title: `Bulk alert ${id}`,
    severity: 'LOW',
    status: 'OPEN',
    detectionId: 'AWS.Console.RootLogin',
    systemKind: null,
    sourceId: null,
    description: null,
    logTypes: ['AWS.CloudTrail'],
    eventCount: 1,
    firstEventAt: at,
    lastEventAt: at,
    createdAt: at,
    updatedAt: at,
    dedupString: id,
    alertContext: null,
    runbook: null,
    reference: null,
    signalsTable: null,
    assigneeId: null,
    revision: 0,
    ...overrides,
  };
}

beforeAll(async () => {
  const env = useApiFunctionEnvironment(suite.runtime);
  const eventTime = new Date(Date.now() - 2 * 3_600_000).toISOString();
  await putAlert(
    alertOf(ALERT_ID, {
      title: TITLE,
      severity: 'CRITICAL',
      eventCount: 2,
      firstEventAt: eventTime,
      lastEventAt: eventTime,
      createdAt: new Date().toISOString(),
      runbook: `Check the console session. ${SCRIPT}`,
      reference: 'javascript:window.__xss=3',
      signalsTable: `${SIGNALS_DATABASE}.aws_cloudtrail`,
      alertContext: { note: IMG },
    }),
  );
  const rows = [1, 2].map((n) => ({
    p_alert_id: ALERT_ID,
    // Real rows always carry a row id: the events are ordered by (p_event_time, p_row_id), and these two share a time.
    p_row_id: `e2e-triage-row-${n}`,
    p_event_time: eventTime,
    p_log_type: 'AWS.CloudTrail',
    eventName: `ConsoleLogin ${n}`,
    userAgent: IMG,
    sourceIPAddress: SCRIPT,
  }));
  await s3().send(
    new PutObjectCommand({
      Bucket: env.LAKE_BUCKET,
      Key: `${partitionPath(SIGNALS_DATABASE, 'aws_cloudtrail', eventTime)}/e2e.json.gz`,
      Body: gzipSync(rows.map((r) => JSON.stringify(r)).join('\n')),
    }),
  );
  for (let i = 0; i < 14; i++) await putAlert(alertOf(`bulk${String(i).padStart(28, '0')}`));
  const [admin] = suite.runtime.createdUsers;
  const { idToken } = await signIn(suite.runtime, admin.username, admin.temporaryPassword, PASSWORD);
  const comment = await graphql(
    suite.runtime,
    {
      query: 'mutation($input: AddAlertCommentInput!) { addAlertComment(input: $input) { id } }',
      variables: {
        input: { alertId: ALERT_ID, text: `Payload check: ${IMG} and ${SCRIPT} and [link](javascript:window.__xss=4)` },
      },
    },
    idToken,
  );
  expect(comment.body.errors).toBeUndefined();
  if (SHOTS_DIR) mkdirSync(SHOTS_DIR, { recursive: true });
}, 120_000);

async function shot(page: Page, name: string) {
  if (SHOTS_DIR) await page.screenshot({ path: join(SHOTS_DIR, `${name}.png`), fullPage: true });
}

async function signInAsAdmin(page: Page) {
  await page.goto(`${suite.runtime.url}/`);
  await page.getByRole('textbox', { name: 'Email' }).waitFor({ timeout: 15_000 });
  await page.getByRole('textbox', { name: 'Email' }).fill(suite.runtime.createdUsers[0].username);
  await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('banner').waitFor();
}

const noScriptRan = async (page: Page) =>
  expect(await page.evaluate(() => (globalThis as { __xss?: unknown }).__xss)).toBeUndefined();

describe('alert triage in the web app', () => {
  it('shows payloads as text, assigns, comments, resolves and bulk-closes', async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1440, height: 1000 } });
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await signInAsAdmin(page);

    await page.goto(`${suite.runtime.url}/alerts-and-errors/?type=ALERT`);
    const table = page.getByRole('table', { name: 'Alerts' });
    await table.getByRole('link', { name: TITLE }).waitFor();
    await shot(page, 'alerts-list');
    await noScriptRan(page);

    await table.getByRole('link', { name: TITLE }).click();
    await page.getByRole('heading', { name: TITLE }).waitFor();
    // The events from the lake, their payloads as text.
    await page.getByRole('table', { name: 'Events' }).getByText('ConsoleLogin 1').waitFor();
    expect(await page.getByRole('table', { name: 'Events' }).getByText(IMG).count()).toBeGreaterThan(0);
    // A reference that is not an http(s) URL is no link; the comment's javascript: link neither.
    expect(await page.getByRole('link', { name: 'javascript:window.__xss=3' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'link' }).count()).toBe(0);
    await page.getByText(`Payload check: ${IMG} and ${SCRIPT}`, { exact: false }).waitFor();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    await noScriptRan(page);

    // Assign to me (the administrator), comment, resolve.
    await page.getByRole('combobox', { name: 'Assignee' }).click();
    await page
      .getByRole('option', { name: /admin|@/ })
      .first()
      .click();
    await page.getByText(/assigned it to/).waitFor();
    await page.getByRole('textbox', { name: 'Add a comment' }).fill('Confirmed with **Alice**: expected login.');
    await page.getByRole('button', { name: 'Comment' }).click();
    await page.locator('strong', { hasText: 'Alice' }).waitFor();
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Resolved' }).click();
    await page.getByText('changed the status from OPEN to RESOLVED').waitFor();
    await shot(page, 'alert-details');
    await page.getByRole('row').filter({ hasText: 'ConsoleLogin 1' }).getByRole('button', { name: 'JSON' }).click();
    await page.getByRole('dialog', { name: 'Event' }).getByText('"eventName": "ConsoleLogin 1"', { exact: false }).waitFor();
    await shot(page, 'alert-event-json');
    await page.keyboard.press('Escape');
    await noScriptRan(page);

    // Bulk close every open alert.
    await page.goto(`${suite.runtime.url}/alerts-and-errors/?status=OPEN`);
    await page.getByRole('table', { name: 'Alerts' }).getByText('Bulk alert').first().waitFor();
    await page.getByRole('checkbox', { name: 'Select all alerts shown' }).check();
    await page.getByText('14 selected').waitFor();
    await page.getByRole('combobox', { name: 'New status' }).click();
    await page.getByRole('option', { name: 'Closed' }).click();
    await page.getByRole('button', { name: 'Apply status' }).click();
    await page.getByText('Set status to Closed: 14 of 14 alerts changed').waitFor();
    await shot(page, 'alerts-bulk-closed');

    await page.goto(`${suite.runtime.url}/alerts-and-errors/?status=CLOSED&sort=severity`);
    await page.getByRole('table', { name: 'Alerts' }).getByText('Bulk alert').first().waitFor();
    await noScriptRan(page);

    // Filters live in the URL: chosen in the bar, kept on reload.
    await page.goto(`${suite.runtime.url}/alerts-and-errors/`);
    await page.getByRole('table', { name: 'Alerts' }).getByText('Bulk alert').first().waitFor();
    await page.getByRole('textbox', { name: 'Title' }).fill('root login');
    await page.getByRole('textbox', { name: 'Title' }).press('Enter');
    await page.getByRole('combobox', { name: 'Created' }).click();
    await page.getByRole('option', { name: 'Custom range' }).click();
    await page.getByRole('textbox', { name: 'From (UTC)' }).fill('2020-01-01T00:00');
    await page.waitForURL(/q=root\+login/);
    expect(new URL(page.url()).searchParams.get('created')).toBe('custom');
    await page.reload();
    await page.getByRole('table', { name: 'Alerts' }).getByRole('link', { name: TITLE }).waitFor();
    expect(await page.getByRole('table', { name: 'Alerts' }).getByText('Bulk alert').count()).toBe(0);
    expect(await page.getByRole('textbox', { name: 'Title' }).inputValue()).toBe('root login');
    await shot(page, 'alerts-filtered');
    expect(dialogs).toEqual([]);
    await page.close();
  }, 180_000);
});
