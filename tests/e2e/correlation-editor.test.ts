// The correlation-rule editor in the browser: a sequence rule written in YAML over two existing rules (one of
// them disabled), its flow chart, converted to a group and back, a unit test with RuleOutputs run on the
// server, the step-by-step view of the evaluator's trace, and the save.
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { graphql, signIn } from '../local/harness';
import { browserSuite } from './browser';

const NEW_PASSWORD = 'Caracal-e2e-2026!';
const suite = browserSuite();
let page: Page;
let token: string;
/** Screenshots for a person to look at, when CORRELATION_SHOTS names a folder. */
const SHOTS = process.env.CORRELATION_SHOTS;

async function shot(name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

const rule = (id: string, enabled: boolean) => ({
  yaml: `AnalysisType: rule\nRuleID: ${id}\nFilename: rule.py\nEnabled: ${enabled}\nSeverity: Low\nLogTypes: [Okta.SystemLog]\n`,
  body: 'def rule(event):\n    return True\n',
});

async function replaceEditorText(label: string | RegExp, text: string) {
  const editor = page.getByRole('textbox', { name: label });
  await editor.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
  await page.keyboard.press('Shift+ControlOrMeta+End');
  await page.keyboard.press('Delete');
}

beforeAll(async () => {
  page = await suite.browser.newPage({ viewport: { width: 1500, height: 1000 } });
  const [admin] = suite.runtime.createdUsers;
  await page.goto(`${suite.runtime.url}/build/detections/`);
  await page.getByRole('textbox', { name: 'Email' }).fill(admin!.username);
  await page.getByRole('textbox', { name: 'Password' }).fill(admin!.temporaryPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('textbox', { name: 'Confirm new password' }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await page.getByRole('heading', { name: 'Detections', exact: true }).waitFor();
  ({ idToken: token } = await signIn(suite.runtime, admin!.username, NEW_PASSWORD));
  for (const [id, enabled] of [
    ['E2E.Corr.Login', true],
    ['E2E.Corr.Admin', false],
  ] as const) {
    const saved = await graphql(
      suite.runtime,
      {
        query: 'mutation($input: SaveDetectionInput!) { createDetection(input: $input) { id } }',
        variables: { input: rule(id, enabled) },
      },
      token,
    );
    expect(saved.body.errors).toBeUndefined();
  }
}, 120_000);

describe('the correlation-rule editor', () => {
  it('charts a sequence, converts it to a group and back, tests it, explains the match and saves it', async () => {
    await page.goto(`${suite.runtime.url}/build/detections/correlation-rules/new/`);
    await page.getByRole('heading', { name: 'New Correlation Rule' }).waitFor();
    await replaceEditorText(
      'Correlation rule body',
      '- {Sequence: [{ID: Login, RuleID: E2E.Corr.Login}, {ID: Admin, RuleID: E2E.Corr.Admin}], Transitions: [{ID: Login to Admin, From: Login, To: Admin, WithinTimeFrameMinutes: 30, Match: [{On: actor}]}], Schedule: {RateMinutes: 15, TimeoutMinutes: 2}, LookbackWindowMinutes: 60}',
    );
    const chart = page.getByTestId('correlation-chart');
    await expect.poll(() => chart.getAttribute('data-form')).toBe('sequence');
    await page.getByTestId('chart-node-Login').waitFor();
    await expect.poll(() => page.getByTestId('chart-edge').innerText()).toContain('within 30 min');
    // The disabled rule's node: the §4 tooltip.
    await page.getByTestId('chart-node-Admin').hover();
    await page.getByText('This rule is currently disabled. Please enable for the Correlation Rule to work.').waitFor();
    await shot('1-sequence-chart');

    await page.getByRole('button', { name: 'Organize Rules as Group' }).click();
    await page.getByTestId('chart-group').waitFor();
    await expect.poll(() => page.getByTestId('chart-group').innerText()).toContain('Group: at least 2 of 2');
    await shot('2-group-chart');
    await page.getByRole('button', { name: 'Organize Rules as Sequence' }).click();
    await expect.poll(() => chart.getAttribute('data-form')).toBe('sequence');
    await expect.poll(() => page.getByTestId('chart-edge').innerText()).toContain('On actor');

    await page.getByRole('tab', { name: 'Alert Settings' }).click();
    expect(new URL(page.url()).searchParams.get('section')).toBe('alert-form');
    await page.getByRole('textbox', { name: 'Rule ID' }).fill('E2E.Corr.Chain');
    await page.getByRole('textbox', { name: 'Name' }).fill('Login then admin');

    await page.getByRole('tab', { name: 'Unit Tests' }).click();
    await page.getByText('Add a new unit test to start testing your correlation rule.').waitFor();
    await page.getByRole('button', { name: '+ Add new unit test' }).click();
    await replaceEditorText(
      /^Unit test /,
      '{ExpectedResult: true, RuleOutputs: [{ID: Login, Matches: {actor: {alice: [0]}}}, {ID: Admin, Matches: {actor: {alice: [10]}}}]}',
    );
    await page.getByRole('button', { name: 'Run Test', exact: true }).click();
    await expect.poll(() => page.getByTestId('test-run-message').innerText(), { timeout: 30_000 }).toBe('Test Passed!');
    await page.getByRole('button', { name: 'Hide results' }).click();
    await page.getByRole('button', { name: 'View results' }).click();
    await page.getByRole('button', { name: 'Step by step' }).click();
    const view = page.getByTestId('correlation-step-by-step');
    await view.waitFor();
    await expect.poll(() => view.innerText()).toContain('The rule matched 1 time');
    await expect.poll(() => page.getByTestId('trace-transitions').innerText()).toContain('held');
    await shot('3-step-by-step');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Login then admin' }).waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).pathname).toBe('/build/detections/correlation-rules/E2E.Corr.Chain/');
    await page.getByTestId('chart-node-Admin').waitFor();
    await shot('4-saved');
  }, 180_000);
});
