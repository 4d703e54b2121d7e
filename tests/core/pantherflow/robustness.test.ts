// Whatever the user types, the compiler and the services answer without throwing, and any SQL the compiler
// produces is accepted by DuckDB's planner. Inputs: every fixture query, cut at many points and mutated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  complete,
  compile,
  diagnostics,
  format,
  hover,
  inlayHints,
  semanticTokens,
  signatureHelp,
  type Catalog,
} from '../../../core/pantherflow/index';
import { openLake, type LakeEngine } from '../../../local/services/athena/duckdb';
import { LAKE_DIR, loadCases } from './golden';

const queries = [
  ...['rows.yaml', 'sql.yaml', 'errors.yaml', 'services.yaml'].flatMap((f) =>
    loadCases<{ query: string }>(f).map((c) => c.query.replace('^', '')),
  ),
];

/** Deterministic pseudo-random numbers (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NOISE = [
  '|',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  "'",
  '"',
  '`',
  '.',
  ',',
  '=',
  '==',
  '$',
  '-',
  ' ',
  '\n',
  'by',
  'fn',
  'not',
  'in',
  '..',
  ';',
  'é',
  '\\',
];

function variants(q: string, rnd: () => number): string[] {
  const out: string[] = [];
  for (let i = 0; i <= q.length; i += 3) out.push(q.slice(0, i));
  for (let n = 0; n < 12; n++) {
    const at = Math.floor(rnd() * (q.length + 1));
    const noise = NOISE[Math.floor(rnd() * NOISE.length)];
    out.push(rnd() < 0.5 ? q.slice(0, at) + noise + q.slice(at) : q.slice(0, at) + q.slice(at + 1 + Math.floor(rnd() * 4)));
  }
  return out;
}

let lake: LakeEngine;
let catalog: Catalog;
beforeAll(async () => {
  lake = await openLake(LAKE_DIR);
  catalog = lake.catalog;
});
afterAll(() => lake.close());

describe('PantherFlow robustness', () => {
  it('never throws, and compiled SQL always plans', async () => {
    const rnd = random(6);
    let compiled = 0;
    let checked = 0;
    for (const q of queries) {
      for (const text of variants(q, rnd)) {
        for (const offset of [text.length, Math.floor(text.length / 2)]) {
          complete(text, offset, catalog);
          hover(text, offset, catalog);
          signatureHelp(text, offset, catalog);
        }
        inlayHints(text, catalog);
        semanticTokens(text, catalog);
        diagnostics(text, catalog);
        format(text);
        const athena = compile(text, { catalog, dialect: 'athena', now: '2024-05-02T12:00:00Z' });
        const duck = compile(text, { catalog, dialect: 'duckdb', now: '2024-05-02T12:00:00Z' });
        expect(athena.ok).toBe(duck.ok);
        checked++;
        if (!duck.ok) continue;
        compiled++;
        await lake.query(`EXPLAIN ${duck.query.sql}`).catch((e: Error) => {
          throw new Error(`DuckDB rejects the SQL for:\n${text}\n${duck.query.sql}\n${e.message}`);
        });
      }
    }
    expect(checked).toBeGreaterThan(1000);
    expect(compiled).toBeGreaterThan(100);
  }, 120_000);
});
