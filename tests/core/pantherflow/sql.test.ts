// Query → expected SQL per dialect (golden). Athena is not available here, so its SQL is checked this way.
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../../../core/pantherflow/compiler';
import { DIALECTS } from '../../../core/pantherflow/dialect';
import type { TimeRange } from '../../../core/pantherflow/timerange';
import { fixtureCatalog, headerOf, loadCases, saveCases, updating } from './golden';

interface SqlCase {
  name: string;
  query: string;
  timeRange?: TimeRange;
  duckdb?: string;
  athena?: string;
}

const FILE = 'sql.yaml';
const cases = loadCases<SqlCase>(FILE);
const catalog = fixtureCatalog();

afterAll(() => {
  if (updating) saveCases(FILE, cases, headerOf(FILE));
});

describe('PantherFlow SQL', () => {
  for (const c of cases) {
    for (const dialect of DIALECTS) {
      it(`${c.name} (${dialect})`, () => {
        const result = compile(c.query, {
          catalog,
          dialect,
          now: '2024-05-02T12:00:00Z',
          ...(c.timeRange ? { timeRange: c.timeRange } : {}),
        });
        if (!result.ok) throw new Error(result.diagnostics.map((d) => d.message).join('\n'));
        if (updating) c[dialect] = result.query.sql;
        else expect(result.query.sql).toBe(c[dialect]);
      });
    }
  }
});
