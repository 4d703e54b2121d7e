// The Athena stand-in through the AWS SDK, unchanged: a query runs asynchronously, its results page with
// MaxResults and NextToken (the header row first, as Athena gives it), StopQueryExecution interrupts DuckDB (its
// work ends, not only its state), failures carry DuckDB's words, and Glue lists the lake's tables.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AthenaClient,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
} from '@aws-sdk/client-athena';
import { GetTableCommand, GetTablesCommand, GlueClient } from '@aws-sdk/client-glue';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LakeTableSpec } from '../../core/search/lake-tables';
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
    expect(first.ResultSet?.Rows?.[1].Data?.map((d) => d.VarCharValue)).toEqual(['0', '["t0"]']);
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
