// A simple detection built in the browser: on the new-detection page, with AWS.CloudTrail chosen, the Rule
// Builder offers the schema's fields with the operators their types suit and checks values per type; switching
// to YAML shows what was built, switching back shows it unchanged, and the saved detection holds exactly that.
import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { readYaml } from '../../core/yaml';
import { graphql, signIn } from '../local/harness';
import { browserSuite } from './browser';
import { NEW_PASSWORD, signInFirstAdmin } from './sign-in';

const SHOTS = process.env.CARACAL_SHOTS;
const suite = browserSuite();
let page: Page;

async function shot(name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** A builder control's input (Mantine also names its listbox after it). */
const control = (name: string): Locator => page.locator(`input[aria-label="${name}"]`);

/** Switches the simple detection editor to its Rule Builder or its YAML editor. */
async function mode(name: 'Rule Builder' | 'YAML') {
  await page.getByRole('radiogroup', { name: 'Simple detection editor' }).getByText(name, { exact: true }).click();
}

async function choose(name: string, option: string) {
  await control(name).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

beforeAll(async () => {
  page = await suite.browser.newPage({ viewport: { width: 1500, height: 1100 } });
  await signInFirstAdmin(page, suite.runtime, '/build/detections/new/?type=rule&isSimpleDetection=true');
  await page.getByRole('heading', { name: 'New Simple Detection' }).waitFor();
});

describe('a simple detection in the Rule Builder', () => {
  it('builds conditions in the GUI, switches to YAML and back with nothing lost, and saves them', async () => {
    await page.getByText('A log type must be selected to edit filters and clauses').waitFor();
    await page.getByRole('textbox', { name: 'Rule ID' }).fill('E2E.Simple.ConsoleLogin');
    await page.getByLabel('Log Types').first().click();
    await page.getByRole('option', { name: 'AWS.CloudTrail', exact: true }).click();
    await page.keyboard.press('Escape');

    // With a log type, the Rule Builder shows.
    const builder = page.getByRole('group', { name: 'Rule Builder' });
    await builder.waitFor({ timeout: 60_000 });
    await expect.poll(() => control('Condition 1: field').inputValue()).toBe('eventName');
    await control('Condition 1: value').fill('ConsoleLogin');

    // A field of the schema, typed: an IP field offers the address operators and checks the value.
    await builder.getByRole('button', { name: 'Add condition' }).last().click();
    await control('Condition 2: field').fill('sourceIPAddress');
    await page.getByRole('option', { name: 'sourceIPAddress', exact: true }).click();
    await choose('Condition 2: operator', 'is not in CIDR');
    await control('Condition 2: value').fill('10.0.0.0/33');
    await page.getByText('This field + operator requires an IP or CIDR').waitFor();
    await control('Condition 2: value').fill('10.0.0.0/8');
    await expect.poll(() => page.getByText('This field + operator requires an IP or CIDR').count()).toBe(0);

    // An OR group of two conditions.
    await builder.getByRole('button', { name: 'Add group' }).last().click();
    await control('Condition 3.1: field').fill('errorCode');
    await page.getByRole('option', { name: 'errorCode', exact: true }).click();
    await choose('Condition 3.1: operator', 'is empty');
    await page.getByRole('group', { name: 'Group 3' }).getByRole('button', { name: 'Add condition' }).click();
    await control('Condition 3.2: field').fill('userIdentity.type');
    await page.getByRole('option', { name: 'userIdentity.type', exact: true }).click();
    await choose('Condition 3.2: operator', 'is in');
    await control('Condition 3.2: value').fill('Root, IAMUser');
    await shot('simple-01-builder');

    await mode('YAML');
    const lines = page.locator('.monaco-editor .view-lines');
    await lines.waitFor({ timeout: 60_000 });
    await expect.poll(async () => (await lines.innerText()).replace(/\u00a0/g, ' ')).toContain('IsIPAddressNotInCIDR');
    const yamlText = (await lines.innerText()).replace(/\u00a0/g, ' ');
    expect(yamlText).toContain('Value: 10.0.0.0/8');
    expect(yamlText).toContain('- Any:');
    await shot('simple-02-yaml');

    await mode('Rule Builder');
    expect(await control('Condition 1: value').inputValue()).toBe('ConsoleLogin');
    expect(await control('Condition 2: field').inputValue()).toBe('sourceIPAddress');
    expect(await control('Condition 2: operator').inputValue()).toBe('is not in CIDR');
    expect(await control('Condition 2: value').inputValue()).toBe('10.0.0.0/8');
    expect(await control('Condition 3.1: operator').inputValue()).toBe('is empty');
    expect(await control('Condition 3.2: value').inputValue()).toBe('Root, IAMUser');
    const conjunction = page.getByRole('radiogroup', { name: 'Group 3: and/or' });
    expect(await conjunction.getByRole('radio', { name: 'OR' }).isChecked()).toBe(true);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/build\/detections\/rules\/E2E\.Simple\.ConsoleLogin\/$/);

    const [admin] = suite.runtime.createdUsers;
    const { idToken } = await signIn(suite.runtime, admin!.username, NEW_PASSWORD);
    const { body } = await graphql(
      suite.runtime,
      {
        query: 'query($id: ID!) { detection(id: $id) { yaml isSimpleDetection } }',
        variables: { id: 'E2E.Simple.ConsoleLogin' },
      },
      idToken,
    );
    const saved = body.data!.detection as { yaml: string; isSimpleDetection: boolean };
    expect(saved.isSimpleDetection).toBe(true);
    expect((readYaml(saved.yaml) as { Detection: unknown }).Detection).toEqual([
      { KeyPath: 'eventName', Condition: 'Equals', Value: 'ConsoleLogin' },
      { KeyPath: 'sourceIPAddress', Condition: 'IsIPAddressNotInCIDR', Value: '10.0.0.0/8' },
      {
        Any: [
          { KeyPath: 'errorCode', Condition: 'IsNullOrEmpty' },
          { KeyPath: 'userIdentity.type', Condition: 'IsIn', Values: ['Root', 'IAMUser'] },
        ],
      },
    ]);
    await shot('simple-03-saved');
  });

  it("keeps YAML the builder cannot show in the text editor, and says 'There is an error in your syntax.'", async () => {
    await page.goto(`${suite.runtime.url}/build/detections/rules/E2E.Simple.ConsoleLogin/edit/`);
    // The editor page loads lazily (Monaco): give it time on a busy machine.
    await page.getByRole('group', { name: 'Rule Builder' }).waitFor({ timeout: 90_000 });
    await mode('YAML');
    const editor = page.locator('.monaco-editor').first();
    await editor.click();
    await page.keyboard.press('ControlOrMeta+A');
    // One line: Monaco indents typed new lines by itself.
    await page.keyboard.insertText('Detection: [{Key: eventName, Condition: IEquals, Value: consolelogin}]');
    await page.getByText('This filter contains legal YAML that cannot be represented in the Rule Builder').waitFor();
    expect(
      await page
        .getByRole('radiogroup', { name: 'Simple detection editor' })
        .getByRole('radio', { name: 'Rule Builder' })
        .isDisabled(),
    ).toBe(true);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText('Detection: a: b');
    await page.getByText('There is an error in your syntax.').waitFor();
    await shot('simple-04-syntax-error');
  });
});
