// Language services with cursor-marker fixtures: `^` in the query is the cursor.
import { afterAll, describe, expect, it } from 'vitest';
import { compile, complete, format, hover, inlayHints, semanticTokens, signatureHelp } from '../../../core/pantherflow/index';
import { fixtureCatalog, headerOf, loadCases, saveCases, updating } from './golden';

interface ServiceCase {
  service: 'completion' | 'hover' | 'signature' | 'inlay' | 'tokens' | 'format';
  query: string;
  expect?: unknown;
}

const FILE = 'services.yaml';
const cases = loadCases<ServiceCase>(FILE);
const catalog = fixtureCatalog();

afterAll(() => {
  if (updating) saveCases(FILE, cases, headerOf(FILE));
});

function run(c: ServiceCase): unknown {
  const cursor = c.query.indexOf('^');
  const text = cursor >= 0 ? c.query.slice(0, cursor) + c.query.slice(cursor + 1) : c.query;
  switch (c.service) {
    case 'completion':
      return complete(text, cursor, catalog)
        .items.slice(0, 15)
        .map((i) => i.label);
    case 'hover':
      return hover(text, cursor, catalog)?.contents ?? null;
    case 'signature': {
      const s = signatureHelp(text, cursor, catalog);
      if (!s) return null;
      const sig = s.signatures[s.activeSignature];
      const p = sig.parameters[s.activeParameter];
      return `${sig.label} | ${p ? sig.label.slice(p.label[0], p.label[1]) : '-'}`;
    }
    case 'inlay':
      return inlayHints(text, catalog).map((h) => `${h.position.offset} ${h.label}`);
    case 'tokens':
      return semanticTokens(text, catalog).map((t) => `${text.slice(t.start, t.start + t.length)}:${t.type}`);
    case 'format':
      return format(text).text;
  }
}

describe('PantherFlow language services', () => {
  for (const c of cases) {
    it(`${c.service}: ${c.query}`, () => {
      const actual = run(c);
      if (updating) c.expect = actual;
      else expect(actual).toEqual(c.expect);
    });
  }
});

describe('PantherFlow formatting', () => {
  const queries = ['rows.yaml', 'sql.yaml', 'errors.yaml'].flatMap((f) => loadCases<{ query: string }>(f).map((c) => c.query));
  it('is idempotent and never changes what a query means', () => {
    for (const q of queries) {
      const once = format(q).text;
      expect(format(once).text).toBe(once);
      const before = compile(q, { catalog, dialect: 'duckdb', now: 0 });
      const after = compile(once, { catalog, dialect: 'duckdb', now: 0 });
      expect(after.ok).toBe(before.ok);
      if (before.ok && after.ok) expect(after.query.sql).toBe(before.query.sql);
    }
  });
});
