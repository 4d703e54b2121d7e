import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { loadSchemaYaml, validateSchema, type SchemaProblem, type ValidateOptions } from '../../../core/schemas/index';

interface Case {
  name: string;
  schema: Record<string, unknown>;
  options?: ValidateOptions;
  longName?: number;
  problems: SchemaProblem[];
}

const cases = yaml.load(readFileSync(new URL('./cases/validation.yml', import.meta.url), 'utf8'), {
  schema: yaml.CORE_SCHEMA,
}) as Case[];

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
