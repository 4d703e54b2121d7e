import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadSchemaYaml, validateSchema, type SchemaProblem, type ValidateOptions } from '../../../core/schemas/index';

interface Case {
  name: string;
  schema: Record<string, unknown>;
  options?: ValidateOptions;
  longName?: number;
  problems: SchemaProblem[];
}

const cases = parse(readFileSync(new URL('./cases/validation.yml', import.meta.url), 'utf8')) as Case[];

describe('schema validation', () => {
  for (const c of cases) {
    it(c.name, () => {
      const schema = c.longName ? { ...c.schema, schema: 'A'.repeat(c.longName) } : c.schema;
      expect(validateSchema(schema, c.options)).toEqual(c.problems);
    });
  }

  it('reads YAML 1.2: on/off/yes/no and dates stay strings', () => {
    const result = loadSchemaYaml(
      'schema: Custom.Switches\nfields:\n  - name: state\n    type: string\n    validate:\n      allow: [on, off, yes, no, 2024-01-01]\n',
    );
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.spec.fields[0].validate?.allow).toEqual(['on', 'off', 'yes', 'no', '2024-01-01']);
  });

  it('reports invalid YAML with its position', () => {
    const result = loadSchemaYaml('schema: Custom.A\nfields: [\n');
    expect(result.ok).toBe(false);
    expect(result.problems[0].message).toMatch(/^Invalid YAML: .*\(line \d+, column \d+\)$/);
  });

  it('is not thrown off by values of the wrong shape', () => {
    for (const value of [
      null,
      42,
      'text',
      [],
      { schema: 7, fields: 'x' },
      { schema: 'Custom.A', fields: [null, 3, { name: 'a', type: 'object', fields: {} }] },
    ]) {
      expect(() => validateSchema(value)).not.toThrow();
      expect(validateSchema(value).some((p) => p.level === 'error')).toBe(true);
    }
  });
});

describe('schema size limits', () => {
  it('refuses a YAML alias bomb as it reads it, before anything is expanded', () => {
    const levels = ['a0: &a0 [{ name: x, type: string }]'];
    for (let i = 1; i < 12; i++) {
      const refs = Array.from({ length: 10 }, (_, k) => `{ name: f${k}, type: object, fields: *a${i - 1} }`).join(', ');
      levels.push(`a${i}: &a${i} [${refs}]`);
    }
    const text = `schema: Custom.Bomb\nx:\n${levels.map((l) => '  ' + l).join('\n')}\nfields: *a11\n`;
    const result = loadSchemaYaml(text);
    expect(result.ok).toBe(false);
    expect(result.problems.map((p) => p.message)).toEqual(['Invalid YAML: YAML aliases are not allowed (line 4, column 46)']);
  });

  it('refuses fields nested too deeply', () => {
    let fields: unknown = [{ name: 'leaf', type: 'string' }];
    for (let i = 0; i < 40; i++) fields = [{ name: `o${i}`, type: 'object', fields }];
    const problems = validateSchema({ schema: 'Custom.Deep', fields });
    expect(problems.map((p) => p.message)).toContain('Fields nest more than 32 levels deep');
  });
});
