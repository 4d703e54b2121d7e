// Security issue #27, "lookups read what their users may not", through GraphQL on the local runtime: a user
// whose role holds only the lookup permissions could make a lookup table of a scheduled query (rows of the data
// lake) or of an S3 object of another log source's raw data. Now a scheduled query needs Run Log Searches and an
// S3 object View Raw Log Data of the user who sets it (the permission map's LOOKUP_SOURCE_ACCESS), an S3 object a
// bucket the deployment allows (lookupBuckets; locally the ingest bucket), and every refresh reads the source on
// behalf of the user who set it as they are now: one who lost the permission, was deactivated or deleted makes
// the refresh fail with the reason, keeping the last good data and raising a system alert.
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookupBucketError, sourceOwnerError, sourcePermissionError } from '../../../core/lookups/index';
import type { Permission } from '../../../core/permissions';
import { localClientConfig } from '../../../local/services/net';
import { graphql, signIn, startTestRuntime, type TestRuntime } from '../../local/harness';

let runtime: TestRuntime;
let admin: string;
let user: string;
let userId: string;
let roleId: string;
let s3: S3Client;
let ingestBucket: string;

const LOOKUP_ONLY: Permission[] = ['LookupRead', 'LookupModify'];
const EMAIL = 'lookup-editor@caracal.local';
const RAW = 'customer-cloudtrail';
const RAW_KEY = 'AWSLogs/123456789012/CloudTrail/us-east-1/2026/05/01/raw.json';
const OWNERS_KEY = 'reference/owners.json';

type Body = { data?: Record<string, unknown> | null; errors?: Array<Record<string, unknown>> };

async function call(token: string, query: string, variables: Record<string, unknown> = {}): Promise<Body> {
  return (await graphql(runtime, { query, variables }, token)).body as Body;
}

async function ok<T = Record<string, unknown>>(token: string, query: string, variables: Record<string, unknown> = {}) {
  const body = await call(token, query, variables);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data as T;
}

const errorOf = (body: Body) => ({
  type: body.errors?.[0]?.errorType,
  fieldErrors: (body.errors?.[0]?.errorInfo as { fieldErrors?: unknown } | undefined)?.fieldErrors,
});

const setRole = (permissions: Permission[]) =>
  ok(admin, 'mutation($input: UpdateRoleInput!) { updateRole(input: $input) { id } }', {
    input: { id: roleId, name: 'Lookup editors', permissions },
  });

const FIELDS = 'id name status version rowCount lastError source { kind location query }';
const CREATE = `mutation($input: LookupTableInput!) { createLookupTable(input: $input) { ${FIELDS} } }`;
const UPDATE = `mutation($id: ID!, $input: LookupTableInput!) { updateLookupTable(id: $id, input: $input) { ${FIELDS} } }`;
const REFRESH = `mutation($id: ID!) { refreshLookupTable(id: $id) { ${FIELDS} } }`;
const LIST = `{ lookupTables { name } }`;

interface Table {
  id: string;
  name: string;
  status: string;
  version: number;
  rowCount: number;
  lastError: string | null;
}

const table = (name: string, source: Record<string, unknown>, description = 'Who owns what') => ({
  name,
  description,
  primaryKey: 'user',
  keyType: 'STRING',
  enabled: true,
  source: { refreshMinutes: 60, ...source },
  associations: [],
});
const QUERY = "SELECT 'ann' AS user, 'red' AS team";

beforeAll(async () => {
  runtime = await startTestRuntime();
  const [first] = runtime.createdUsers;
  admin = (await signIn(runtime, first.username, first.temporaryPassword, 'Admin-Caracal-2026!')).idToken;
  const role = await ok<{ createRole: { id: string } }>(
    admin,
    'mutation($input: CreateRoleInput!) { createRole(input: $input) { id } }',
    { input: { name: 'Lookup editors', permissions: LOOKUP_ONLY } },
  );
  roleId = role.createRole.id;
  const invited = await ok<{ inviteUser: { id: string } }>(
    admin,
    'mutation($input: InviteUserInput!) { inviteUser(input: $input) { id } }',
    { input: { email: EMAIL, givenName: 'Lee', familyName: 'Editor', role: { kind: 'Id', value: roleId } } },
  );
  userId = invited.inviteUser.id;
  const mail = runtime.mailbox.filter((m) => m.to === EMAIL).at(-1);
  user = (await signIn(runtime, EMAIL, mail!.code!, 'Editor-Caracal-2026!')).idToken;

  // The local configuration path: the runtime's ingest bucket is the one bucket lookup tables may read.
  const api = [...runtime.functions.values()].find((f) => f.spec.logicalId.startsWith('ApiApiFunction'))!;
  ingestBucket = api.spec.environment.LOOKUP_BUCKETS;
  s3 = new S3Client(localClientConfig(runtime.endpoints.s3, runtime.stack.region));
  // Another log source's raw data: identities and addresses, in a bucket no configuration names.
  await s3.send(new CreateBucketCommand({ Bucket: RAW }));
  await s3.send(
    new PutObjectCommand({
      Bucket: RAW,
      Key: RAW_KEY,
      Body: JSON.stringify([{ user: 'arn:aws:iam::123456789012:user/ann', sourceIPAddress: '198.51.100.7' }]),
    }),
  );
  await s3.send(
    new PutObjectCommand({
      Bucket: ingestBucket,
      Key: OWNERS_KEY,
      Body: JSON.stringify([
        { user: 'ann', team: 'red' },
        { user: 'bob', team: 'blue' },
      ]),
    }),
  );
}, 180_000);

afterAll(async () => {
  s3?.destroy();
  await runtime?.stop();
});

describe('a user holding only the lookup permissions', () => {
  it('may not make a table of a scheduled query, nor of an S3 object', async () => {
    const query = await call(user, CREATE, { input: table('lake_rows', { kind: 'QUERY', query: QUERY }) });
    expect(errorOf(query)).toEqual({
      type: 'InvalidInput',
      fieldErrors: [{ path: 'source.kind', message: sourcePermissionError('QUERY', LOOKUP_ONLY) }],
    });
    expect(query.data?.createLookupTable ?? null).toBeNull();

    const object = await call(user, CREATE, {
      input: table('raw_rows', { kind: 'S3', location: `s3://${ingestBucket}/${OWNERS_KEY}` }),
    });
    expect(errorOf(object)).toEqual({
      type: 'InvalidInput',
      fieldErrors: [{ path: 'source.kind', message: sourcePermissionError('S3', LOOKUP_ONLY) }],
    });
    const names = (await ok<{ lookupTables: { name: string }[] }>(user, LIST)).lookupTables.map((t) => t.name);
    expect(names).not.toContain('lake_rows');
    expect(names).not.toContain('raw_rows');
  });

  it('still makes tables of files (the upload path) and of nothing else it may not read', async () => {
    const file = await call(user, CREATE, { input: table('from_a_file', { kind: 'FILE', refreshMinutes: null }) });
    // a FILE table without an upload is refused for the missing file, not for a permission
    expect(errorOf(file)).toEqual({
      type: 'InvalidInput',
      fieldErrors: [{ path: 'file', message: 'Upload a CSV or JSON file' }],
    });
  });
});

describe('an S3 object', () => {
  it('must lie in a bucket the deployment allows, even for a user who may read raw data', async () => {
    expect(ingestBucket).toMatch(/^[a-z0-9][a-z0-9.-]+$/);
    await setRole([...LOOKUP_ONLY, 'LogSourceRawDataRead']);
    const refused = await call(user, CREATE, { input: table('raw_rows', { kind: 'S3', location: `s3://${RAW}/${RAW_KEY}` }) });
    expect(errorOf(refused)).toEqual({
      type: 'InvalidInput',
      fieldErrors: [{ path: 'source.location', message: lookupBucketError(`s3://${RAW}/${RAW_KEY}`, [ingestBucket]) }],
    });

    const made = await ok<{ createLookupTable: Table }>(user, CREATE, {
      input: table('owners', { kind: 'S3', location: `s3://${ingestBucket}/${OWNERS_KEY}` }),
    });
    expect(made.createLookupTable).toMatchObject({ status: 'READY', version: 1, rowCount: 2, lastError: null });

    // moving it to the raw bucket is refused as creating it there is
    const moved = await call(user, UPDATE, {
      id: made.createLookupTable.id,
      input: table('owners', { kind: 'S3', location: `s3://${RAW}/${RAW_KEY}` }),
    });
    expect(errorOf(moved).fieldErrors).toEqual([
      { path: 'source.location', message: lookupBucketError(`s3://${RAW}/${RAW_KEY}`, [ingestBucket]) },
    ]);
  });
});

describe('a scheduled query', () => {
  it('is made by a user who may search, and refreshed only while that user still may', async () => {
    await setRole([...LOOKUP_ONLY, 'DataAnalyticsRead']);
    const made = (
      await ok<{ createLookupTable: Table }>(user, CREATE, { input: table('team_of_user', { kind: 'QUERY', query: QUERY }) })
    ).createLookupTable;
    expect(made).toMatchObject({ status: 'READY', version: 1, rowCount: 1, lastError: null });

    await setRole(LOOKUP_ONLY);
    // changing the query needs the permission again; an edit that keeps the query does not
    const changed = await call(user, UPDATE, {
      id: made.id,
      input: table('team_of_user', { kind: 'QUERY', query: "SELECT 'bob' AS user" }),
    });
    expect(errorOf(changed).fieldErrors).toEqual([{ path: 'source.kind', message: sourcePermissionError('QUERY', LOOKUP_ONLY) }]);
    await ok(user, UPDATE, { id: made.id, input: table('team_of_user', { kind: 'QUERY', query: QUERY }, 'Teams') });

    // the role no longer allows searching: the refresh reads nothing on the user's behalf
    const fix = 'save the table again as a user with the Run Log Searches permission';
    const lost = (await ok<{ refreshLookupTable: Table }>(user, REFRESH, { id: made.id })).refreshLookupTable;
    expect(lost).toMatchObject({
      status: 'REFRESH_FAILED',
      version: 1,
      rowCount: 1,
      lastError: sourceOwnerError('QUERY', { enabled: true, permissions: LOOKUP_ONLY }),
    });
    expect(lost.lastError).toBe(
      `The user who set this table's scheduled query no longer has the Run Log Searches permission: ${fix}`,
    );

    // deactivated, then deleted
    await setRole([...LOOKUP_ONLY, 'DataAnalyticsRead']);
    expect((await ok<{ refreshLookupTable: Table }>(admin, REFRESH, { id: made.id })).refreshLookupTable).toMatchObject({
      status: 'READY',
      version: 2,
      lastError: null,
    });
    await ok(admin, 'mutation($id: ID!) { deactivateUser(id: $id) { id } }', { id: userId });
    expect((await ok<{ refreshLookupTable: Table }>(admin, REFRESH, { id: made.id })).refreshLookupTable).toMatchObject({
      status: 'REFRESH_FAILED',
      version: 2,
      lastError: `The user who set this table's scheduled query is deactivated: ${fix}`,
    });
    await ok(admin, 'mutation($id: ID!) { deleteUser(id: $id) }', { id: userId });
    const gone = (await ok<{ refreshLookupTable: Table }>(admin, REFRESH, { id: made.id })).refreshLookupTable;
    expect(gone.lastError).toBe(`The user who set this table's scheduled query no longer exists: ${fix}`);

    // the S3 table its setter made stops too
    const owners = (await ok<{ lookupTables: Table[] }>(admin, `{ lookupTables { ${FIELDS} } }`)).lookupTables.find(
      (t) => t.name === 'owners',
    )!;
    expect((await ok<{ refreshLookupTable: Table }>(admin, REFRESH, { id: owners.id })).refreshLookupTable).toMatchObject({
      status: 'REFRESH_FAILED',
      version: 1,
      lastError:
        "The user who set this table's S3 object no longer exists: save the table again as a user with the View Raw Log Data permission",
    });

    const alerts = await ok<{ alerts: { edges: { node: { title: string } }[] } }>(
      admin,
      'query($input: AlertsInput!) { alerts(input: $input) { edges { node { title } } } }',
      { input: { type: 'SYSTEM_ERROR', pageSize: 100 } },
    );
    expect(alerts.alerts.edges.map((e) => e.node.title)).toEqual(
      expect.arrayContaining(['Lookup table team_of_user could not be refreshed', 'Lookup table owners could not be refreshed']),
    );
  });
});
