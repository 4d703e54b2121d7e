import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { classifier, compileSchema, managedSchemaNames, managedSchemas } from '../../../core/schemas/index';
import { goldenCases, goldenContext, inputLines, runGolden } from './golden';

const cases = goldenCases();

describe('golden files of the managed log types', () => {
  it('every managed log type has a golden input', () => {
    const covered = new Set(cases.map((c) => c.logType));
    expect(managedSchemaNames().filter((n) => !covered.has(n))).toEqual([]);
  });

  for (const c of cases) {
    it(`${c.base}: raw lines give the expected normalized events`, () => {
      const expected = readFileSync(c.expectedFile, 'utf8').trimEnd().split('\n');
      const actual = runGolden(c);
      expect(actual.filter((l) => l.startsWith('{"line":'))).toEqual([]);
      expect(actual.map((l) => JSON.parse(l))).toEqual(expected.map((l) => JSON.parse(l)));
    });
  }
});

describe('classification among all managed schemas', () => {
  for (const c of cases) {
    it(`${c.base}: each event line is accepted by its own schema only`, () => {
      // One set of parsers per input, as for one stream: a CSV header line is seen before the lines it names.
      const parsers = managedSchemas().map((s) => compileSchema(s));
      const own = parsers.find((p) => p.logType === c.logType)!;
      inputLines(c).forEach((line, i) => {
        const ctx = goldenContext(c, i + 1);
        const result = own.parse(line, ctx);
        if (!result.ok || result.events.length === 0) return;
        const others = parsers.filter((p) => p !== own && p.parse(line, ctx).ok).map((p) => p.logType);
        expect(others, `line ${i + 1}`).toEqual([]);
        const classified = classifier(parsers).classify(line, ctx);
        expect(classified.ok && classified.logType, `line ${i + 1}`).toBe(c.logType);
      });
    });
  }
});
