// The content's Status in the console: real panther-analysis content (tests/fixtures/content-format) and
// two rules marked Experimental and Deprecated, bulk uploaded; the list shows their Status badges, the
// API answers their status, and the Deprecated one is stored switched off although its YAML says Enabled.
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { zipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { graphql, signIn } from '../local/harness';
import { browserSuite } from './browser';
import { signInFirstAdmin } from './sign-in';

const SHOTS = process.env.CARACAL_SHOTS;
const suite = browserSuite();
const REAL = join(import.meta.dirname, '..', 'fixtures', 'content-format');
let page: Page;
let token: string;

async function shot(name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

const statusRule = (id: string, status: string) => `AnalysisType: rule
RuleID: ${id}
DisplayName: "${id}"
Filename: status_rule.py
Enabled: true
Status: ${status}
BaseVersion: 2
LogTypes: [Okta.SystemLog]
Severity: Medium
Tests:
  - Name: fires
    ExpectedResult: true
    Log: {"eventType": "user.session.start"}
`;

/** The real fixture's rules and helper, and the two Status rules, as a zip, base64 encoded. */
function contentZip(): string {
  const files: Record<string, Uint8Array> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (!path.includes('lookup_tables') && !name.endsWith('.md'))
        files[relative(REAL, path).split(sep).join('/')] = readFileSync(path);
    }
  };
  walk(REAL);
  const text = (s: string) => new TextEncoder().encode(s);
  files['rules/status/status_rule.py'] = text("def rule(event):\n    return event.get('eventType') == 'user.session.start'\n");
  files['rules/status/trial.yml'] = text(statusRule('Status.Trial', 'Experimental'));
  files['rules/status/old.yml'] = text(statusRule('Status.Old', 'Deprecated'));
  return Buffer.from(zipSync(files)).toString('base64');
}

beforeAll(async () => {
  page = await suite.browser.newPage({ viewport: { width: 1500, height: 900 } });
  const admin = await signInFirstAdmin(page, suite.runtime, '/build/detections/');
  await page.getByRole('heading', { name: 'Detections', exact: true }).waitFor();
  ({ idToken: token } = await signIn(suite.runtime, admin.username, admin.password));
  const upload = await graphql(
    suite.runtime,
    {
      query: 'mutation($input: BulkUploadInput!) { bulkUpload(input: $input) { totals { failed } } }',
      variables: { input: { data: contentZip() } },
    },
    token,
  );
  expect(upload.body.data).toEqual({ bulkUpload: { totals: { failed: 0 } } });
  await page.reload();
}, 120_000);

describe('Status in the console', () => {
  it('the API answers each detection status, and a Deprecated detection is stored switched off', async () => {
    const answer = await graphql(
      suite.runtime,
      {
        query: `query($id: ID!) { detection(id: $id) { id enabled status } }`,
        variables: { id: 'Status.Old' },
      },
      token,
    );
    expect(answer.body.data).toEqual({ detection: { id: 'Status.Old', enabled: false, status: 'Deprecated' } });
    const trial = await graphql(suite.runtime, { query: `query { detection(id: "Status.Trial") { enabled status } }` }, token);
    expect(trial.body.data).toEqual({ detection: { enabled: true, status: 'Experimental' } });
    const stable = await graphql(suite.runtime, { query: `query { detection(id: "Okta.APIKeyRevoked") { status } }` }, token);
    expect(stable.body.data).toEqual({ detection: { status: null } });
  });

  it('the detections list shows the Status badges next to the names', async () => {
    const table = page.getByRole('table', { name: 'Detections' });
    const row = (name: string) => table.locator('tbody tr', { has: page.getByRole('link', { name, exact: true }) });
    await row('Status.Trial').waitFor({ timeout: 20_000 });
    await expect.poll(() => row('Status.Trial').getByText('Experimental', { exact: true }).count()).toBe(1);
    await expect.poll(() => row('Status.Old').getByText('Deprecated', { exact: true }).count()).toBe(1);
    expect(
      await row('Okta API Key Revoked')
        .getByText(/^(Experimental|Deprecated)$/)
        .count(),
    ).toBe(0);
    await shot('status-badges');
  });
});
