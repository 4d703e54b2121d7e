// The Athena stand-in's DuckDB is locked down underneath the search guard: a statement that reaches it with no
// check at all (sent straight through the Athena API, as a guard miss would) still cannot read or list a file
// outside the lake's folder, load an extension, lift a setting, or take more than its memory.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AthenaClient,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
} from '@aws-sdk/client-athena';
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
  ],
};

let root: string;
let secret: string;
let service: AthenaService;
let athena: AthenaClient;

beforeAll(async () => {
  // The state folder beside the lake, as under .local/: a file the platform's user can read.
  root = mkdtempSync(join(tmpdir(), 'caracal-lockdown-'));
  const lake = join(root, 's3', 'lake');
  const hour = join(lake, 'panther_logs', 'things', 'year=2026', 'month=01', 'day=01', 'hour=00');
  mkdirSync(hour, { recursive: true });
  writeFileSync(join(hour, 'a.json'), '{"p_event_time":"2026-01-01 00:00:00","n":1}\n');
  secret = join(root, 'cognito', 'signing-key.json');
  mkdirSync(join(root, 'cognito'));
  writeFileSync(secret, '{"private":"the signing key"}');
  service = await startAthena({ lakeDir: lake, tables: [TABLE] });
  athena = new AthenaClient(localClientConfig(service.endpoint, 'us-east-1'));
});

afterAll(async () => {
  athena?.destroy();
  await service?.stop();
  rmSync(root, { recursive: true, force: true });
});

async function run(sql: string): Promise<{ state: string; reason?: string; rows: string[][] }> {
  const id = (await athena.send(new StartQueryExecutionCommand({ QueryString: sql, WorkGroup: 'test' }))).QueryExecutionId!;
  for (;;) {
    const q = (await athena.send(new GetQueryExecutionCommand({ QueryExecutionId: id }))).QueryExecution!;
    const state = q.Status!.State!;
    if (state === 'RUNNING' || state === 'QUEUED') continue;
    if (state !== 'SUCCEEDED') return { state, reason: q.Status!.StateChangeReason, rows: [] };
    const r = await athena.send(new GetQueryResultsCommand({ QueryExecutionId: id }));
    return { state, rows: r.ResultSet!.Rows!.slice(1).map((row) => row.Data!.map((d) => d.VarCharValue ?? '')) };
  }
}

describe("the stand-in's engine, reached with no guard in front", () => {
  it('reads the lake', async () => {
    expect(await run('SELECT n FROM panther_logs.things')).toEqual({ state: 'SUCCEEDED', rows: [['1']] });
  });

  const outside = () => [
    `SELECT content FROM read_text('${secret}')`,
    `SELECT * FROM '${secret}'`,
    `SELECT * FROM read_json_auto('${secret}')`,
    `SELECT * FROM read_csv('${secret}')`,
    `SELECT * FROM glob('${root}/*')`,
    `SELECT * FROM read_text('${join(root, 's3', 'lake')}/../../cognito/signing-key.json')`,
    `SELECT content FROM read_text('/proc/self/environ')`,
    // The probe that forged an Admin: the inner statement is a string the guard never read.
    `SELECT * FROM (SELECT 1) t, LATERAL json_execute_serialized_sql(json_serialize_sql('SELECT content FROM read_text(''${secret}'')'))`,
    `ATTACH '${join(root, 'other.db')}' AS other`,
    `COPY (SELECT 1) TO '${join(root, 'out.csv')}'`,
  ];
  it('cannot read, list, attach or write a file outside the lake', async () => {
    for (const sql of outside()) {
      const r = await run(sql);
      expect(r.state, sql).toBe('FAILED');
      expect(r.reason, sql).not.toContain('the signing key');
      expect(JSON.stringify(r.rows)).not.toContain('the signing key');
    }
  });

  it('cannot change its settings, load extensions or turn file access back on', async () => {
    for (const sql of [
      'SET enable_external_access = true',
      "SET allowed_directories = ['/']",
      "SET memory_limit = '64GB'",
      'SET threads = 64',
      'SET lock_configuration = false',
      "PRAGMA enable_profiling = 'json'",
      'INSTALL httpfs',
      'LOAD httpfs',
    ]) {
      const r = await run(sql);
      expect(r.state, sql).toBe('FAILED');
    }
    expect((await run("SELECT current_setting('enable_external_access')")).rows).toEqual([['false']]);
    expect((await run("SELECT current_setting('lock_configuration')")).rows).toEqual([['true']]);
  });

  it('bounds memory: a builder past the limit fails instead of taking the machine', async () => {
    const r = await run('SELECT len(list(x)) FROM range(400000000) t(x)');
    expect(r.state).toBe('FAILED');
    expect(r.reason).toMatch(/Out of Memory/i);
    // and the engine still answers afterwards
    expect((await run('SELECT n FROM panther_logs.things')).rows).toEqual([['1']]);
  });
});
