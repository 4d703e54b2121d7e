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
  // Let a dialog's opening transition end, so the picture shows it as a person sees it.
  await page.waitForTimeout(400);
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

/** The xyflow ids of the chart's nodes or edges, in the order drawn. */
async function flowIds(selector: '.react-flow__node' | '.react-flow__edge') {
  const elements = await page.getByTestId('correlation-flow').locator(selector).all();
  return Promise.all(elements.map((e) => e.getAttribute('data-id')));
}

/** The transitions' labels, one string each, their lines joined with ' · '. */
async function edgeLabels() {
  const texts = await page.getByTestId('chart-edge-label').allInnerTexts();
  return texts.map((t) => t.split(/\n+/).join(' · '));
}

async function boxOf(testId: string) {
  const box = await page.getByTestId(testId).boundingBox();
  if (!box) throw new Error(`${testId} is not on the page`);
  return box;
}

/** The edge's drawn path starts at the bottom of one step node and ends at the top of the next. */
async function expectEdgeFromTo(edgeId: string, from: string, to: string) {
  const path = await page.locator(`.react-flow__edge[data-id="${edgeId}"] path.react-flow__edge-path`).boundingBox();
  const [a, b] = await Promise.all([boxOf(`chart-node-${from}`), boxOf(`chart-node-${to}`)]);
  expect(path).not.toBeNull();
  expect(Math.abs(path!.y - (a.y + a.height))).toBeLessThan(4);
  expect(Math.abs(path!.y + path!.height - b.y)).toBeLessThan(4);
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
    ['E2E.Corr.Logout', true],
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
  // A policy, which a correlation rule cannot use ('Cannot use policies').
  const policy = await graphql(
    suite.runtime,
    {
      query: 'mutation($input: SaveDetectionInput!) { createDetection(input: $input) { id } }',
      variables: {
        input: {
          yaml: 'AnalysisType: policy\nPolicyID: E2E.Corr.Bucket\nEnabled: true\nSeverity: Low\nResourceTypes: [AWS.S3.Bucket]\nFilename: p.py\n',
          body: 'def policy(resource):\n    return True\n',
        },
      },
    },
    token,
  );
  expect(policy.body.errors).toBeUndefined();
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
    // The xyflow chart: two step nodes, one transition edge labelled with its time frame and join.
    await expect.poll(() => flowIds('.react-flow__node')).toEqual(['step-1', 'step-2']);
    await expect.poll(() => flowIds('.react-flow__edge')).toEqual(['edge-1']);
    await page.getByTestId('chart-node-Login').waitFor();
    await expect.poll(() => edgeLabels()).toEqual(['within 30 min · On actor']);
    await expectEdgeFromTo('edge-1', 'Login', 'Admin');
    // The disabled rule's node: the tooltip asking to enable it.
    await page.getByTestId('chart-node-Admin').hover();
    await page.getByText('This rule is currently disabled. Please enable for the Correlation Rule to work.').waitFor();
    await shot('1-sequence-chart');

    await page.getByRole('button', { name: 'Organize Rules as Group' }).click();
    await page.getByTestId('chart-group').waitFor();
    await expect.poll(() => page.getByTestId('chart-group').innerText()).toContain('Group: at least 2 of 2');
    // The transition's join became the group's MatchCriteria, shown under the title.
    expect(await page.getByTestId('chart-group-criterion').allInnerTexts()).toEqual(['On actor']);
    // One group node holding the two entries side by side, no edges.
    await expect.poll(() => flowIds('.react-flow__node')).toEqual(['group', 'step-1', 'step-2']);
    await expect.poll(() => flowIds('.react-flow__edge')).toEqual([]);
    const [login, admin] = await Promise.all([boxOf('chart-node-Login'), boxOf('chart-node-Admin')]);
    expect(Math.abs(login.y - admin.y)).toBeLessThan(2);
    expect(admin.x).toBeGreaterThan(login.x + login.width);
    await shot('2-group-chart');
    await page.getByRole('button', { name: 'Organize Rules as Sequence' }).click();
    await expect.poll(() => chart.getAttribute('data-form')).toBe('sequence');
    await expect.poll(() => flowIds('.react-flow__edge')).toEqual(['edge-1']);
    // The time frame came back with the sequence.
    await expect.poll(() => edgeLabels()).toEqual(['within 30 min · On actor']);

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

  it('draws every step state, the group, the Invalid YAML panel and the empty body, in both themes', async () => {
    await page.goto(`${suite.runtime.url}/build/detections/correlation-rules/new/`);
    await page.getByRole('heading', { name: 'New Correlation Rule' }).waitFor();
    const panel = page.getByLabel('Flow chart', { exact: true });
    const chartShot = async (name: string) => {
      if (!SHOTS) return;
      mkdirSync(SHOTS, { recursive: true });
      await panel.screenshot({ path: `${SHOTS}/${name}.png` });
    };
    for (const scheme of ['dark', 'light'] as const) {
      const current = await page.locator('html').getAttribute('data-mantine-color-scheme');
      if (current !== scheme) await page.getByRole('button', { name: `Switch to the ${scheme} theme` }).click();
      await replaceEditorText(
        'Correlation rule body',
        '- {Sequence: [{ID: Login, RuleID: E2E.Corr.Login}, {ID: Admin, RuleID: E2E.Corr.Admin}, {ID: Unknown, RuleID: E2E.Corr.Nope}, {ID: Bucket, RuleID: E2E.Corr.Bucket}, {ID: No logout, RuleID: E2E.Corr.Logout, Absence: true}], Transitions: [{ID: a, From: Login, To: Admin, WithinTimeFrameMinutes: 30, Match: [{On: actor}]}, {ID: b, From: Admin, To: Unknown, WithinTimeFrameMinutes: 10}, {ID: c, From: Unknown, To: Bucket, WithinTimeFrameMinutes: 15}, {ID: d, From: Bucket, To: No logout, WithinTimeFrameMinutes: 60}, {ID: e, From: Login, To: Bucket, WithinTimeFrameMinutes: 120}], Schedule: {RateMinutes: 15, TimeoutMinutes: 2}, LookbackWindowMinutes: 60}',
      );
      await expect.poll(() => page.locator('.react-flow').getAttribute('class')).toContain(scheme);
      await expect.poll(() => flowIds('.react-flow__node')).toEqual(['step-1', 'step-2', 'step-3', 'step-4', 'step-5']);
      await expect.poll(() => flowIds('.react-flow__edge')).toEqual(['edge-1', 'edge-2', 'edge-3', 'edge-4', 'edge-5']);
      await expect
        .poll(() => edgeLabels())
        .toEqual(['within 30 min · On actor', 'within 10 min', 'within 15 min', 'within 60 min', 'within 120 min']);
      // The skip (Login to Bucket) runs out of the right side of both nodes.
      const skip = await page.locator('.react-flow__edge[data-id="edge-5"] path.react-flow__edge-path').boundingBox();
      const [loginBox, bucketBox] = await Promise.all([boxOf('chart-node-Login'), boxOf('chart-node-Bucket')]);
      expect(skip!.x + skip!.width).toBeGreaterThan(Math.max(loginBox.x + loginBox.width, bucketBox.x + bucketBox.width));
      await expectEdgeFromTo('edge-1', 'Login', 'Admin');
      await expect.poll(() => page.getByTestId('chart-node-Unknown').innerText()).toContain('No rule found');
      await expect.poll(() => page.getByTestId('chart-node-Bucket').innerText()).toContain('Cannot use policies');
      expect(await page.getByTestId('chart-node-No logout').textContent()).toContain('Absence');
      expect(await page.getByTestId('chart-node-Login').getAttribute('data-problem')).toBeNull();
      expect(await page.getByTestId('chart-node-Admin').getAttribute('data-problem')).toBe('true');
      // Read-only: a dragged node keeps its place beside the others (a drag may pan the whole view).
      const [login0, admin0] = [await boxOf('chart-node-Login'), await boxOf('chart-node-Admin')];
      await page.mouse.move(login0.x + 20, login0.y + 10);
      await page.mouse.down();
      await page.mouse.move(login0.x + 140, login0.y + 90, { steps: 5 });
      await page.mouse.up();
      const [login1, admin1] = [await boxOf('chart-node-Login'), await boxOf('chart-node-Admin')];
      expect(Math.abs(login1.x - admin1.x - (login0.x - admin0.x))).toBeLessThan(1);
      expect(Math.abs(login1.y - admin1.y - (login0.y - admin0.y))).toBeLessThan(1);
      await page.getByRole('button', { name: 'Fit View' }).click();
      await chartShot(`${scheme}-sequence-missing-policy-absence`);
      await page.getByTestId('chart-node-Admin').hover();
      await page.getByText('This rule is currently disabled. Please enable for the Correlation Rule to work.').waitFor();
      await chartShot(`${scheme}-disabled-tooltip`);
      await page.mouse.move(5, 5);

      await page.getByRole('button', { name: 'Organize Rules as Group' }).click();
      await expect.poll(() => flowIds('.react-flow__node')).toEqual(['group', 'step-1', 'step-2', 'step-3', 'step-4', 'step-5']);
      await expect.poll(() => page.getByTestId('chart-group').innerText()).toContain('Group: at least 5 of 5');
      await chartShot(`${scheme}-group`);

      await replaceEditorText('Correlation rule body', '- {Sequence: [{ID: Login, RuleID: E2E.Corr.Login}');
      await page.getByTestId('chart-invalid').waitFor();
      expect(await page.getByTestId('chart-invalid').innerText()).toMatch(/^Invalid YAML\n+\S/);
      expect(await page.locator('.react-flow').count()).toBe(0);
      await chartShot(`${scheme}-invalid-yaml`);

      await replaceEditorText('Correlation rule body', '- {Sequence: [], Schedule: {RateMinutes: 15, TimeoutMinutes: 2}}');
      await panel.getByText("You haven't added any rules yet!").waitFor();
      await chartShot(`${scheme}-empty`);
    }
  }, 180_000);
  it("shows a step's transition to itself on its node, and in the step-by-step view of a test", async () => {
    await page.goto(`${suite.runtime.url}/build/detections/correlation-rules/new/`);
    await page.getByRole('heading', { name: 'New Correlation Rule' }).waitFor();
    await replaceEditorText(
      'Correlation rule body',
      '- {Sequence: [{ID: Logins, RuleID: E2E.Corr.Login, MinMatchCount: 3}, {ID: Admin, RuleID: E2E.Corr.Admin}], Transitions: [{ID: again, From: Logins, To: Logins, WithinTimeFrameMinutes: 5, Match: [{On: actor}]}, {ID: then, From: Logins, To: Admin, WithinTimeFrameMinutes: 30, Match: [{On: actor}]}], Schedule: {RateMinutes: 15, TimeoutMinutes: 2}, LookbackWindowMinutes: 60}',
    );
    await expect.poll(() => flowIds('.react-flow__edge')).toEqual(['edge-1']);
    await expect.poll(() => page.getByTestId('chart-repeat').innerText()).toBe('Repeats · within 5 min · On actor');
    await shot('5-self-transition-chart');
    await page.getByRole('tab', { name: 'Alert Settings' }).click();
    await page.getByRole('textbox', { name: 'Rule ID' }).fill('E2E.Corr.Repeats');
    await page.getByRole('tab', { name: 'Unit Tests' }).click();
    await page.getByRole('button', { name: '+ Add new unit test' }).click();
    await replaceEditorText(
      /^Unit test /,
      '{ExpectedResult: true, RuleOutputs: [{ID: Logins, Matches: {actor: {alice: [0, 2, 4], bob: [1]}}}, {ID: Admin, Matches: {actor: {alice: [9]}}}]}',
    );
    await page.getByRole('button', { name: 'Run Test', exact: true }).click();
    await expect.poll(() => page.getByTestId('test-run-message').innerText(), { timeout: 30_000 }).toBe('Test Passed!');
    await page.getByRole('button', { name: 'Step by step' }).click();
    await page.getByTestId('correlation-step-by-step').waitFor();
    expect(await page.getByTestId('self-transition').count()).toBe(1);
    await expect.poll(() => page.getByTestId('trace-transitions').innerText()).toMatch(/Logins → Logins\s+held\s+5 min/);
    await shot('6-self-transition-step-by-step');
    await page.keyboard.press('Escape');
  }, 120_000);
});
