// The Athena stand-in through the AWS SDK, unchanged: a query runs asynchronously, its results page with
// MaxResults and NextToken (the header row first, as Athena gives it), StopQueryExecution interrupts DuckDB (its
// work ends, not only its state), failures carry DuckDB's words, and Glue lists the lake's tables.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AthenaClient,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
} from '@aws-sdk/client-athena';
import {
  CreateTableCommand,
  DeleteTableCommand,
  GetTableCommand,
  GetTablesCommand,
  GlueClient,
  UpdateTableCommand,
} from '@aws-sdk/client-glue';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lakeTableSpecs, type LakeTableSpec } from '../../core/search/lake-tables';
import { readAthenaText } from '../../core/search/athena-values';
import { managedSchemas } from '../../core/schemas/managed-schemas';
import { glueTableInput } from '../../functions/lib/lake';
import { startAthena, type AthenaService } from '../../local/services/athena';
import { localClientConfig } from '../../local/services/net';

const TABLE: LakeTableSpec = {
  database: 'panther_logs',
  name: 'things',
  logType: 'Custom.Things',
  columns: [
    { name: 'p_event_time', type: 'timestamp' },
    { name: 'n', type: 'bigint' },
    { name: 'tags', type: 'array<string>' },
  ],
};

let dir: string;
let service: AthenaService;
let athena: AthenaClient;
let glue: GlueClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'caracal-athena-'));
  const hour = join(dir, 'panther_logs', 'things', 'year=2026', 'month=01', 'day=01', 'hour=00');
  mkdirSync(hour, { recursive: true });
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  await db.run(
    `COPY (SELECT '2026-01-01 00:00:00.000000000' AS p_event_time, i AS n, ['t' || (i % 3)] AS tags FROM range(2500) r(i)) TO '${join(hour, 'a.json.gz')}' (FORMAT json, COMPRESSION gzip)`,
  );
  db.closeSync();
  service = await startAthena({ lakeDir: dir, tables: [TABLE] });
  athena = new AthenaClient(localClientConfig(service.endpoint, 'us-east-1'));
  glue = new GlueClient(localClientConfig(service.endpoint, 'us-east-1'));
});

afterAll(async () => {
  athena?.destroy();
  glue?.destroy();
  await service?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function start(sql: string) {
  return (await athena.send(new StartQueryExecutionCommand({ QueryString: sql, WorkGroup: 'test' }))).QueryExecutionId!;
}

async function settled(id: string) {
  for (;;) {
    const q = (await athena.send(new GetQueryExecutionCommand({ QueryExecutionId: id }))).QueryExecution!;
    if (q.Status?.State !== 'RUNNING' && q.Status?.State !== 'QUEUED') return q;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('the Athena stand-in', () => {
  it('runs a query and pages its results with MaxResults and NextToken, the header row first', async () => {
    const id = await start('SELECT n, tags FROM panther_logs.public.things ORDER BY n');
    const q = await settled(id);
    expect(q.Status?.State).toBe('SUCCEEDED');
    expect(q.Statistics?.DataScannedInBytes).toBeGreaterThan(0);
    const first = await athena.send(new GetQueryResultsCommand({ QueryExecutionId: id, MaxResults: 1000 }));
    expect(first.ResultSet?.ResultSetMetadata?.ColumnInfo?.map((c) => [c.Name, c.Type])).toEqual([
      ['n', 'bigint'],
      ['tags', 'array'],
    ]);
    expect(first.ResultSet?.Rows?.[0].Data?.map((d) => d.VarCharValue)).toEqual(['n', 'tags']);
    expect(first.ResultSet?.Rows?.[1].Data?.map((d) => d.VarCharValue)).toEqual(['0', '[t0]']);
    const values: string[] = first.ResultSet!.Rows!.slice(1).map((r) => r.Data![0].VarCharValue!);
    let token = first.NextToken;
    while (token) {
      const page = await athena.send(new GetQueryResultsCommand({ QueryExecutionId: id, MaxResults: 700, NextToken: token }));
      expect(page.ResultSet!.Rows!.length).toBeLessThanOrEqual(700);
      values.push(...page.ResultSet!.Rows!.map((r) => r.Data![0].VarCharValue!));
      token = page.NextToken;
    }
    expect(values).toEqual(Array.from({ length: 2500 }, (_, i) => String(i)));
    await expect(athena.send(new GetQueryResultsCommand({ QueryExecutionId: id, NextToken: 'bm90LWEtdG9rZW4' }))).rejects.toThrow(
      'NextToken is not valid',
    );
  });

  it('stops a running query: DuckDB is interrupted', async () => {
    const id = await start(
      'SELECT count(*) FROM panther_logs.things a CROSS JOIN panther_logs.things b CROSS JOIN panther_logs.things c WHERE a.n + b.n + c.n = -1',
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(service.running()).toBe(1);
    await athena.send(new StopQueryExecutionCommand({ QueryExecutionId: id }));
    expect((await settled(id)).Status?.State).toBe('CANCELLED');
    const until = Date.now() + 5000;
    while (service.running() > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(service.running()).toBe(0);
    await expect(athena.send(new GetQueryResultsCommand({ QueryExecutionId: id }))).rejects.toThrow('Current state: CANCELLED');
  });

  it('answers queries one after another and at once on its reused connections, after failures and cancels', async () => {
    const count = (where: string) => `SELECT count(*) AS c FROM panther_logs.things WHERE ${where}`;
    for (let round = 0; round < 3; round++) {
      expect((await settled(await start('SELECT nothing FROM panther_logs.things'))).Status?.State).toBe('FAILED');
      const ids = await Promise.all([0, 1, 2, 3, 4, 5].map((k) => start(count(`n % 6 = ${k}`))));
      const done = await Promise.all(ids.map(settled));
      expect(done.map((q) => q.Status?.State)).toEqual(Array(6).fill('SUCCEEDED'));
      // each query's own statistics (its connection's profile), and its own rows
      for (const q of done) expect(q.Statistics?.DataScannedInBytes).toBeGreaterThan(0);
      const counts = await Promise.all(
        ids.map(
          async (id) =>
            (await athena.send(new GetQueryResultsCommand({ QueryExecutionId: id }))).ResultSet!.Rows![1].Data![0].VarCharValue,
        ),
      );
      expect(counts.map(Number).reduce((a, b) => a + b, 0)).toBe(2500);
    }
  });

  it('fails a query DuckDB refuses, with its words', async () => {
    const q = await settled(await start('SELECT nothing FROM panther_logs.things'));
    expect(q.Status?.State).toBe('FAILED');
    expect(q.Status?.StateChangeReason).toContain('nothing');
  });

  it('lists the Glue tables', async () => {
    const tables = await glue.send(new GetTablesCommand({ DatabaseName: 'panther_logs' }));
    expect(tables.TableList?.map((t) => [t.Name, t.Parameters?.['caracal.logType']])).toEqual([['things', 'Custom.Things']]);
    const table = await glue.send(new GetTableCommand({ DatabaseName: 'panther_logs', Name: 'things' }));
    expect(table.Table?.StorageDescriptor?.Columns?.map((c) => `${c.Name}:${c.Type}`)).toEqual([
      'p_event_time:timestamp',
      'n:bigint',
      'tags:array<string>',
    ]);
    await expect(glue.send(new GetTableCommand({ DatabaseName: 'panther_logs', Name: 'nope' }))).rejects.toThrow(
      'Table nope not found.',
    );
    await expect(glue.send(new GetTablesCommand({ DatabaseName: 'mysql' }))).rejects.toThrow('Database mysql not found.');
  });
});

async function rowsOf(client: AthenaClient, sql: string) {
  const id = (await client.send(new StartQueryExecutionCommand({ QueryString: sql, WorkGroup: 'test' }))).QueryExecutionId!;
  for (;;) {
    const q = (await client.send(new GetQueryExecutionCommand({ QueryExecutionId: id }))).QueryExecution!;
    if (q.Status?.State === 'FAILED') throw new Error(q.Status.StateChangeReason);
    if (q.Status?.State === 'SUCCEEDED') {
      const out = await client.send(new GetQueryResultsCommand({ QueryExecutionId: id }));
      return {
        bytes: q.Statistics!.DataScannedInBytes!,
        rows: out.ResultSet!.Rows!.slice(1).map((r) => r.Data!.map((d) => d.VarCharValue ?? null)),
      };
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('the Athena stand-in, as Athena answers', () => {
  it('writes arrays, rows and maps as Athena does, and the search service reads them back', async () => {
    const { rows } = await rowsOf(
      athena,
      `SELECT ARRAY['a', 'b'] AS xs, ARRAY[1, 2] AS ns, CAST(ROW(1, 'x') AS ROW(n integer, s varchar)) AS r, ARRAY[ARRAY['p'], ARRAY[]] AS nested, CAST(NULL AS array(varchar)) AS none`,
    );
    expect(rows[0]).toEqual(['[a, b]', '[1, 2]', '{n=1, s=x}', '[[p], []]', null]);
    expect(rows[0].slice(0, 4).map((v) => readAthenaText(v!))).toEqual([['a', 'b'], ['1', '2'], { n: '1', s: 'x' }, [['p'], []]]);
    expect(readAthenaText('[a, null, {k=[1, 2]}]')).toEqual(['a', null, { k: ['1', '2'] }]);
    expect(readAthenaText('plain')).toBeUndefined();
    expect(readAthenaText('[unclosed')).toBeUndefined();
  });

  it('counts as scanned the files read after partition pruning, not every file of the table', async () => {
    const lake = mkdtempSync(join(tmpdir(), 'caracal-athena-scan-'));
    const db = await (await DuckDBInstance.create(':memory:')).connect();
    for (const day of ['01', '02', '03', '04']) {
      const hour = join(lake, 'panther_logs', 'things', 'year=2026', 'month=01', `day=${day}`, 'hour=00');
      mkdirSync(hour, { recursive: true });
      await db.run(
        `COPY (SELECT '2026-01-${day} 00:00:00.000000000' AS p_event_time, i AS n, ['t'] AS tags FROM range(500) r(i)) TO '${join(hour, 'a.json.gz')}' (FORMAT json, COMPRESSION gzip)`,
      );
    }
    db.closeSync();
    const scan = await startAthena({ lakeDir: lake, tables: [TABLE] });
    const client = new AthenaClient(localClientConfig(scan.endpoint, 'us-east-1'));
    try {
      const all = await rowsOf(client, 'SELECT count(*) FROM panther_logs.things');
      const oneDay = await rowsOf(client, 'SELECT count(*) FROM panther_logs.things WHERE year = 2026 AND month = 1 AND day = 2');
      expect([all.rows[0][0], oneDay.rows[0][0]]).toEqual(['2000', '500']);
      expect(all.bytes).toBeGreaterThan(0);
      expect(oneDay.bytes / all.bytes).toBeCloseTo(0.25, 1);
      const none = await rowsOf(client, 'SELECT count(*) FROM panther_logs.things WHERE year = 2019');
      expect(none.bytes).toBe(0);
      // The table's listing is kept between queries, and is taken anew once a file has landed.
      expect((await rowsOf(client, 'SELECT count(*) FROM panther_logs.things')).bytes).toBe(all.bytes);
      const hour = join(lake, 'panther_logs', 'things', 'year=2026', 'month=01', 'day=05', 'hour=00');
      mkdirSync(hour, { recursive: true });
      const more = await (await DuckDBInstance.create(':memory:')).connect();
      await more.run(
        `COPY (SELECT '2026-01-05 00:00:00.000000000' AS p_event_time, i AS n, ['t'] AS tags FROM range(500) r(i)) TO '${join(hour, 'a.json.gz')}' (FORMAT json, COMPRESSION gzip)`,
      );
      more.closeSync();
      const five = await rowsOf(client, 'SELECT count(*) FROM panther_logs.things');
      expect(five.rows[0][0]).toBe('2500');
      expect(five.bytes / all.bytes).toBeCloseTo(1.25, 1);
    } finally {
      client.destroy();
      await scan.stop();
      rmSync(lake, { recursive: true, force: true });
    }
  });

  it('keeps the tables made through Glue across a restart, and makes one without reloading the others', async () => {
    const state = mkdtempSync(join(tmpdir(), 'caracal-athena-catalog-'));
    const lake = join(state, 'lake');
    const hour = join(lake, 'panther_logs', 'custom_late', 'year=2026', 'month=01', 'day=01', 'hour=00');
    mkdirSync(hour, { recursive: true });
    const db = await (await DuckDBInstance.create(':memory:')).connect();
    await db.run(
      `COPY (SELECT '2026-01-01 00:00:00.000000000' AS p_event_time, 'v' || i AS word FROM range(3) r(i)) TO '${join(hour, 'a.json.gz')}' (FORMAT json, COMPRESSION gzip)`,
    );
    db.closeSync();
    const catalogFile = join(state, 'glue-tables.json');
    const managed = lakeTableSpecs(managedSchemas());
    expect(managed.length).toBeGreaterThan(300);
    const custom = lakeTableSpecs([{ schema: 'Custom.Late', fields: [{ name: 'word', type: 'string' as const }] }]);
    let first: AthenaService | undefined = await startAthena({ lakeDir: lake, tables: managed, catalogFile });
    let client = new GlueClient(localClientConfig(first.endpoint, 'us-east-1'));
    let query = new AthenaClient(localClientConfig(first.endpoint, 'us-east-1'));
    try {
      for (const t of custom)
        await client.send(new CreateTableCommand({ DatabaseName: t.database, TableInput: glueTableInput(t, 'lake') }));
      expect((await rowsOf(query, 'SELECT word FROM panther_logs.custom_late ORDER BY word')).rows).toEqual([
        ['v0'],
        ['v1'],
        ['v2'],
      ]);
      // A managed table is still there and still read (its view was not dropped with a reload).
      expect((await rowsOf(query, 'SELECT count(*) FROM panther_logs.aws_cloudtrail')).rows).toEqual([['0']]);
      const wider = lakeTableSpecs([
        {
          schema: 'Custom.Late',
          fields: [
            { name: 'word', type: 'string' as const },
            { name: 'extra', type: 'bigint' as const },
          ],
        },
      ]).find((t) => t.database === 'panther_logs')!;
      await client.send(new UpdateTableCommand({ DatabaseName: 'panther_logs', TableInput: glueTableInput(wider, 'lake') }));
      expect((await rowsOf(query, 'SELECT word, extra FROM panther_logs.custom_late ORDER BY word')).rows[0]).toEqual([
        'v0',
        null,
      ]);
      client.destroy();
      query.destroy();
      await first.stop();
      first = undefined;
      // Started again with only the managed tables given, as the local runtime does: the custom one is known.
      const second = await startAthena({ lakeDir: lake, tables: managed, catalogFile });
      client = new GlueClient(localClientConfig(second.endpoint, 'us-east-1'));
      query = new AthenaClient(localClientConfig(second.endpoint, 'us-east-1'));
      try {
        const table = await client.send(new GetTableCommand({ DatabaseName: 'panther_signals', Name: 'custom_late' }));
        expect(table.Table?.Parameters?.['caracal.logType']).toBe('Custom.Late');
        // the parameters given are kept (the lake-tables resource's owner mark among them)
        expect(table.Table?.Parameters?.['storage.location.template']).toContain('s3://lake/panther_signals/custom_late/');
        expect((await rowsOf(query, 'SELECT word, extra FROM panther_logs.custom_late ORDER BY word')).rows).toEqual([
          ['v0', null],
          ['v1', null],
          ['v2', null],
        ]);
        // DeleteTable: the table and its view go (a managed one too), the files stay, and it stays gone after a restart
        await client.send(new DeleteTableCommand({ DatabaseName: 'panther_logs', Name: 'custom_late' }));
        await client.send(new DeleteTableCommand({ DatabaseName: 'panther_logs', Name: 'aws_cloudtrail' }));
        await expect(client.send(new DeleteTableCommand({ DatabaseName: 'panther_logs', Name: 'custom_late' }))).rejects.toThrow(
          'not found',
        );
        await expect(rowsOf(query, 'SELECT word FROM panther_logs.custom_late')).rejects.toThrow();
        expect(existsSync(join(hour, 'a.json.gz'))).toBe(true);
      } finally {
        client.destroy();
        query.destroy();
        await second.stop();
      }
      const third = await startAthena({ lakeDir: lake, tables: managed, catalogFile });
      client = new GlueClient(localClientConfig(third.endpoint, 'us-east-1'));
      query = new AthenaClient(localClientConfig(third.endpoint, 'us-east-1'));
      try {
        const names = (await client.send(new GetTablesCommand({ DatabaseName: 'panther_logs' }))).TableList!.map((t) => t.Name);
        expect(names).not.toContain('custom_late');
        expect(names).not.toContain('aws_cloudtrail');
        expect(names.length).toBe(managed.filter((t) => t.database === 'panther_logs').length - 1);
        const signals = (await client.send(new GetTablesCommand({ DatabaseName: 'panther_signals' }))).TableList!.map(
          (t) => t.Name,
        );
        expect(signals).toContain('custom_late');
      } finally {
        await third.stop();
      }
    } finally {
      client.destroy();
      query.destroy();
      await first?.stop();
      rmSync(state, { recursive: true, force: true });
    }
  });
});
