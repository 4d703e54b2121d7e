// An inline filter added from an alert: the demo raises an alert from its root-activity detection; on the
// alert's page "Tune this detection" opens the 'Add Filter' sidesheet, where a filter is built, tried on the
// alert's events (the one event would be dropped), saved with the alert's event as a test expected not to
// match; the detection's new version holds the filter and the test, and the engine passes that test (it
// applies the filter before the rule).
import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { readYaml } from '../../core/yaml';
import { demoFunctionName, seedDemo } from '../../demo/seed';
import { alertPath } from '../../web/src/app/routes';
import { graphql, signIn } from '../local/harness';
import { browserSuite } from './browser';
import { signInFirstAdmin } from './sign-in';

const DETECTION = 'Demo.AWS.RootActivity';
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

/** A builder control's input (Mantine also names its listbox after it). */
const control = (name: string): Locator => page.locator(`input[aria-label="${name}"]`);

beforeAll(async () => {
  const runtime = suite.runtime;
  await seedDemo(runtime.invoke, demoFunctionName(runtime.functions.values())!);
  page = await suite.browser.newPage({ viewport: { width: 1500, height: 1100 } });
  const admin = await signInFirstAdmin(page, runtime, '/alerts-and-errors/');
  await page.getByRole('link', { name: 'Alerts' }).first().waitFor();
  token = (await signIn(runtime, admin.username, admin.password)).idToken;
}, 180_000);

describe('an inline filter added from an alert', () => {
  it('is tried on the alert’s events, saved with an alert test as a new version, and applied by the engine', async () => {
    type Alerts = { alerts: { edges: { node: { id: string; eventCount: number } }[] } };
    let alertId: string | undefined;
    await expect
      .poll(
        async () => {
          const found = await call<Alerts>(
            'query($input: AlertsInput!) { alerts(input: $input) { edges { node { id eventCount } } } }',
            { input: { detectionId: DETECTION, type: 'ALERT' } },
          );
          alertId = found.alerts.edges[0]?.node.id;
          return alertId;
        },
        { timeout: 90_000, interval: 2_000 },
      )
      .toBeDefined();
    const before = await call<{ detection: { versionId: number } }>('query($id: ID!) { detection(id: $id) { versionId } }', {
      id: DETECTION,
    });

    await page.goto(`${suite.runtime.url}${alertPath(alertId!)}`);
    await page.getByRole('button', { name: 'Tune this detection' }).click();
    const sheet = page.getByRole('dialog', { name: 'Add Filter' });
    await sheet.getByText(/the rule runs only on events that match every filter/).waitFor({ timeout: 60_000 });

    // The alert's root event created an access key for deploy-bot: drop that (a field of a json column, typed).
    await sheet.getByRole('button', { name: 'Add condition' }).click();
    await control('Condition 1: field').fill('requestParameters.userName');
    await control('Condition 1: operator').click();
    await page.getByRole('option', { name: 'is not', exact: true }).click();
    await control('Condition 1: value').fill('deploy-bot');
    await sheet.getByText("These filters would drop 1 of the alert's 1 event.").waitFor();
    await sheet.getByRole('checkbox', { name: /Add the alert's event as a unit test/ }).check();
    const testName = (await sheet.getByText(/^Alert Test - /).innerText()).trim();
    await shot('inline-01-sheet');

    await sheet.getByRole('button', { name: 'Save' }).click();
    await sheet.getByText('Filters on Demo: AWS root account activity have been successfully saved to your detection.').waitFor();
    await shot('inline-02-saved');

    const after = await call<{ detection: { versionId: number; yaml: string } }>(
      'query($id: ID!) { detection(id: $id) { versionId yaml } }',
      { id: DETECTION },
    );
    expect(after.detection.versionId).toBe(before.detection.versionId + 1);
    const doc = readYaml(after.detection.yaml) as { InlineFilters: unknown; Tests: { Name: string; ExpectedResult: boolean }[] };
    expect(doc.InlineFilters).toEqual([
      { KeyPath: 'requestParameters.userName', Condition: 'DoesNotEqual', Value: 'deploy-bot' },
    ]);
    expect(doc.Tests.at(-1)).toMatchObject({ Name: testName, ExpectedResult: false });

    // The engine runs the tests with the filter: the alert's event no longer matches, the others still do.
    const run = await call<{ runDetectionTests: { message: string; results: { name: string; passed: boolean }[] } }>(
      'mutation($input: RunDetectionTestsInput!) { runDetectionTests(input: $input) { message results { name passed } } }',
      { input: { id: DETECTION } },
    );
    expect(run.runDetectionTests.message).toBe('All tests passed!');
    expect(run.runDetectionTests.results.map((r) => r.name)).toContain(testName);

    // Reopened, the sheet shows the saved filter; a change asks before closing.
    await sheet.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Tune this detection' }).click();
    await expect.poll(() => control('Condition 1: field').inputValue()).toBe('requestParameters.userName');
    await control('Condition 1: value').fill('someone-else');
    await page.getByRole('dialog', { name: 'Add Filter' }).getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Back to Edit' }).click();
    expect(await control('Condition 1: value').inputValue()).toBe('someone-else');
    await page.getByRole('dialog', { name: 'Add Filter' }).getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Discard Changes' }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Add Filter' }).count()).toBe(0);
  });
});
