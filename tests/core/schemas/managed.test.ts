import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  generateManagedModule,
  generateManagedSpecsModule,
  managedModulePath,
  managedSpecsModulePath,
} from '../../../scripts/gen-managed-schemas';
import {
  compileSchema,
  FIELD_TYPES,
  INDICATORS,
  loadSchemaYaml,
  managedSchema,
  managedSchemaNames,
  managedSchemas,
  validateSchema,
} from '../../../core/schemas/index';
import { MANAGED_SCHEMA_YAML } from '../../../core/schemas/managed/index';

const jsonSchema = JSON.parse(readFileSync(new URL('../../../core/schemas/schema-spec.json', import.meta.url), 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: false });
const checkJsonSchema = ajv.compile(jsonSchema);

describe('managed schemas', () => {
  it('the embedded module is generated from the YAML files (run scripts/gen-managed-schemas.ts)', () => {
    expect(readFileSync(managedModulePath, 'utf8')).toBe(generateManagedModule());
    expect(readFileSync(managedSpecsModulePath, 'utf8')).toBe(generateManagedSpecsModule());
  });

  it('the runtime reads each managed schema as the spec its YAML gives', () => {
    expect(managedSchemaNames()).toEqual(Object.keys(MANAGED_SCHEMA_YAML).sort());
    for (const [name, text] of Object.entries(MANAGED_SCHEMA_YAML)) {
      const result = loadSchemaYaml(text, { aliases: true });
      expect(result.ok, name).toBe(true);
      if (result.ok) expect(managedSchema(name), name).toEqual(result.spec);
    }
  });

  it('every managed schema is valid, named as its file, and compiles', () => {
    for (const [file, text] of Object.entries(MANAGED_SCHEMA_YAML)) {
      const result = loadSchemaYaml(text, { aliases: true });
      expect(
        result.problems.filter((p) => p.level === 'error'),
        file,
      ).toEqual([]);
      if (result.ok) {
        expect(result.spec.schema).toBe(file);
        expect(() => compileSchema(result.spec)).not.toThrow();
      }
    }
    expect(managedSchemaNames().length).toBeGreaterThanOrEqual(110);
  });

  it('the published JSON Schema accepts every managed schema', () => {
    for (const spec of managedSchemas()) {
      const ok = checkJsonSchema(JSON.parse(JSON.stringify(spec)));
      expect(ok ? [] : checkJsonSchema.errors, spec.schema).toEqual([]);
    }
  });

  it('the published JSON Schema knows the same types and indicators', () => {
    expect(jsonSchema.definitions.value.properties.type.enum).toEqual([...FIELD_TYPES]);
    expect(jsonSchema.definitions.value.properties.indicators.items.enum).toEqual([...INDICATORS]);
  });

  it('the published JSON Schema rejects what validation rejects', () => {
    const bad = [
      { schema: 'lower.case', fields: [{ name: 'a', type: 'string' }] },
      { schema: 'Custom.A', fields: [{ name: 'a', type: 'uuid' }] },
      { schema: 'Custom.A', fields: [{ name: 't', type: 'timestamp' }] },
      { schema: 'Custom.A', fields: [{ name: 'a', type: 'string', concat: { paths: ['x'] } }] },
      { schema: 'Custom.A', parser: { fastmatch: { match: ['abc'] } }, fields: [{ name: 'a', type: 'string' }] },
      { schema: 'Custom.A' },
    ];
    for (const spec of bad) {
      expect(checkJsonSchema(spec), JSON.stringify(spec)).toBe(false);
      expect(
        validateSchema(spec).some((p) => p.level === 'error'),
        JSON.stringify(spec),
      ).toBe(true);
    }
  });
});

describe('a custom schema example', () => {
  const text = readFileSync(new URL('./custom/Custom.TailscaleAudit.yml', import.meta.url), 'utf8');

  it('validates as a custom schema beside the managed ones', () => {
    const result = loadSchemaYaml(text, { custom: true, existingNames: managedSchemaNames() });
    expect(result.problems).toEqual([]);
    expect(
      loadSchemaYaml(text.replace('Custom.TailscaleAudit', 'Custom.tailscaleaudit'), {
        custom: true,
        existingNames: ['Custom.TailscaleAudit'],
      }).problems,
    ).toContainEqual({
      level: 'error',
      path: 'schema',
      message: 'You already have a Schema with the same name',
    });
  });

  it('parses its sample event', () => {
    const spec = parse(text);
    const parser = compileSchema(spec as never);
    const line = readFileSync(new URL('./custom/Custom.TailscaleAudit.input.jsonl', import.meta.url), 'utf8').trim();
    const result = parser.parse(line, { parseTime: new Date('2026-01-01T00:00:00Z') });
    expect(result).toMatchObject({
      ok: true,
      events: [
        {
          p_log_type: 'Custom.TailscaleAudit',
          p_event_time: '2023-06-27 22:58:14.915000000',
          p_any_emails: ['homer.simpson@yourcompany.io'],
        },
      ],
    });
  });
});
