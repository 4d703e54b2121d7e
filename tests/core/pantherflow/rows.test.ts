// Query → rows, executed by the embedded DuckDB engine over the test lake.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { compile } from '../../../core/pantherflow/compiler';
import { FUNCTIONS } from '../../../core/pantherflow/functions';
import { openLake, type LakeEngine } from '../../../local/services/athena/duckdb';
import { headerOf, LAKE_DIR, loadCases, saveCases, updating } from './golden';

interface RowsCase {
  name: string;
  query: string;
  unordered?: boolean;
  visualization?: unknown;
  rows?: unknown[];
}

const FILE = 'rows.yaml';
const NOW = '2024-05-02T12:00:00Z';
const cases = loadCases<RowsCase>(FILE);
let lake: LakeEngine;

beforeAll(async () => {
  lake = await openLake(LAKE_DIR);
});
afterAll(() => {
  if (updating) saveCases(FILE, cases, headerOf(FILE));
  lake.close();
});

const canonical = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).sort();

describe('PantherFlow rows in DuckDB', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const result = compile(c.query, { catalog: lake.catalog, dialect: 'duckdb', now: NOW });
      if (!result.ok) throw new Error(result.diagnostics.map((d) => d.message).join('\n'));
      const rows = await lake.query(result.query.sql);
      if (updating) {
        c.rows = rows;
        if (result.query.visualization) c.visualization = result.query.visualization;
        return;
      }
      if (c.unordered) expect(canonical(rows)).toEqual(canonical(c.rows ?? []));
      else expect(rows).toEqual(c.rows);
      expect(result.query.visualization).toEqual(c.visualization);
    });
  }
});

describe('PantherFlow coverage', () => {
  it('runs every function in some rows fixture', () => {
    const text = cases.map((c) => c.query).join('\n');
    const missing = [...FUNCTIONS.keys()].filter((name) => !text.includes(name + '('));
    expect(missing).toEqual([]);
  });

  it('bundles for the browser (a web worker) with no Node modules', async () => {
    const result = await build({
      entryPoints: ['core/pantherflow/index.ts'],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    expect(result.outputFiles[0].text).not.toMatch(/from ["']node:/);
  });
});
