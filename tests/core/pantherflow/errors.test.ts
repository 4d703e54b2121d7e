// Query → diagnostics (position, message, suggestion), golden.
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from '../../../core/pantherflow/checker';
import { LineIndex } from '../../../core/pantherflow/position';
import { fixtureCatalog, headerOf, loadCases, saveCases, updating } from './golden';

interface ErrorCase {
  query: string;
  errors?: string[];
}

const FILE = 'errors.yaml';
const cases = loadCases<ErrorCase>(FILE);
const catalog = fixtureCatalog();

afterAll(() => {
  if (updating) saveCases(FILE, cases, headerOf(FILE));
});

describe('PantherFlow errors', () => {
  for (const c of cases) {
    it(c.query, () => {
      const lines = new LineIndex(c.query);
      const found = analyze(c.query, catalog).diagnostics.map((d) => {
        const p = lines.position(d.start);
        return `${p.line + 1}:${p.character + 1} ${d.message}${d.suggestion !== undefined ? ` [fix: ${d.suggestion}]` : ''}`;
      });
      if (updating) c.errors = found;
      else expect(found).toEqual(c.errors);
      expect(found.length).toBeGreaterThan(0);
    });
  }
});
