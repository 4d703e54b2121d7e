import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { compileTimeFormats, formatInstant } from '../../../core/schemas/index';

interface Case {
  formats: string[];
  input: unknown;
  expect: string | null;
}

const cases = parse(readFileSync(new URL('./cases/time.yml', import.meta.url), 'utf8')) as Case[];
const reference = { s: Date.UTC(2026, 5, 15, 12) / 1000, ns: 0 };

describe('time formats', () => {
  for (const c of cases) {
    it(`${c.formats.join(', ')}: ${JSON.stringify(c.input)}`, () => {
      const t = compileTimeFormats(c.formats)(c.input, reference);
      expect(t ? formatInstant(t) : null).toBe(c.expect);
    });
  }
});
