// The detection editor's API through the local runtime: unit tests of an unsaved document (before its first
// save) with the rule's and the optional functions' outputs and the traceback line of an error; the saved
// versions and restoring one; "Test against data" over events written to the lake; and a RuleRead-only user
// refused every write.
import { gzipSync } from 'node:zlib';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lakeTime, LOGS_DATABASE, partitionPath, tableName } from '../../../core/lake/layout';
import { localClientConfig } from '../../../local/services/net';
import { graphql, signIn, startTestRuntime, type TestRuntime } from '../../local/harness';

let runtime: TestRuntime;
let admin: string;
let reader: string;

async function call<T = Record<string, unknown>>(token: string, query: string, variables: Record<string, unknown> = {}) {
  const { body } = await graphql(runtime, { query, variables }, token);
  if (body.errors?.length) throw new Error(body.errors.map((e) => `${String(e.errorType)}: ${String(e.message)}`).join('; '));
  return body.data as T;
}

const TESTS = `mutation($input: RunDetectionTestsInput!) { runDetectionTests(input: $input) {
  message results { name passed error output stdout functions { name output error } } } }`;
const CREATE = 'mutation($input: SaveDetectionInput!) { createDetection(input: $input) { id versionId } }';
const UPDATE = 'mutation($input: SaveDetectionInput!) { updateDetection(input: $input) { id versionId severity } }';

const yamlOf = (id: string, severity = 'Medium') => `AnalysisType: rule
Filename: ${id}.py
RuleID: ${id}
DisplayName: Editor rule
Enabled: true
LogTypes: [AWS.CloudTrail]
Severity: ${severity}
`;
const BODY = `def rule(event):
    return event.get("eventName") == "ConsoleLogin"


def title(event):
    return f"Login by {event.deep_get('userIdentity', 'arn', default='nobody')}"


def alert_context(event):
    print("context for", event.get("eventName"))
    return {"ip": event.get("sourceIPAddress")}
`;
const TWO_TESTS = `- Name: login
  ExpectedResult: true
  Log: { eventName: ConsoleLogin, sourceIPAddress: 10.0.0.1, userIdentity: { arn: "arn:aws:iam::123456789012:user/ann" } }
- Name: other
  ExpectedResult: false
  Log: { eventName: GetObject }
`;

type Run = {
  runDetectionTests: {
    message: string;
    results: {
      name: string;
      passed: boolean;
      error: string | null;
      output: string | null;
      stdout: string | null;
      functions: { name: string; output: string | null; error: string | null }[];
    }[];
  };
};

beforeAll(async () => {
  runtime = await startTestRuntime();
  const [first] = runtime.createdUsers;
  admin = (await signIn(runtime, first.username, first.temporaryPassword, 'Admin-Caracal-2026!')).idToken;
  const role = await call<{ createRole: { id: string } }>(
    admin,
    'mutation($input: CreateRoleInput!) { createRole(input: $input) { id } }',
    { input: { name: 'Rule readers', permissions: ['RuleRead'] } },
  );
  const email = 'reader@caracal.local';
  await call(admin, 'mutation($input: InviteUserInput!) { inviteUser(input: $input) { id } }', {
    input: { email, givenName: 'Rae', familyName: 'Reader', role: { kind: 'Id', value: role.createRole.id } },
  });
  const mail = runtime.mailbox.filter((m) => m.to === email).at(-1);
  reader = (await signIn(runtime, email, mail!.code!, 'Reader-Caracal-2026!')).idToken;
}, 180_000);

afterAll(async () => {
  await runtime?.stop();
});

describe('unit tests of the unsaved document', () => {
  it('run before the first save, with the outputs of the rule and its optional functions', async () => {
    const run = await call<Run>(admin, TESTS, { input: { yaml: yamlOf('Editor.Unsaved'), body: BODY, testsYaml: TWO_TESTS } });
    expect(run.runDetectionTests.message).toBe('All tests passed!');
    const login = run.runDetectionTests.results.find((r) => r.name === 'login')!;
    expect(login.output).toBe('true');
    const functions = Object.fromEntries(login.functions.map((f) => [f.name, f]));
    expect(JSON.parse(functions.title.output!)).toBe('Login by arn:aws:iam::123456789012:user/ann');
    expect(JSON.parse(functions.alert_context.output!)).toEqual({ ip: '10.0.0.1' });
    expect(login.stdout).toContain('context for ConsoleLogin');
    const other = run.runDetectionTests.results.find((r) => r.name === 'other')!;
    expect(other.output).toBe('false');
    expect(await call(admin, 'query { detection(id: "Editor.Unsaved") { id } }')).toEqual({ detection: null });
  });

  it('reflect each edit of the unsaved code (no stale content) and name the line of an error', async () => {
    const broken = BODY.replace('return event.get("eventName") == "ConsoleLogin"', 'return event["missing"]["x"]');
    const run = await call<Run>(admin, TESTS, { input: { yaml: yamlOf('Editor.Unsaved'), body: broken, testsYaml: TWO_TESTS } });
    expect(run.runDetectionTests.message).toBe('2 of 2 tests failed');
    expect(run.runDetectionTests.results[0].error).toMatch(/KeyError.*\(at .*:2\)/);
    const fixed = await call<Run>(admin, TESTS, {
      input: {
        yaml: yamlOf('Editor.Unsaved'),
        body: BODY,
        testsYaml: TWO_TESTS.replace('ExpectedResult: false', 'ExpectedResult: true'),
      },
    });
    expect(fixed.runDetectionTests.message).toBe('1 of 2 tests failed');
    expect(fixed.runDetectionTests.results.map((r) => [r.name, r.passed])).toEqual([
      ['other', false],
      ['login', true],
    ]);
  });

  it('refuse an invalid document and a call naming neither id nor yaml', async () => {
    await expect(
      call(admin, TESTS, { input: { yaml: 'AnalysisType: rule\nRuleID: x\n', testsYaml: TWO_TESTS } }),
    ).rejects.toThrow(/InvalidInput/);
    await expect(call(admin, TESTS, { input: {} })).rejects.toThrow(/id or yaml is required/);
  });
});

describe('versions', () => {
  it('lists each save and restores an old version as a new one', async () => {
    await call(admin, CREATE, { input: { yaml: yamlOf('Editor.Versioned'), body: BODY } });
    await call(admin, UPDATE, { input: { yaml: yamlOf('Editor.Versioned', 'High'), body: BODY, versionId: 1 } });
    const versions = await call<{ detectionVersions: { version: number; lastModifiedBy: string; lastModified: string }[] }>(
      admin,
      'query { detectionVersions(id: "Editor.Versioned") { version lastModified lastModifiedBy } }',
    );
    expect(versions.detectionVersions.map((v) => v.version)).toEqual([2, 1]);
    expect(versions.detectionVersions[0].lastModifiedBy).toBeTruthy();

    const restore =
      'mutation($input: RestoreDetectionVersionInput!) { restoreDetectionVersion(input: $input) { versionId severity yaml } }';
    const restored = await call<{ restoreDetectionVersion: { versionId: number; severity: string; yaml: string } }>(
      admin,
      restore,
      {
        input: { id: 'Editor.Versioned', version: 1, versionId: 2 },
      },
    );
    expect(restored.restoreDetectionVersion).toMatchObject({ versionId: 3, severity: 'MEDIUM' });
    expect(restored.restoreDetectionVersion.yaml).toBe(yamlOf('Editor.Versioned'));
    await expect(call(admin, restore, { input: { id: 'Editor.Versioned', version: 1, versionId: 2 } })).rejects.toThrow(
      /RevisionConflict/,
    );
    await expect(call(admin, restore, { input: { id: 'Editor.Versioned', version: 9 } })).rejects.toThrow(/NotFound/);
  });
});

describe('a managed detection (held by a pack)', () => {
  it('cannot be changed or restored, but takes inline filters, runs its tests and can be switched off', async () => {
    const zip = zipSync({
      'rules/managed.yml': strToU8(yamlOf('Editor.Managed')),
      'rules/Editor.Managed.py': strToU8(BODY),
      'packs/editor.yml': strToU8('AnalysisType: pack\nPackID: Editor.Pack\nPackDefinition:\n  IDs: [Editor.Managed]\n'),
    });
    const uploaded = await call<{ bulkUpload: { items: { id: string; status: string }[] } }>(
      admin,
      'mutation($input: BulkUploadInput!) { bulkUpload(input: $input) { items { id status } } }',
      { input: { data: Buffer.from(zip).toString('base64') } },
    );
    expect(uploaded.bulkUpload.items.map((i) => [i.id, i.status])).toContainEqual(['Editor.Managed', 'COMPLETED']);
    expect(await call(admin, 'query { detection(id: "Editor.Managed") { managed } }')).toEqual({ detection: { managed: true } });
    await expect(call(admin, UPDATE, { input: { yaml: yamlOf('Editor.Managed', 'High'), body: BODY } })).rejects.toThrow(
      /InvalidUpdate: Managed detections are read-only/,
    );
    await expect(
      call(admin, 'mutation { restoreDetectionVersion(input: { id: "Editor.Managed", version: 1 }) { id } }'),
    ).rejects.toThrow(/InvalidUpdate/);
    const tuned = await call<{ updateDetection: { versionId: number } }>(admin, UPDATE, {
      input: {
        yaml: `${yamlOf('Editor.Managed')}InlineFilters:\n  - KeyPath: sourceIPAddress\n    Condition: DoesNotEqual\n    Value: 10.9.9.9\n`,
        body: BODY,
      },
    });
    expect(tuned.updateDetection.versionId).toBe(2);
    const run = await call<Run>(admin, TESTS, { input: { id: 'Editor.Managed', testsYaml: TWO_TESTS } });
    expect(run.runDetectionTests.message).toBe('All tests passed!');
    const off = await call<{ setDetectionEnabled: { enabled: boolean } }>(
      admin,
      'mutation { setDetectionEnabled(input: { id: "Editor.Managed", enabled: false }) { enabled } }',
    );
    expect(off.setDetectionEnabled.enabled).toBe(false);
  });
});

describe('test against data', () => {
  it('runs the unsaved rule over the last hours of its log type in the lake and lists the matches', async () => {
    const bucket = runtime.resolver.lookup(
      Object.keys(runtime.stack.resources).find((id) => /^LakeLakeBucket[0-9A-F]{8}$/.test(id))!,
    )!.ref;
    const s3 = new S3Client(localClientConfig(runtime.endpoints.s3, 'us-east-1'));
    const now = new Date();
    const event = (name: string, minutesAgo: number) => ({
      eventName: name,
      sourceIPAddress: '10.1.1.1',
      p_log_type: 'AWS.CloudTrail',
      p_event_time: lakeTime(new Date(now.getTime() - minutesAgo * 60_000)),
    });
    const write = async (minutesAgo: number, events: object[]) => {
      const at = lakeTime(new Date(now.getTime() - minutesAgo * 60_000));
      await s3.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: `${partitionPath(LOGS_DATABASE, tableName('AWS.CloudTrail'), at)}/editor-${minutesAgo}.json.gz`,
          Body: gzipSync(events.map((e) => JSON.stringify(e)).join('\n')),
        }),
      );
    };
    await write(5, [event('ConsoleLogin', 5), event('GetObject', 5), event('ConsoleLogin', 4)]);
    await write(300, [event('ConsoleLogin', 300), event('PutObject', 300)]);
    s3.destroy();

    const query = `mutation($input: TestDetectionAgainstDataInput!) { testDetectionAgainstData(input: $input) {
      scanned matchedCount capped errorCount logTypes matches { logType eventTime title event } } }`;
    type DataRun = {
      testDetectionAgainstData: {
        scanned: number;
        matchedCount: number;
        capped: boolean;
        logTypes: string[];
        matches: { title: string; event: string }[];
      };
    };
    const hour = await call<DataRun>(admin, query, { input: { yaml: yamlOf('Editor.Data'), body: BODY, hours: 1 } });
    expect(hour.testDetectionAgainstData).toMatchObject({
      scanned: 3,
      matchedCount: 2,
      capped: false,
      logTypes: ['AWS.CloudTrail'],
    });
    expect(JSON.parse(hour.testDetectionAgainstData.matches[0].event).eventName).toBe('ConsoleLogin');
    expect(hour.testDetectionAgainstData.matches[0].title).toBe('Login by nobody');
    const sixHours = await call<DataRun>(admin, query, { input: { yaml: yamlOf('Editor.Data'), body: BODY, hours: 6 } });
    expect(sixHours.testDetectionAgainstData).toMatchObject({ scanned: 5, matchedCount: 3 });
    await expect(call(admin, query, { input: { yaml: yamlOf('Editor.Data'), body: BODY, hours: 5 } })).rejects.toThrow(
      /hours must be one of 1, 6, 24, 72/,
    );
  });
});

describe('a user who may only read rules', () => {
  it('reads a detection and its versions, and is refused every write', async () => {
    await call(admin, CREATE, { input: { yaml: yamlOf('Editor.ReadOnly'), body: BODY } });
    expect(await call(reader, 'query { detectionVersions(id: "Editor.ReadOnly") { version } }')).toEqual({
      detectionVersions: [{ version: 1 }],
    });
    const refused = /Unauthorized/;
    await expect(call(reader, CREATE, { input: { yaml: yamlOf('Editor.Mine'), body: BODY } })).rejects.toThrow(refused);
    await expect(call(reader, UPDATE, { input: { yaml: yamlOf('Editor.ReadOnly', 'High'), body: BODY } })).rejects.toThrow(
      refused,
    );
    await expect(
      call(reader, 'mutation { setDetectionEnabled(input: { id: "Editor.ReadOnly", enabled: false }) { id } }'),
    ).rejects.toThrow(refused);
    await expect(call(reader, 'mutation { deleteDetection(id: "Editor.ReadOnly") { id } }')).rejects.toThrow(refused);
    await expect(
      call(reader, 'mutation { restoreDetectionVersion(input: { id: "Editor.ReadOnly", version: 1 }) { id } }'),
    ).rejects.toThrow(refused);
    await expect(call(reader, TESTS, { input: { id: 'Editor.ReadOnly' } })).rejects.toThrow(refused);
    await expect(call(reader, TESTS, { input: { yaml: yamlOf('Editor.ReadOnly'), body: BODY } })).rejects.toThrow(refused);
    await expect(
      call(reader, 'mutation { testDetectionAgainstData(input: { id: "Editor.ReadOnly", hours: 1 }) { scanned } }'),
    ).rejects.toThrow(refused);
  });
});
