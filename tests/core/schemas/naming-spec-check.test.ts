import Ajv from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { assembleSchemaSpec, checkCustomSchema } from '../../../core/schemas/custom-schema';
import { jsonSchemaProblems, specJsonSchemaProblems } from '../../../core/schemas/json-schema';
import { MANAGED_SCHEMA_YAML } from '../../../core/schemas/managed/index';
import specJsonSchema from '../../../core/schemas/schema-spec.json';

const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
const ajvCheck = ajv.compile(specJsonSchema);

const SPEC = `parser:
  fastmatch:
    match:
      - '%{time} %{host} %{message}'
fields:
  - name: time
    type: timestamp
    timeFormats: [rfc3339]
    isEventTime: true
  - name: host
    type: string
    indicators: [hostname]
  - name: message
    type: string
`;

describe('the JSON Schema check (no code generation, so it runs under the CSP)', () => {
  it('agrees with Ajv on every managed schema', () => {
    for (const [name, text] of Object.entries(MANAGED_SCHEMA_YAML)) {
      const doc = parse(text);
      expect(ajvCheck(doc), name).toBe(true);
      expect(specJsonSchemaProblems(doc), name).toEqual([]);
    }
  });

  it('agrees with Ajv on broken documents', () => {
    const broken: unknown[] = [
      { schema: 'Custom.X', fields: [{ name: 'a' }] },
      { schema: 'Custom.X', fields: [{ name: 'a', type: 'timestamp' }] },
      { schema: 'Custom.X', fields: [{ name: 'a', type: 'object' }] },
      { schema: 'Custom.X', fields: [{ name: 'a', type: 'string', indicators: [] }] },
      { schema: 'Custom.X', fields: 'none' },
      { schema: 'custom.x', fields: [] },
      { schema: 'Custom.X', parser: { csv: {}, regex: {} }, fields: [] },
      { schema: 'Custom.X', fields: [{ name: 'a', type: 'string', mask: { type: 'rot13' } }] },
      [],
      'text',
      null,
    ];
    for (const doc of broken) {
      expect(ajvCheck(doc), JSON.stringify(doc)).toBe(false);
      expect(specJsonSchemaProblems(doc).length, JSON.stringify(doc)).toBeGreaterThan(0);
    }
  });

  it('reports where and why', () => {
    expect(specJsonSchemaProblems({ schema: 'Custom.X', fields: [{ name: 'a', type: 'strng' }], extra: 1 })).toEqual(
      expect.arrayContaining([
        { path: 'fields[0].type', message: expect.stringContaining('Must be one of') },
        { path: 'extra', message: "Unknown property 'extra'" },
      ]),
    );
    expect(jsonSchemaProblems({ type: 'string', format: 'uri' }, 'not a uri')).toEqual([{ path: '', message: 'Must be a uri' }]);
  });
});

describe('checkCustomSchema', () => {
  it('accepts a good schema and assembles it with the form attributes', () => {
    const check = checkCustomSchema({
      name: 'Acme.Syslog',
      description: 'Acme',
      referenceURL: 'https://acme.test/docs',
      spec: SPEC,
    });
    expect(check.fieldErrors).toEqual({});
    expect(check.problems.filter((p) => p.level === 'error')).toEqual([]);
    expect(check.spec).toMatchObject({
      schema: 'Custom.Acme.Syslog',
      description: 'Acme',
      referenceURL: 'https://acme.test/docs',
    });
    expect(assembleSchemaSpec({ name: 'Custom.Acme.Syslog', spec: SPEC }).fields).toHaveLength(3);
  });

  it('reports form fields with the specification messages', () => {
    const check = checkCustomSchema({ name: 'acme', referenceURL: 'nope', spec: '' }, { existingNames: [] });
    expect(check.fieldErrors).toEqual({
      name: 'Must start with a capital letter',
      referenceURL: 'Must be a valid URL',
      spec: 'This field is required',
    });
    expect(check.spec).toBeNull();
  });

  it('allows an empty spec with field discovery', () => {
    const check = checkCustomSchema({ name: 'Acme.Discovered', spec: '', isFieldDiscoveryEnabled: true });
    expect(check.fieldErrors).toEqual({});
    expect(check.spec).toMatchObject({ schema: 'Custom.Acme.Discovered', isFieldDiscoveryEnabled: true, fields: [] });
  });

  it('gives the YAML syntax error with its line', () => {
    const check = checkCustomSchema({ name: 'Acme.Bad', spec: 'fields:\n  - name: a\n    type: [string\n' });
    expect(check.yamlError).toMatchObject({ message: expect.stringMatching(/^Invalid YAML/), line: expect.any(Number) });
    expect(check.spec).toBeNull();
  });

  it('reports spec problems by path, once', () => {
    const check = checkCustomSchema({ name: 'Acme.Bad', spec: 'fields:\n  - name: a\n    type: strng\n  - name: b\n' });
    const errors = check.problems.filter((p) => p.level === 'error');
    expect(errors.map((p) => p.path)).toEqual(['fields[0].type', 'fields[1].type']);
  });

  it("checks the script parser's signature", () => {
    const check = checkCustomSchema({
      name: 'Acme.Script',
      spec: 'parser:\n  script:\n    function: "def parse(line):\\n  return {}"\nfields:\n  - name: a\n    type: string\n',
    });
    expect(check.problems).toContainEqual({
      level: 'error',
      path: 'parser.script.function',
      message: 'Must be a Python function with the signature `def parse(log):`',
    });
    const good = checkCustomSchema({
      name: 'Acme.Script',
      spec: 'parser:\n  script:\n    function: "def parse(log):\\n  return {}"\nfields:\n  - name: a\n    type: string\n',
    });
    expect(good.spec).not.toBeNull();
  });
});
