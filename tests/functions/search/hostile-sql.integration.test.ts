/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL answers are read loosely here; their shapes are what the assertions check */
// The probes that once read the local Cognito stand-in's signing key (and so forged an Admin), replayed through
// GraphQL by a user holding only DataAnalyticsRead: an inner statement in a string run by the engine's own SQL
// runner, a CTE name that is a file path outside the CTE's scope, and a double quote inside a quoted lake table
// name. Each is refused before it runs; what does run is the tree written back, so quotes in names and strings
// stay names and strings, and every lake table read keeps the search's time range.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lakeTime, partitionPath, LOGS_DATABASE } from '../../../core/lake/layout';
import { ENV } from '../../../functions/lib/env';
import { localClientConfig } from '../../../local/services/net';
import { graphql, signIn, startTestRuntime, type TestRuntime } from '../../local/harness';
import { useApiFunctionEnvironment } from '../notifications/runtime-env';

let runtime: TestRuntime;
let analyst: string;
let keyPath: string;
let keyText: string;

const NOW = Date.now();
const DAY = 86_400_000;

async function writeLake() {
  const s3 = new S3Client(localClientConfig(runtime.endpoints.s3, runtime.stack.region));
  for (const [i, time] of [NOW - 3_600_000, NOW - 40 * DAY].entries()) {
    const row = {
      eventName: 'GetObject',
      eventTime: new Date(time).toISOString(),
      p_event_time: lakeTime(new Date(time)),
      p_log_type: 'AWS.CloudTrail',
      p_row_id: `row${i}`,
    };
    await s3.send(
      new PutObjectCommand({
        Bucket: process.env[ENV.lakeBucket]!,
        Key: `${partitionPath(LOGS_DATABASE, 'aws_cloudtrail', lakeTime(new Date(time)))}/probe.json.gz`,
        Body: gzipSync(JSON.stringify(row) + '\n'),
      }),
    );
  }
  s3.destroy();
}

async function call(token: string, query: string, variables: Record<string, unknown> = {}) {
  const { body } = await graphql(runtime, { query, variables }, token);
  return body as { data?: Record<string, any>; errors?: Array<Record<string, any>> };
}

beforeAll(async () => {
  runtime = await startTestRuntime();
  useApiFunctionEnvironment(runtime);
  const [first] = runtime.createdUsers;
  const admin = (await signIn(runtime, first.username, first.temporaryPassword, 'Admin-Caracal-2026!')).idToken;
  const role = await call(admin, 'mutation($input: CreateRoleInput!) { createRole(input: $input) { id } }', {
    input: { name: 'Searchers', permissions: ['DataAnalyticsRead'] },
  });
  const email = 'searcher@caracal.local';
  await call(admin, 'mutation($input: InviteUserInput!) { inviteUser(input: $input) { id } }', {
    input: { email, givenName: 'Sea', familyName: 'Rcher', role: { kind: 'Id', value: role.data!.createRole.id } },
  });
  const mail = runtime.mailbox.filter((m) => m.to === email).at(-1);
  analyst = (await signIn(runtime, email, mail!.code!, 'Searcher-Caracal-2026!')).idToken;
  keyPath = join(runtime.stateDir, 'cognito', 'signing-key.pem');
  keyText = readFileSync(keyPath, 'utf8');
  await writeLake();
}, 300_000);

afterAll(async () => {
  await runtime?.stop();
});

const SEARCH = 'id status error sql';

async function search(query: string, preset = 'P1W') {
  const body = await call(analyst, `mutation($input: RunSearchInput!) { runSearch(input: $input) { ${SEARCH} } }`, {
    input: { mode: 'SQL', query, timeRange: { preset } },
  });
  expect(JSON.stringify(body)).not.toContain(keyText.slice(40, 80));
  return body;
}

async function rows(id: string): Promise<unknown[][]> {
  for (;;) {
    const { data } = await call(analyst, `query($id: ID!) { search(id: $id) { ${SEARCH} } }`, { id });
    if (data!.search.status === 'RUNNING') continue;
    expect(data!.search.error).toBeNull();
    const page = await call(analyst, 'query($input: SearchResultsInput!) { searchResults(input: $input) { rows } }', {
      input: { searchId: id, pageSize: 100 },
    });
    return (page.data!.searchResults.rows as string[]).map((r) => JSON.parse(r) as unknown[]);
  }
}

describe('the probes that forged an Admin are refused', () => {
  const probes = (): [string, string][] => [
    [
      `SELECT * FROM (SELECT 1) t, LATERAL json_execute_serialized_sql(json_serialize_sql('SELECT content FROM read_text(''${keyPath}'')'))`,
      'json_execute_serialized_sql() is not allowed',
    ],
    [
      `SELECT * FROM (WITH "${keyPath}" AS (SELECT 1 AS x) SELECT x FROM "${keyPath}") a, "${keyPath}" b`,
      `${keyPath} is not a table of the data lake`,
    ],
    [
      `SELECT * FROM panther_logs."aws_cloudtrail"" WHERE 1=1) UNION ALL SELECT content FROM read_text('${keyPath}') --"`,
      'is not a table of the data lake',
    ],
    [`SELECT (SELECT content FROM read_text('${keyPath}')) FROM panther_logs.aws_cloudtrail`, 'read_text() is not allowed'],
    [`SELECT * FROM "${keyPath}"`, `${keyPath} is not a table of the data lake`],
  ];
  it('each, with the reason, before anything runs', async () => {
    for (const [query, reason] of probes()) {
      const body = await search(query);
      expect(body.errors?.[0]?.errorType, query).toBe('InvalidInput');
      expect(body.errors?.[0]?.message, query).toContain(reason);
    }
  });
});

describe('what runs is what the guard read', () => {
  it('a string and a name holding quotes, comments and SQL stay a string and a name', async () => {
    const text = `x'); SELECT content FROM read_text('${keyPath}') -- "`;
    const body = await search(
      `SELECT '${text.replace(/'/g, "''")}' AS "a""b", eventName FROM panther_logs.aws_cloudtrail /* ; DROP */`,
    );
    expect(body.errors).toBeUndefined();
    expect(await rows(body.data!.runSearch.id)).toEqual([[text, 'GetObject']]);
  });

  it('keeps the time range on every lake table, however it is named', async () => {
    for (const query of [
      'SELECT count(*) FROM panther_logs.aws_cloudtrail',
      'SELECT count(*) FROM "PANTHER_LOGS"."public"."AWS_CLOUDTRAIL" AS "x"',
      'SELECT count(*) FROM awsdatacatalog.panther_logs.aws_cloudtrail x, (SELECT 1) y',
      'WITH a AS (SELECT * FROM panther_logs.aws_cloudtrail) SELECT count(*) FROM a',
      'SELECT (SELECT count(*) FROM panther_logs.aws_cloudtrail)',
    ]) {
      const body = await search(query);
      expect(body.errors, query).toBeUndefined();
      expect(await rows(body.data!.runSearch.id), query).toEqual([[1]]);
    }
    const all = await search('SELECT count(*) FROM panther_logs.aws_cloudtrail', 'PAllTime');
    expect(await rows(all.data!.runSearch.id)).toEqual([[2]]);
  });
});
