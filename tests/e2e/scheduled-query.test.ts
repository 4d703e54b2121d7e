// The detections console's newer screens on the local runtime: a scheduled query written in the browser (SQL in
// the search page's editor, a cron schedule from its five fields, the save checks), saved through the API and
// shown with its scheduled rules and runs; a scheduled rule choosing it; a simple detection's dynamic
// severities; and 'Add Filter' opened from a rule's page.
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { readYaml } from '../../core/yaml';
import { graphql, signIn } from '../local/harness';
import { browserSuite } from './browser';
import { signInFirstAdmin } from './sign-in';

const SHOTS = process.env.CARACAL_SHOTS;
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

const CREATE = 'mutation($input: SaveDetectionInput!) { createDetection(input: $input) { id versionId } }';

beforeAll(async () => {
  const runtime = suite.runtime;
  page = await suite.browser.newPage({ viewport: { width: 1500, height: 1100 } });
  const admin = await signInFirstAdmin(page, runtime, '/alerts-and-errors/', { onFailure: () => shot('sign-in-failed') });
  token = (await signIn(runtime, admin.username, admin.password)).idToken;
}, 180_000);

describe('scheduled queries in the console', () => {
  it('are written with a cron schedule and the save checks, saved, and chosen by a scheduled rule', async () => {
    await page.goto(`${suite.runtime.url}/build/detections/new/`);
    await page.getByRole('link', { name: 'Scheduled Query' }).click();
    await page.getByRole('heading', { name: 'New Scheduled Query' }).waitFor({ timeout: 60_000 });
    await page.getByRole('textbox', { name: 'Query Name' }).fill('Root Logins Every 6 Hours');
    await page.getByTestId('sql-editor').waitFor({ timeout: 60_000 });
    // The template reads events with a LIMIT and a time placeholder: nothing is flagged.
    const checks = page.getByRole('status', { name: 'Query checks' });
    expect(await checks.innerText()).toContain('This query returns events: it needs a LIMIT clause');
    await page.getByText('Cron expression').click();
    const cron = page.getByRole('group', { name: 'Cron schedule' });
    await cron.getByRole('textbox', { name: 'Hours' }).fill('25');
    await page.getByText("CronExpression hour '25' must be from 0 to 23").waitFor();
    await cron.getByRole('textbox', { name: 'Hours' }).fill('*/6');
    await page.getByTestId('next-run').waitFor();
    await shot('scheduled-01-new');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Root Logins Every 6 Hours' }).waitFor({ timeout: 30_000 });
    await page.getByText('No scheduled rule runs on this query yet', { exact: false }).waitFor();
    await page.getByText('This detection has not run yet.', { exact: false }).waitFor();
    await shot('scheduled-02-page');
    const stored = await call<{ detection: { yaml: string; schedule: { cronExpression: string; timeoutMinutes: number } } }>(
      'query($id: ID!) { detection(id: $id) { yaml schedule { cronExpression timeoutMinutes } } }',
      { id: 'Root Logins Every 6 Hours' },
    );
    expect(stored.detection.schedule).toEqual({ cronExpression: '0 */6 * * *', timeoutMinutes: 2 });
    expect((readYaml(stored.detection.yaml) as Record<string, unknown>).AnalysisType).toBe('scheduled_query');

    await call(CREATE, {
      input: {
        yaml: 'AnalysisType: scheduled_rule\nRuleID: E2E.Sched.Root\nFilename: e2e_sched_root.py\nEnabled: true\nSeverity: High\nScheduledQueries: [Root Logins Every 6 Hours]\n',
        body: 'def rule(event):\n    return True\n',
      },
    });
    await page.reload();
    await page.getByRole('link', { name: 'E2E.Sched.Root' }).waitFor({ timeout: 30_000 });
    await page.goto(`${suite.runtime.url}/build/detections/rules/E2E.Sched.Root/edit/`);
    const chosen = page.getByRole('region', { name: 'Scheduled query Root Logins Every 6 Hours' });
    await chosen.getByText('cron 0 */6 * * * (UTC), timeout 2 min').waitFor({ timeout: 60_000 });
    await shot('scheduled-03-rule-form');
  });
});

describe('a simple detection with dynamic severities', () => {
  it('shows them on its page, and its page opens the Add Filter sheet', async () => {
    await call(CREATE, {
      input: {
        yaml: [
          'AnalysisType: rule',
          'RuleID: E2E.Simple.Dynamic',
          'DisplayName: E2E dynamic severities',
          'Enabled: true',
          'Severity: Low',
          'LogTypes: [AWS.CloudTrail]',
          'Detection:',
          '  - KeyPath: eventName',
          '    Condition: Equals',
          '    Value: ConsoleLogin',
          'DynamicSeverities:',
          '  - ChangeTo: CRITICAL',
          '    Conditions:',
          '      - KeyPath: userIdentity.type',
          '        Condition: Equals',
          '        Value: Root',
          '',
        ].join('\n'),
      },
    });
    await page.goto(`${suite.runtime.url}/build/detections/rules/E2E.Simple.Dynamic/`);
    const dynamic = page.getByRole('region', { name: 'Dynamic Severities' });
    await dynamic.getByText('when userIdentity.type is "Root"').waitFor({ timeout: 60_000 });
    await shot('dynamic-01-page');
    await page.getByRole('button', { name: 'Add Filter' }).click();
    await page
      .getByRole('dialog', { name: 'Add Filter' })
      .getByText(/the rule runs only on events that match every filter/)
      .waitFor();
    await shot('dynamic-02-add-filter');
    await page.goto(`${suite.runtime.url}/build/detections/rules/E2E.Simple.Dynamic/edit/`);
    const field = page.getByRole('group', { name: 'Dynamic Severities' });
    await field.getByRole('group', { name: 'Dynamic severity 1', exact: true }).waitFor({ timeout: 60_000 });
    await shot('dynamic-03-form');
  });
});
