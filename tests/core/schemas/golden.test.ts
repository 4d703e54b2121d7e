import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  classifier,
  compileSchema,
  managedSchema,
  managedSchemaNames,
  managedSchemas,
  type FieldSpec,
} from '../../../core/schemas/index';
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

/** Keeps only the required fields of a raw event (recursively), as a vendor event with every optional field missing. */
function requiredOnly(raw: Record<string, unknown>, fields: FieldSpec[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (!f.required) continue;
    const key = f.rename?.from ?? f.name;
    const value = raw[key];
    out[key] =
      f.type === 'object' && f.fields && value && typeof value === 'object'
        ? requiredOnly(value as Record<string, unknown>, f.fields)
        : value;
  }
  return out;
}

describe('managed JSON schemas accept events with every optional field missing, and only their own', () => {
  const parsers = managedSchemas().map((spec) => compileSchema(spec));
  for (const c of cases) {
    const spec = managedSchema(c.logType)!;
    if (spec.parser) continue;
    it(c.base, () => {
      const first = JSON.parse(inputLines(c)[0]);
      const line = JSON.stringify(requiredOnly(first, spec.fields));
      const accepted = parsers.filter((p) => p.parse(line, goldenContext(c, 1)).ok).map((p) => p.logType);
      expect(accepted, line).toEqual([c.logType]);
    });
  }
});
