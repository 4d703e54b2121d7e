// The DuckDB lake runner and `caracal flow`: partition predicates really skip files, and the command prints rows,
// SQL, or errors with line and column.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../../../bin/commands/flow';
import { compile } from '../../../core/pantherflow/compiler';
import { staticCatalog } from '../../../core/pantherflow/catalog';
import { T } from '../../../core/pantherflow/types';
import { openLake } from '../../../local/services/athena/duckdb';
import { EVENT_COLUMNS } from '../../../core/search/lake-tables';
import { LAKE_DIR } from './golden';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'caracal-lake-'));
  const hour = (h: string) => join(dir, 'panther_logs', 'demo', 'year=2024', 'month=05', 'day=01', `hour=${h}`);
  mkdirSync(hour('10'), { recursive: true });
  mkdirSync(hour('11'), { recursive: true });
  mkdirSync(join(dir, 'panther_logs', 'empty_so_far', 'year=2024'), { recursive: true });
  writeFileSync(join(hour('10'), 'a.json'), '{"p_event_time": "2024-05-01 10:00:00", "n": 1}\n');
  writeFileSync(join(hour('11'), 'a.json'), '{"p_event_time": "2024-05-01 11:00:00", "n": 2}\n');
  // `caracal flow` takes a custom table's columns from its schema, never from the files.
  writeFileSync(join(dir, 'demo.yml'), 'schema: Demo\nfields:\n  - name: n\n    type: bigint\n');
  writeFileSync(join(dir, 'flows.yml'), 'schema: Flows\nfields:\n  - name: port\n    type: bigint\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function capture(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true));
  try {
    return { code: await run(argv), out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

describe('lake runner', () => {
  it('reads only the partitions a p_event_time filter selects', async () => {
    // A row filed under hour=11 whose time says 10:30: it is returned only if that partition is read.
    const misfiled = join(dir, 'panther_logs', 'demo', 'year=2024', 'month=05', 'day=01', 'hour=11', 'misfiled.json');
    writeFileSync(misfiled, '{"p_event_time": "2024-05-01 10:30:00", "n": 3}\n');
    const lake = await openLake(dir);
    try {
      const rows = async (query: string) => {
        const r = compile(query, { catalog: lake.catalog, dialect: 'duckdb' });
        if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('; '));
        return lake.query(r.query.sql);
      };
      expect(await rows("panther_logs.demo | where p_event_time < '2024-05-01 11:00:00' | sort n asc")).toEqual([
        { p_event_time: '2024-05-01 10:00:00', n: 1 },
      ]);
      expect(await rows("panther_logs.demo | limit 10 | where p_event_time < '2024-05-01 11:00:00' | sort n asc")).toEqual([
        { p_event_time: '2024-05-01 10:00:00', n: 1 },
        { p_event_time: '2024-05-01 10:30:00', n: 3 },
      ]);
    } finally {
      lake.close();
      rmSync(misfiled);
    }
  });

  it('uses the column types of a given catalog, and serves a table without data as empty', async () => {
    const catalog = staticCatalog([
      {
        database: 'panther_logs',
        name: 'demo',
        timePartitioned: true,
        columns: [
          { name: 'p_event_time', type: T.timestamp },
          { name: 'n', type: T.float },
        ],
      },
      {
        database: 'panther_logs',
        name: 'nothing_yet',
        timePartitioned: true,
        columns: [{ name: 'p_event_time', type: T.timestamp }],
      },
    ]);
    const lake = await openLake(dir, { catalog });
    try {
      const rows = async (query: string) => {
        const r = compile(query, { catalog, dialect: 'duckdb' });
        if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('; '));
        return lake.query(r.query.sql);
      };
      expect(await rows('panther_logs.demo | extend half = n / 2 | project n, half | sort n asc')).toEqual([
        { n: 1, half: 0.5 },
        { n: 2, half: 1 },
      ]);
      expect(await rows('panther_logs.nothing_yet | summarize agg.count()')).toEqual([{ count: 0 }]);
    } finally {
      lake.close();
    }
  });

  it('reads Parquet partitions too', async () => {
    const parquetDir = mkdtempSync(join(tmpdir(), 'caracal-parquet-'));
    try {
      const hour = join(parquetDir, 'panther_logs', 'flows', 'year=2024', 'month=05', 'day=01', 'hour=10');
      mkdirSync(hour, { recursive: true });
      const writer = await (await DuckDBInstance.create(':memory:')).connect();
      await writer.run(
        // The pipeline's Parquet has every column of the table; the p_* ones besides the time are empty here.
        `COPY (SELECT TIMESTAMP '2024-05-01 10:15:00' AS p_event_time, 443 AS port, ${EVENT_COLUMNS.filter(
          (c) => c.name !== 'p_event_time',
        )
          .map(
            (c) => `NULL::${c.type === 'timestamp' ? 'TIMESTAMP' : c.type === 'string' ? 'VARCHAR' : 'VARCHAR[]'} AS ${c.name}`,
          )
          .join(', ')}) TO '${join(hour, 'a.parquet')}' (FORMAT parquet)`,
      );
      writer.closeSync();
      const r = await capture([
        '--data',
        parquetDir,
        '--schema',
        join(dir, 'flows.yml'),
        "panther_logs.flows | where p_event_time > '2024-05-01 10:00:00' | project port",
      ]);
      expect(r).toEqual({ code: 0, out: '{"port":443}\n', err: '' });
    } finally {
      rmSync(parquetDir, { recursive: true, force: true });
    }
  });

  it('leaves out tables that have no data files yet', async () => {
    const lake = await openLake(dir);
    expect(lake.catalog.tables().map((t) => t.name)).toEqual(['demo']);
    lake.close();
  });

  it('applies a UI time range given to the command', async () => {
    const r = await capture([
      '--data',
      dir,
      '--schema',
      join(dir, 'demo.yml'),
      '--from',
      '2024-05-01T11:00:00Z',
      '--to',
      '2024-05-01T12:00:00Z',
      'panther_logs.public.demo | project n',
    ]);
    expect(r).toEqual({ code: 0, out: '{"n":2}\n', err: '' });
  });
});

describe('caracal flow', () => {
  it('prints one JSON object per row', async () => {
    const r = await capture(['range x from 1 to 3 step 1 | extend y = x * 2']);
    expect(r).toEqual({ code: 0, out: '{"x":1,"y":2}\n{"x":2,"y":4}\n{"x":3,"y":6}\n', err: '' });
  });

  it('prints the SQL for a dialect', async () => {
    const r = await capture(['--sql', 'athena', '--data', LAKE_DIR, 'panther_logs.public.aws_cloudtrail | limit 1']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('FROM "panther_logs"."aws_cloudtrail"');
    expect(r.out).toContain('LIMIT 1');
  });

  it('reports errors with line and column and exits 1', async () => {
    const r = await capture(['--data', LAKE_DIR, "panther_logs.public.aws_cloudtrail\n| where eventname == 'x'"]);
    expect(r).toEqual({
      code: 1,
      out: '',
      err: 'error: line 2, column 9: unknown column `eventname`; did you mean `eventName`?\n',
    });
  });

  it('hints at --data when a table is unknown and no lake was given', async () => {
    const r = await capture(['panther_logs.public.aws_cloudtrail | limit 1']);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      'error: line 1, column 1: unknown table `panther_logs.public.aws_cloudtrail`\nhint: no lake given; pass --data DIR to read tables (datatable and range need none)\n',
    );
  });

  it('describes a chart on stderr', async () => {
    const r = await capture(['datatable [{"k": "a", "n": 1}] | visualize bar xcolumn=k series=n']);
    expect(r).toEqual({ code: 0, out: '{"k":"a","n":1}\n', err: '# visualize {"chart":"bar","xcolumn":"k","series":"n"}\n' });
  });

  it("takes a table's columns from its schema, not from the data files", async () => {
    // Without its schema, a table in the lake is unknown: its files are not read to guess columns.
    const unknown = await capture(['--data', dir, 'panther_logs.demo | project n']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('unknown table `panther_logs.demo`');
    expect(unknown.err).toContain('pass --schema FILE.yml');
    // A file that is not JSON at all would fail any read of the table's files: only the query's hour is read.
    const broken = join(dir, 'panther_logs', 'demo', 'year=2024', 'month=05', 'day=02', 'hour=00');
    mkdirSync(broken, { recursive: true });
    writeFileSync(join(broken, 'bad.json'), 'not json\n');
    try {
      const r = await capture([
        '--data',
        dir,
        '--schema',
        join(dir, 'demo.yml'),
        "panther_logs.demo | where p_event_time >= '2024-05-01 11:00:00' and p_event_time < '2024-05-01 12:00:00' | project n",
      ]);
      expect(r).toEqual({ code: 0, out: '{"n":2}\n', err: '' });
    } finally {
      rmSync(join(dir, 'panther_logs', 'demo', 'year=2024', 'month=05', 'day=02'), { recursive: true, force: true });
    }
    // A managed log type's table needs no schema file, and its SQL prints without a lake.
    const sql = await capture(['--sql', 'duckdb', 'panther_logs.public.aws_cloudtrail | where eventName == "x" | limit 1']);
    expect(sql.code).toBe(0);
    expect(sql.out).toContain('"eventName"');
    const bad = await capture(['--data', dir, '--schema', join(dir, 'missing.yml'), 'panther_logs.demo']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('cannot read');
  });

  it('rejects bad options', async () => {
    expect((await capture(['--sql', 'oracle', 'x'])).code).toBe(2);
    expect((await capture([])).code).toBe(2);
    expect((await capture(['--data', join(dir, 'missing'), 'x'])).code).toBe(1);
  });
});
