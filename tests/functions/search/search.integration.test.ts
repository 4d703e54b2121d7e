/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL answers are read loosely here; their shapes are what the assertions check */
// Search end to end on the local runtime: GraphQL → the search function → @aws-sdk/client-athena → the Athena
// stand-in → DuckDB over the lake bucket's files. Generated CloudTrail events (100,000 this week, a few 40
// days old) are written to the lake through the S3 stand-in; each mode runs over a time range, a running query
// is cancelled, 100,000 rows are paged through, user SQL that is not one read-only query is refused, and a
// user without DataAnalyticsRead is refused.
import { gzipSync } from 'node:zlib';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lakeTime, partitionPath, LOGS_DATABASE, tableName } from '../../../core/lake/layout';
import { ENV } from '../../../functions/lib/env';
import { localClientConfig } from '../../../local/services/net';
import { graphql, signIn, startTestRuntime, type TestRuntime } from '../../local/harness';
import { useApiFunctionEnvironment } from '../notifications/runtime-env';

let runtime: TestRuntime;
let admin: string;
let outsider: string;

const NOW = Date.now();
const HOUR = 3_600_000;
const EVENTS = 100_000;
const OLD_EVENTS = 7;
const NAMES = ['ConsoleLogin', 'GetObject', 'PutObject', 'AssumeRole'];
const SEARCH_FIELDS =
  'id mode query sql status error rowCount bytesScanned elapsedMs timeRangeFrom timeRangeTo columns { name type } visualization';

function event(i: number, time: number) {
  const ip = `10.0.${(i >> 8) & 255}.${i & 255}`;
  return {
    awsRegion: 'us-east-1',
    eventName: NAMES[i % NAMES.length],
    eventSource: 's3.amazonaws.com',
    eventTime: new Date(time).toISOString(),
    sourceIPAddress: ip,
    userIdentity: { type: 'IAMUser', userName: `user${i % 10}`, arn: `arn:aws:iam::123456789012:user/user${i % 10}` },
    requestParameters: { principalId: 'lower', principalID: 'UPPER' },
    p_event_time: lakeTime(new Date(time)),
    p_parse_time: lakeTime(new Date(NOW)),
    p_log_type: 'AWS.CloudTrail',
    p_row_id: `row${String(i).padStart(6, '0')}`,
    p_source_id: 'src',
    p_source_label: 'generated',
    p_any_ip_addresses: [ip],
    p_any_usernames: [`user${i % 10}`],
  };
}

async function writeLake() {
  const s3 = new S3Client(localClientConfig(runtime.endpoints.s3, runtime.stack.region));
  const bucket = process.env[ENV.lakeBucket]!;
  const byHour = new Map<string, string[]>();
  const add = (i: number, time: number) => {
    const path = partitionPath(LOGS_DATABASE, 'aws_cloudtrail', lakeTime(new Date(time)));
    const lines = byHour.get(path) ?? [];
    lines.push(JSON.stringify(event(i, time)));
    byHour.set(path, lines);
  };
  // 100,000 events spread over the last 48 hours (ending an hour ago), and a few 40 days ago.
  for (let i = 0; i < EVENTS; i++) add(i, NOW - HOUR - Math.floor((i / EVENTS) * 47 * HOUR));
  for (let i = 0; i < OLD_EVENTS; i++) add(EVENTS + i, NOW - 40 * 24 * HOUR);
  for (const [path, lines] of byHour)
    await s3.send(
      new PutObjectCommand({ Bucket: bucket, Key: `${path}/generated.json.gz`, Body: gzipSync(lines.join('\n') + '\n') }),
    );
  s3.destroy();
}

beforeAll(async () => {
  runtime = await startTestRuntime();
  useApiFunctionEnvironment(runtime);
  const [first] = runtime.createdUsers;
  admin = (await signIn(runtime, first.username, first.temporaryPassword, 'Admin-Caracal-2026!')).idToken;
  const role = await ok<{ createRole: { id: string } }>(
    admin,
    'mutation($input: CreateRoleInput!) { createRole(input: $input) { id } }',
    {
      input: { name: 'Alert readers', permissions: ['AlertRead'] },
    },
  );
  const email = 'outsider@caracal.local';
  await ok(admin, 'mutation($input: InviteUserInput!) { inviteUser(input: $input) { id } }', {
    input: { email, givenName: 'Out', familyName: 'Sider', role: { kind: 'Id', value: role.createRole.id } },
  });
  const mail = runtime.mailbox.filter((m) => m.to === email).at(-1);
  outsider = (await signIn(runtime, email, mail!.code!, 'Outsider-Caracal-2026!')).idToken;
  await writeLake();
}, 300_000);

afterAll(async () => {
  await runtime?.stop();
});

async function call(token: string, query: string, variables: Record<string, unknown> = {}) {
  const { body } = await graphql(runtime, { query, variables }, token);
  return body as { data?: Record<string, any>; errors?: Array<Record<string, any>> };
}

async function ok<T = Record<string, any>>(token: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const body = await call(token, query, variables);
  expect(body.errors).toBeUndefined();
  return body.data as T;
}

type Search = {
  id: string;
  status: string;
  error: string | null;
  sql: string;
  rowCount: number | null;
  bytesScanned: number | null;
  columns: { name: string }[];
};

async function run(input: Record<string, unknown>): Promise<Search> {
  const data = await ok<{ runSearch: Search }>(
    admin,
    `mutation($input: RunSearchInput!) { runSearch(input: $input) { ${SEARCH_FIELDS} } }`,
    { input },
  );
  return data.runSearch;
}

async function finished(id: string, timeoutMs = 60_000): Promise<Search> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { search } = await ok<{ search: Search }>(admin, `query($id: ID!) { search(id: $id) { ${SEARCH_FIELDS} } }`, { id });
    if (search.status !== 'RUNNING' || Date.now() > until) return search;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function rows(id: string, pageSize = 999, cursor?: string) {
  const data = await ok<{ searchResults: { rows: string[]; cursor: string | null; columns: { name: string; type: string }[] } }>(
    admin,
    'query($input: SearchResultsInput!) { searchResults(input: $input) { columns { name type } rows cursor } }',
    { input: { searchId: id, pageSize, cursor } },
  );
  return { ...data.searchResults, values: data.searchResults.rows.map((r) => JSON.parse(r) as unknown[]) };
}

const P1W = { preset: 'P1W' };

describe('search modes over generated events', () => {
  it('SQL: counts per event name over the last week, with the partition filter of the range', async () => {
    const started = await run({
      mode: 'SQL',
      query: 'SELECT eventName, count(*) AS n FROM panther_logs.aws_cloudtrail GROUP BY eventName ORDER BY eventName',
      timeRange: P1W,
    });
    // runSearch waits a little for its query (START_WAIT_MS): a short one may answer SUCCEEDED at once
    expect(['RUNNING', 'SUCCEEDED']).toContain(started.status);
    expect(started.sql).toMatch(/"year" = \d{4}|year = \d{4}/);
    const done = await finished(started.id);
    expect(done.error).toBeNull();
    expect(done.status).toBe('SUCCEEDED');
    expect(done.rowCount).toBe(4);
    expect(done.bytesScanned).toBeGreaterThan(0);
    const page = await rows(done.id);
    expect(page.columns).toEqual([
      { name: 'eventName', type: 'varchar' },
      { name: 'n', type: 'bigint' },
    ]);
    expect(page.values).toEqual([...NAMES].sort().map((name) => [name, EVENTS / NAMES.length]));
  });

  it('SQL over all time sees the old events the week leaves out', async () => {
    const done = await finished(
      (
        await run({
          mode: 'SQL',
          query: 'SELECT count(*) AS n FROM panther_logs.aws_cloudtrail',
          timeRange: { preset: 'PAllTime' },
        })
      ).id,
    );
    expect((await rows(done.id)).values).toEqual([[EVENTS + OLD_EVENTS]]);
  });

  it('PantherFlow (the Athena dialect) with a visualization', async () => {
    const done = await finished(
      (
        await run({
          mode: 'PANTHERFLOW',
          query:
            "panther_logs.public.aws_cloudtrail | where eventName == 'ConsoleLogin' | summarize n = agg.count() by userIdentity.userName | sort userName asc | visualize bar",
          timeRange: { preset: 'PT24H' },
        })
      ).id,
    );
    expect(done.error).toBeNull();
    expect(done.status).toBe('SUCCEEDED');
    const page = await rows(done.id);
    expect(page.values.length).toBeGreaterThan(0);
    const total = page.values.reduce((sum, r) => sum + Number(r[r.length - 1]), 0);
    // The last 24 hours hold about half of the events spread over 47 hours; ConsoleLogin is a quarter of them.
    expect(total).toBeGreaterThan(EVENTS / 4 / 3);
    expect(total).toBeLessThan(EVENTS / 4);
  });

  it('the builder: a condition, fields and a limit', async () => {
    const conditions = {
      kind: 'group',
      conjunction: 'and',
      items: [
        { kind: 'condition', target: 'eventName', operator: '==', value: 'AssumeRole' },
        { kind: 'condition', target: 'sourceIPAddress', operator: 'starts with', value: '10.0.1.' },
      ],
    };
    const done = await finished(
      (
        await run({
          mode: 'BUILDER',
          builder: {
            logTypes: ['AWS.CloudTrail'],
            conditions: JSON.stringify(conditions),
            fields: ['eventName', 'sourceIPAddress', 'userIdentity.userName'],
            limit: 50,
          },
          timeRange: P1W,
        })
      ).id,
    );
    expect(done.error).toBeNull();
    const page = await rows(done.id);
    expect(page.columns.map((c) => c.name)).toEqual(['p_event_time', 'eventName', 'sourceIPAddress', 'userIdentity.userName']);
    expect(page.values.length).toBeGreaterThan(0);
    for (const r of page.values) {
      expect(r[1]).toBe('AssumeRole');
      expect(String(r[2]).startsWith('10.0.1.')).toBe(true);
    }
  });

  it('indicator search counts an IP per log type', async () => {
    const { indicatorSearch } = await ok<{ indicatorSearch: Search }>(
      admin,
      `query($input: IndicatorSearchInput!) { indicatorSearch(input: $input) { ${SEARCH_FIELDS} } }`,
      { input: { indicator: '10.0.0.7', timeRange: P1W } },
    );
    const done = await finished(indicatorSearch.id, 120_000);
    expect(done.error).toBeNull();
    expect((await rows(done.id)).values).toEqual([['AWS.CloudTrail', 2]]);
  });

  it('pages through 100,000 rows with the cursor, each row once', async () => {
    const done = await finished(
      (await run({ mode: 'SQL', query: 'SELECT p_row_id FROM panther_logs.aws_cloudtrail ORDER BY p_row_id', timeRange: P1W }))
        .id,
    );
    expect(done.rowCount).toBe(EVENTS);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await rows(done.id, 999, cursor);
      for (const r of page.values) seen.push(String(r[0]));
      cursor = page.cursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(Math.ceil(EVENTS / 999));
    expect(seen.length).toBe(EVENTS);
    expect(seen[0]).toBe('row000000');
    expect(seen[EVENTS - 1]).toBe(`row${String(EVENTS - 1).padStart(6, '0')}`);
    expect(new Set(seen).size).toBe(EVENTS);
  }, 180_000);

  it('cancels a running query', async () => {
    const started = await run({
      mode: 'SQL',
      query:
        'SELECT count(*) AS n FROM panther_logs.aws_cloudtrail a CROSS JOIN panther_logs.aws_cloudtrail b WHERE a.eventName <> b.p_row_id',
      timeRange: P1W,
    });
    expect(started.status).toBe('RUNNING');
    await new Promise((r) => setTimeout(r, 300));
    const { cancelSearch } = await ok<{ cancelSearch: Search }>(
      admin,
      `mutation($id: ID!) { cancelSearch(id: $id) { ${SEARCH_FIELDS} } }`,
      { id: started.id },
    );
    expect(cancelSearch.status).toBe('CANCELLED');
    expect((await finished(started.id)).status).toBe('CANCELLED');
    const body = await call(admin, 'query($input: SearchResultsInput!) { searchResults(input: $input) { cursor } }', {
      input: { searchId: started.id },
    });
    expect(body.errors?.[0]?.message).toBe('The search has no results: it has not succeeded');
    // The engine is free again: a small query answers at once.
    const quick = await finished(
      (await run({ mode: 'SQL', query: 'SELECT 1 AS one FROM panther_logs.aws_cloudtrail LIMIT 1', timeRange: P1W })).id,
      10_000,
    );
    expect(quick.status).toBe('SUCCEEDED');
  });

  it('a query the engine refuses is FAILED with its words', async () => {
    const done = await finished(
      (await run({ mode: 'SQL', query: 'SELECT no_such_column FROM panther_logs.aws_cloudtrail', timeRange: P1W })).id,
    );
    expect(done.status).toBe('FAILED');
    expect(done.error).toContain('no_such_column');
  });
});

describe('the demo data', () => {
  it('finds the events of a demo round in each of its log types, through SQL and PantherFlow', async () => {
    const { generateDemoEvents } = await ok<any>(admin, 'mutation { generateDemoEvents { sent { logType events } } }');
    const sent = (generateDemoEvents.sent as { logType: string; events: number }[]).filter((s) => s.events > 0);
    expect(sent.length).toBeGreaterThan(0);
    // One fixed window for both queries: a sliding 24-hour preset drops events at its far edge between them.
    const range = {
      from: new Date(Date.now() - 24 * 3_600_000).toISOString(),
      to: new Date(Date.now() + 3_600_000).toISOString(),
    };
    for (const { logType } of sent) {
      const table = tableName(logType);
      let count = 0;
      for (const until = Date.now() + 90_000; count === 0 && Date.now() < until;) {
        const done = await finished(
          (await run({ mode: 'SQL', query: `SELECT count(*) AS n FROM panther_logs.${table}`, timeRange: range })).id,
        );
        expect(done.error).toBeNull();
        count = Number((await rows(done.id)).values[0][0]);
        if (!count) await new Promise((r) => setTimeout(r, 1000));
      }
      expect(count, `${logType} events in the lake`).toBeGreaterThan(0);
      const flow = await finished(
        (
          await run({
            mode: 'PANTHERFLOW',
            query: `panther_logs.public.${table} | summarize n = agg.count()`,
            timeRange: range,
          })
        ).id,
      );
      expect(flow.error).toBeNull();
      expect(Number((await rows(flow.id)).values[0][0])).toBeGreaterThanOrEqual(count);
    }
  }, 300_000);
});

describe('read-only SQL', () => {
  const refused: [string, string][] = [
    ['SELECT 1; DROP TABLE panther_logs.aws_cloudtrail', 'Only one statement may run'],
    ['DROP TABLE panther_logs.aws_cloudtrail', 'Only a SELECT'],
    ['INSERT INTO panther_logs.aws_cloudtrail VALUES (1)', 'Only a SELECT'],
    ["SELECT * FROM read_csv('/etc/passwd')", 'read_csv() is not allowed'],
    ["SELECT * FROM 'https://example.com/x.parquet'", 'Reading a file or URL is not allowed'],
    ['SELECT * FROM information_schema.tables', 'is not a table of the data lake'],
    ["WITH x AS (SELECT 1) SELECT * FROM x; COPY x TO '/tmp/x'", 'Only one statement may run'],
    ["SELECT * FROM panther_logs.aws_cloudtrail WHERE eventName = (SELECT getenv('HOME'))", 'getenv() is not allowed'],
  ];
  for (const [query, message] of refused)
    it(`refuses ${query}`, async () => {
      const body = await call(admin, `mutation($input: RunSearchInput!) { runSearch(input: $input) { id } }`, {
        input: { mode: 'SQL', query, timeRange: P1W },
      });
      expect(body.errors?.[0]?.errorType).toBe('InvalidInput');
      expect(body.errors?.[0]?.message).toContain(message);
    });
});

describe('history, saved searches, catalog and permissions', () => {
  it("keeps the caller's searches in history, newest first, paged", async () => {
    const first = await ok<any>(
      admin,
      'query { searchHistory(input: { pageSize: 2 }) { edges { node { id mode createdAt } } pageInfo { hasNextPage endCursor } } }',
    );
    expect(first.searchHistory.edges).toHaveLength(2);
    expect(first.searchHistory.pageInfo.hasNextPage).toBe(true);
    const [a, b] = first.searchHistory.edges.map((e: any) => e.node.createdAt);
    expect(a >= b).toBe(true);
    const next = await ok<any>(
      admin,
      'query($c: String) { searchHistory(input: { pageSize: 2, cursor: $c }) { edges { node { id } } } }',
      {
        c: first.searchHistory.pageInfo.endCursor,
      },
    );
    const ids = first.searchHistory.edges.map((e: any) => e.node.id);
    for (const e of next.searchHistory.edges) expect(ids).not.toContain(e.node.id);
  });

  it('saves, lists, updates with a revision and deletes a search', async () => {
    const fields = 'id name tags mode query revision createdBy';
    const { saveSearch } = await ok<any>(
      admin,
      `mutation($input: SaveSearchInput!) { saveSearch(input: $input) { ${fields} } }`,
      {
        input: {
          name: 'Console logins',
          tags: ['auth'],
          mode: 'SQL',
          query: 'SELECT * FROM panther_logs.aws_cloudtrail',
          defaultTimeRange: 'PT24H',
        },
      },
    );
    expect(saveSearch.revision).toBe(1);
    const listed = await ok<any>(admin, 'query { savedSearches(input: { search: "console" }) { edges { node { id name } } } }');
    expect(listed.savedSearches.edges.map((e: any) => e.node.id)).toContain(saveSearch.id);
    const update = (revision: number) =>
      call(admin, `mutation($input: UpdateSavedSearchInput!) { updateSavedSearch(input: $input) { ${fields} } }`, {
        input: {
          id: saveSearch.id,
          revision,
          name: 'Console logins (all)',
          mode: 'SQL',
          query: 'SELECT 1 AS x FROM panther_logs.aws_cloudtrail',
        },
      });
    expect((await update(1)).data?.updateSavedSearch.revision).toBe(2);
    expect((await update(1)).errors?.[0]?.errorType).toBe('RevisionConflict');
    const refused = await call(admin, `mutation($input: SaveSearchInput!) { saveSearch(input: $input) { id } }`, {
      input: { name: 'bad', mode: 'SQL', query: 'DELETE FROM panther_logs.aws_cloudtrail' },
    });
    expect(refused.errors?.[0]?.errorType).toBe('InvalidInput');
    await ok(admin, 'mutation($id: ID!) { deleteSavedSearch(id: $id) { id } }', { id: saveSearch.id });
    expect(
      (await ok<any>(admin, 'query($id: ID!) { savedSearch(id: $id) { id } }', { id: saveSearch.id })).savedSearch,
    ).toBeNull();
  });

  it("lists the lake's databases, tables and columns", async () => {
    const { lakeCatalog } = await ok<any>(admin, 'query { lakeCatalog { name tables { name logType columns { name type } } } }');
    expect(lakeCatalog.map((d: any) => d.name)).toEqual(['panther_logs', 'panther_signals', 'panther_rule_errors']);
    const trail = lakeCatalog[0].tables.find((t: any) => t.name === 'aws_cloudtrail');
    expect(trail.logType).toBe('AWS.CloudTrail');
    expect(trail.columns).toContainEqual({ name: 'p_event_time', type: 'timestamp' });
  });

  it("refuses a user without DataAnalyticsRead, and hides one user's searches from another", async () => {
    const body = await call(outsider, `mutation($input: RunSearchInput!) { runSearch(input: $input) { id } }`, {
      input: { mode: 'SQL', query: 'SELECT 1 AS x FROM panther_logs.aws_cloudtrail', timeRange: P1W },
    });
    expect(body.errors?.[0]?.errorType).toBe('Unauthorized');
    expect((await call(outsider, 'query { lakeCatalog { name } }')).errors?.[0]?.errorType).toBe('Unauthorized');
    expect((await call(outsider, 'query { searchHistory(input: {}) { edges { cursor } } }')).errors?.[0]?.errorType).toBe(
      'Unauthorized',
    );
  });
});
