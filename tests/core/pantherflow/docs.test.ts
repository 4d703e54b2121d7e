// The reference in docs/pantherflow: every example runs, and the rows printed after it are what it returns.
// `UPDATE_GOLDEN=1` rewrites those result blocks. Also checks that every operator and function is documented.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../core/pantherflow/compiler';
import { FUNCTIONS } from '../../../core/pantherflow/functions';
import { OPERATORS } from '../../../core/pantherflow/operators';
import { openLake, type LakeEngine } from '../../../local/services/athena/duckdb';
import { here, LAKE_DIR, updating } from './golden';

const DOCS = join(here, '..', '..', '..', 'docs', 'pantherflow');
const NOW = '2024-05-02T12:00:00Z';
const EXAMPLE = /```pantherflow\n([\s\S]*?)```\n(\n```json\n[\s\S]*?```\n)?/g;

interface Example {
  readonly page: string;
  readonly query: string;
  readonly expected?: string;
}

const pages = readdirSync(DOCS).filter((f) => f.endsWith('.md'));
const examples: Example[] = pages.flatMap((page) =>
  [...readFileSync(join(DOCS, page), 'utf8').matchAll(EXAMPLE)].map((m) => ({
    page,
    query: m[1],
    expected: m[2]?.replace(/^\n```json\n/, '').replace(/```\n$/, ''),
  })),
);
const actual = new Map<Example, string>();
let lake: LakeEngine;

beforeAll(async () => {
  lake = await openLake(LAKE_DIR);
});
afterAll(() => {
  lake.close();
  if (!updating) return;
  for (const page of pages) {
    const path = join(DOCS, page);
    let i = 0;
    const mine = examples.filter((e) => e.page === page);
    const text = readFileSync(path, 'utf8').replace(EXAMPLE, (_, query: string) => {
      const rows = actual.get(mine[i++]);
      return '```pantherflow\n' + query + '```\n' + (rows === undefined ? '' : '\n```json\n' + rows + '```\n');
    });
    writeFileSync(path, text);
  }
});

describe('PantherFlow reference examples', () => {
  for (const ex of examples) {
    it(`${ex.page}: ${ex.query.split('\n')[0]}`, async () => {
      const result = compile(ex.query, { catalog: lake.catalog, dialect: 'duckdb', now: NOW });
      if (!result.ok) throw new Error(result.diagnostics.map((d) => d.message).join('\n'));
      expect(compile(ex.query, { catalog: lake.catalog, dialect: 'athena', now: NOW }).ok).toBe(true);
      const rows = (await lake.query(result.query.sql)).map((r) => JSON.stringify(r) + '\n').join('');
      actual.set(ex, rows);
      if (!updating) expect(rows).toBe(ex.expected);
    });
  }
});

describe('PantherFlow reference coverage', () => {
  it('has a page per operator', () => {
    for (const op of OPERATORS) expect(pages).toContain(`operator-${op.name}.md`);
  });
  it('documents every function on its group page', () => {
    for (const f of FUNCTIONS.values()) {
      expect(readFileSync(join(DOCS, `functions-${f.group}.md`), 'utf8')).toContain(`### ${f.name}\n`);
    }
  });
});
