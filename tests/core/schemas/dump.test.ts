import { describe, expect, it } from 'vitest';
import { dumpSchemaYaml, type SchemaSpec } from '../../../core/schemas/index';
import { readYaml } from '../../../core/yaml';

const spec = (names: string[], description?: string) =>
  ({ fields: names.map((name) => ({ name, type: 'string', ...(description ? { description } : {}) })) }) as SchemaSpec;

describe('dumpSchemaYaml', () => {
  it('quotes the strings a YAML 1.1 reader would take for another type, and leaves timestamps plain', () => {
    const text = dumpSchemaYaml(spec(['on', 'off', 'yes', 'No', 'y', '1_000', '12:30', '2024-01-01', 'plain']));
    expect(text).toBe(
      [
        'fields:',
        ...['"on"', '"off"', '"yes"', '"No"', '"y"', '"1_000"', '"12:30"', '2024-01-01', 'plain'].flatMap((n) => [
          `  - name: ${n}`,
          '    type: string',
        ]),
        '',
      ].join('\n'),
    );
  });

  it('writes double quotes, long lines unfolded and line breaks as a literal block', () => {
    const long = `a "quoted" word: ${'x '.repeat(80)}end`;
    expect(dumpSchemaYaml(spec(['a: b']))).toContain('  - name: "a: b"\n');
    expect(dumpSchemaYaml(spec(['d'], long))).toContain(`    description: ${JSON.stringify(long)}\n`);
    expect(dumpSchemaYaml(spec(['d'], 'one\ntwo'))).toContain('    description: |-\n      one\n      two\n');
  });

  it('is read back as the same value', () => {
    const written = spec(['on', 'yes', '2024-01-01T00:00:00Z', 'a: b', '#x', "it's"], 'line one\nline "two"');
    expect(readYaml(dumpSchemaYaml(written))).toEqual(written);
  });
});
