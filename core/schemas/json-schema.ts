// Checks a schema spec against core/schemas/schema-spec.json (the JSON Schema editors use) without
// generating code, so it runs in the browser under a Content-Security-Policy without 'unsafe-eval'.
// Implements the draft-07 keywords schema-spec.json uses; a test holds it to Ajv's verdicts.
import SPEC_JSON_SCHEMA from './schema-spec.json';
import { FIELD_REQUIRED } from '../validation/generic';

export interface JsonSchemaProblem {
  /** Where, as a dotted path into the document (`fields[2].type`), '' for the root. */
  readonly path: string;
  readonly message: string;
}

type Schema = boolean | { [keyword: string]: unknown };
type Json = unknown;

const isObject = (v: Json): v is Record<string, Json> => v !== null && typeof v === 'object' && !Array.isArray(v);

function typeOf(v: Json): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function hasType(v: Json, type: string): boolean {
  const t = typeOf(v);
  return t === type || (type === 'number' && t === 'integer');
}

function deepEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return ka.length === kb.length && ka.every((k) => deepEqual((a as Record<string, Json>)[k], (b as Record<string, Json>)[k]));
}

const join = (path: string, key: string | number) =>
  typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;

const FORMATS: Record<string, (s: string) => boolean> = {
  uri: (s) => /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/.test(s),
};

const describe = (values: unknown[]) => values.map((v) => JSON.stringify(v)).join(', ');

class Checker {
  private readonly patterns = new Map<string, RegExp>();
  constructor(private readonly root: Record<string, unknown>) {}

  private resolve(ref: string): Schema {
    if (!ref.startsWith('#/')) throw new Error(`unsupported $ref ${ref}`);
    let node: unknown = this.root;
    for (const part of ref.slice(2).split('/')) node = (node as Record<string, unknown>)[part];
    return node as Schema;
  }

  private regex(pattern: string): RegExp {
    let re = this.patterns.get(pattern);
    if (!re) this.patterns.set(pattern, (re = new RegExp(pattern, 'u')));
    return re;
  }

  valid(schema: Schema, value: Json): boolean {
    return this.check(schema, value, '', []);
  }

  /** True when valid; problems are appended to `out`. */
  check(schema: Schema, value: Json, path: string, out: JsonSchemaProblem[]): boolean {
    if (schema === true) return true;
    if (schema === false) {
      out.push({ path, message: 'Not allowed here' });
      return false;
    }
    const before = out.length;
    const s = schema;
    if (typeof s.$ref === 'string') this.check(this.resolve(s.$ref), value, path, out);
    if (s.type !== undefined) {
      const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
      if (!types.some((t) => hasType(value, t))) {
        out.push({
          path,
          message: `Must be ${types.map((t) => (t === 'object' ? 'a mapping' : t === 'array' ? 'a list' : `a ${t}`)).join(' or ')}`,
        });
        return false;
      }
    }
    if (s.const !== undefined && !deepEqual(value, s.const)) out.push({ path, message: `Must be ${JSON.stringify(s.const)}` });
    if (Array.isArray(s.enum) && !s.enum.some((e) => deepEqual(value, e)))
      out.push({ path, message: `Must be one of ${describe(s.enum)}` });
    if (typeof value === 'string') {
      const length = [...value].length;
      if (typeof s.minLength === 'number' && length < s.minLength)
        out.push({ path, message: `Must be at least ${s.minLength} characters long` });
      if (typeof s.maxLength === 'number' && length > s.maxLength)
        out.push({ path, message: `Must be at most ${s.maxLength} characters` });
      if (typeof s.pattern === 'string' && !this.regex(s.pattern).test(value))
        out.push({ path, message: `Must match the pattern ${s.pattern}` });
      if (typeof s.format === 'string' && FORMATS[s.format] && !FORMATS[s.format](value))
        out.push({ path, message: `Must be a ${s.format}` });
    }
    if (typeof value === 'number' && typeof s.minimum === 'number' && value < s.minimum)
      out.push({ path, message: `Must be at least ${s.minimum}` });
    if (Array.isArray(value)) {
      if (typeof s.minItems === 'number' && value.length < s.minItems)
        out.push({ path, message: `Must have at least ${s.minItems} item${s.minItems === 1 ? '' : 's'}` });
      if (s.items !== undefined && !Array.isArray(s.items))
        value.forEach((item, i) => this.check(s.items as Schema, item, join(path, i), out));
    }
    if (isObject(value)) this.checkObject(s, value, path, out);
    if (Array.isArray(s.allOf)) for (const sub of s.allOf as Schema[]) this.check(sub, value, path, out);
    if (Array.isArray(s.anyOf)) this.checkAnyOf(s.anyOf as Schema[], value, path, out);
    if (s.not !== undefined && this.valid(s.not as Schema, value)) out.push({ path, message: 'Not allowed in this form' });
    if (s.if !== undefined) {
      const branch = this.valid(s.if as Schema, value) ? s.then : s.else;
      if (branch !== undefined) this.check(branch as Schema, value, path, out);
    }
    return out.length === before;
  }

  private checkObject(s: Record<string, unknown>, value: Record<string, Json>, path: string, out: JsonSchemaProblem[]): void {
    const keys = Object.keys(value);
    if (Array.isArray(s.required)) {
      for (const key of s.required as string[]) if (!(key in value)) out.push({ path: join(path, key), message: FIELD_REQUIRED });
    }
    if (typeof s.minProperties === 'number' && keys.length < s.minProperties)
      out.push({ path, message: `Must have at least ${s.minProperties} propert${s.minProperties === 1 ? 'y' : 'ies'}` });
    if (typeof s.maxProperties === 'number' && keys.length > s.maxProperties)
      out.push({ path, message: `Must have at most ${s.maxProperties} propert${s.maxProperties === 1 ? 'y' : 'ies'}` });
    const properties = (isObject(s.properties) ? s.properties : {}) as Record<string, Schema>;
    for (const key of keys) {
      const where = join(path, key);
      if (s.propertyNames !== undefined) {
        const nameProblems: JsonSchemaProblem[] = [];
        if (!this.check(s.propertyNames as Schema, key, where, nameProblems))
          out.push({ path: where, message: `Invalid name '${key}': ${nameProblems[0].message}` });
      }
      if (Object.hasOwn(properties, key)) this.check(properties[key], value[key], where, out);
      else if (s.additionalProperties === false) out.push({ path: where, message: `Unknown property '${key}'` });
      else if (s.additionalProperties !== undefined) this.check(s.additionalProperties as Schema, value[key], where, out);
    }
  }

  private checkAnyOf(options: Schema[], value: Json, path: string, out: JsonSchemaProblem[]): void {
    let best: JsonSchemaProblem[] | undefined;
    for (const option of options) {
      const problems: JsonSchemaProblem[] = [];
      if (this.check(option, value, path, problems)) return;
      if (!best || problems.length < best.length) best = problems;
    }
    if (best && best.length === 1 && options.length > 1)
      out.push({ ...best[0], message: `${best[0].message} (or another accepted form)` });
    else out.push(...(best ?? []));
  }
}

/** Every problem of a document against a draft-07 JSON Schema (the keyword subset of schema-spec.json). */
export function jsonSchemaProblems(schema: Record<string, unknown>, doc: unknown): JsonSchemaProblem[] {
  const out: JsonSchemaProblem[] = [];
  new Checker(schema).check(schema, doc, '', out);
  return out;
}

/** Problems of a schema spec document (as read from YAML) against core/schemas/schema-spec.json. */
export function specJsonSchemaProblems(doc: unknown): JsonSchemaProblem[] {
  return jsonSchemaProblems(SPEC_JSON_SCHEMA as Record<string, unknown>, doc);
}
