// Field decoding: a schema's fields compiled once into functions that turn a raw record (parsed JSON or the
// values of a text parser) into a typed event: coercion, required fields, validation, transforms,
// indicators and the event time. A failure throws a DecodeFailure (no stack capture: classification makes
// failures common) that names the field path.
import { DIGESTS } from './hash';
import { indicatorCollector, type IndicatorSet } from './indicators';
import { isCIDR, matchesIpVersion } from './net';
import { compileTimeFormats, formatInstant, type Instant } from './time';
import type { FieldSpec, ValueSpec } from './types';

export class DecodeFailure {
  constructor(readonly message: string) {}
}

export interface DecodeState {
  indicators: IndicatorSet;
  eventTime: Instant | null;
  /** eventTime as written in the event. */
  eventTimeText: string;
  reference: Instant;
  /** Unknown fields found while field discovery is on: their path from the event root and value. */
  discovered: { path: string[]; value: unknown }[] | null;
}

type Decoder = (value: unknown, st: DecodeState) => unknown;

/** Values beyond this depth are refused, so output never overflows the stack when written. */
export const MAX_JSON_DEPTH = 100;

const LIMITS = {
  smallint: [-32768, 32767],
  int: [-2147483648, 2147483647],
  // int64; beyond 2^53 a JSON number has already lost precision in JSON.parse, but it is in range.
  bigint: [-9223372036854775808, 9223372036854775807],
} as const;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)}`;
  return `${typeof value} ${String(value)}`;
}

function fail(path: string, message: string): never {
  throw new DecodeFailure(`field "${path}": ${message}`);
}

function checkDepth(value: unknown, path: string, depth = 0): void {
  if (value === null || typeof value !== 'object') return;
  if (depth >= MAX_JSON_DEPTH) fail(path, `nested deeper than ${MAX_JSON_DEPTH} levels`);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) checkDepth(value[i], path, depth + 1);
  } else {
    for (const key in value) checkDepth((value as Record<string, unknown>)[key], path, depth + 1);
  }
}

function embedded(value: unknown, path: string): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return fail(path, 'expected embedded JSON, got text that does not parse');
  }
}

function stringDecoder(spec: ValueSpec, path: string): Decoder {
  const validate = spec.validate;
  const allow = validate?.allow ? new Set(validate.allow) : null;
  const deny = validate?.deny ? new Set(validate.deny) : null;
  const ip = validate?.ip;
  const cidr = validate?.cidr;
  const collect = indicatorCollector(spec.indicators);
  const checked = allow || deny || ip || cidr;
  return (value, st) => {
    let s: string;
    if (typeof value === 'string') s = value;
    else if (typeof value === 'number' || typeof value === 'boolean') s = String(value);
    else return fail(path, `expected a string, got ${describe(value)}`);
    if (checked) {
      if (allow && !allow.has(s)) fail(path, `value ${JSON.stringify(s)} is not one of the allowed values`);
      if (deny && deny.has(s)) fail(path, `value ${JSON.stringify(s)} is denied`);
      if (ip && !matchesIpVersion(s, ip)) fail(path, `value ${JSON.stringify(s)} is not an ${ip === 'any' ? 'IP' : ip} address`);
      if (cidr && !isCIDR(s, cidr)) fail(path, `value ${JSON.stringify(s)} is not an ${cidr === 'any' ? '' : cidr + ' '}CIDR block`);
    }
    if (collect) collect(s, st.indicators);
    return s;
  };
}

const INTEGER_TEXT = /^\s*[+-]?\d+\s*$/;
const FLOAT_TEXT = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

function integerDecoder(type: 'int' | 'smallint' | 'bigint', path: string): Decoder {
  const [min, max] = LIMITS[type];
  return (value) => {
    let n: number;
    if (typeof value === 'number') n = value;
    else if (typeof value === 'string' && INTEGER_TEXT.test(value)) n = Number(value);
    else return fail(path, `expected an integer, got ${describe(value)}`);
    if (!Number.isInteger(n)) fail(path, `expected an integer, got ${describe(value)}`);
    if (n < min || n > max) fail(path, `number ${String(value).trim()} is out of range for ${type}`);
    return n;
  };
}

function floatDecoder(path: string): Decoder {
  return (value) => {
    let n: number;
    if (typeof value === 'number') n = value;
    else if (typeof value === 'string' && FLOAT_TEXT.test(value)) n = Number(value);
    else return fail(path, `expected a number, got ${describe(value)}`);
    if (!Number.isFinite(n)) fail(path, `number ${String(value).trim()} is out of range for float`);
    return n;
  };
}

function booleanDecoder(path: string): Decoder {
  return (value) => {
    if (typeof value === 'boolean') return value;
    if (typeof value === 'string') {
      const t = value.trim().toLowerCase();
      if (t === 'true') return true;
      if (t === 'false') return false;
    }
    return fail(path, `expected a boolean, got ${describe(value)}`);
  };
}

function timestampDecoder(spec: ValueSpec, path: string): Decoder {
  const formats = spec.timeFormats ?? (spec.timeFormat ? [spec.timeFormat] : ['rfc3339']);
  const parse = compileTimeFormats(formats);
  const isEventTime = spec.isEventTime === true;
  return (value, st) => {
    const t = parse(value, st.reference);
    if (!t) return fail(path, `${describe(value)} does not match the time format${formats.length > 1 ? 's' : ''} ${formats.join(', ')}`);
    const text = formatInstant(t);
    if (isEventTime && st.eventTime === null) {
      st.eventTime = t;
      st.eventTimeText = text;
    }
    return text;
  };
}

function jsonDecoder(spec: ValueSpec, path: string): Decoder {
  const isEmbedded = spec.isEmbeddedJSON === true;
  return (value) => {
    const v = isEmbedded ? embedded(value, path) : value;
    checkDepth(v, path);
    return v;
  };
}

function arrayDecoder(spec: ValueSpec, path: string, discovery: boolean, pathParts: string[]): Decoder {
  const element = spec.element
    ? valueDecoder(spec.element, `${path}[]`, discovery, [...pathParts, '[]'])
    : jsonDecoder({ type: 'json' }, `${path}[]`);
  const isEmbedded = spec.isEmbeddedJSON === true;
  return (value, st) => {
    const v = isEmbedded ? embedded(value, path) : value;
    if (!Array.isArray(v)) return fail(path, `expected an array, got ${describe(v)}`);
    const out: unknown[] = [];
    for (let i = 0; i < v.length; i++) {
      const item = v[i];
      if (item === null || item === undefined) continue;
      const decoded = element(item, st);
      if (decoded !== undefined) out.push(decoded);
    }
    return out;
  };
}

interface CompiledField {
  name: string;
  source: (raw: Record<string, unknown>) => unknown;
  decode: Decoder;
  required: boolean;
  mask: ((value: unknown) => string) | null;
  /** An empty string counts as missing for every type but string. */
  emptyIsMissing: boolean;
  /** Raw keys this field reads, so they are not reported as unknown. */
  consumes: string[];
}

function pathGetter(path: string): (raw: Record<string, unknown>) => unknown {
  const parts = path.split('.');
  if (parts.length === 1) return (raw) => raw[path];
  return (raw) => {
    let v: unknown = raw;
    for (const p of parts) {
      if (v === null || typeof v !== 'object') return undefined;
      v = (v as Record<string, unknown>)[p];
    }
    return v;
  };
}

function fieldSource(field: FieldSpec): { source: CompiledField['source']; consumes: string[] } {
  if (field.rename) {
    const from = field.rename.from;
    return { source: (raw) => raw[from], consumes: [from] };
  }
  if (field.copy) return { source: pathGetter(field.copy.from), consumes: [field.name] };
  if (field.concat) {
    const getters = field.concat.paths.map(pathGetter);
    const separator = field.concat.separator ?? '';
    return {
      source: (raw) => {
        const parts: string[] = [];
        for (const get of getters) {
          const v = get(raw);
          if (v !== undefined && v !== null && v !== '') parts.push(typeof v === 'object' ? JSON.stringify(v) : String(v));
        }
        return parts.length ? parts.join(separator) : undefined;
      },
      consumes: [field.name],
    };
  }
  if (field.split) {
    const get = pathGetter(field.split.from);
    const { separator, index } = field.split;
    return {
      source: (raw) => {
        const v = get(raw);
        if (v === undefined || v === null) return undefined;
        return String(v).split(separator)[index];
      },
      consumes: [field.name],
    };
  }
  const name = field.name;
  return { source: (raw) => raw[name], consumes: [name] };
}

function maskFunction(field: FieldSpec): CompiledField['mask'] {
  const mask = field.mask;
  if (!mask) return null;
  if (mask.type === 'redact') {
    const to = mask.to ?? '(redacted)';
    return () => to;
  }
  const digest = DIGESTS[mask.type];
  const salt = mask.salt ?? '';
  return (value) => digest(salt + (typeof value === 'string' ? value : JSON.stringify(value)));
}

function objectDecoder(fields: FieldSpec[], path: string, discovery: boolean, pathParts: string[]): Decoder {
  const compiled: CompiledField[] = fields.map((f) => {
    const fieldPath = path ? `${path}.${f.name}` : f.name;
    const { source, consumes } = fieldSource(f);
    return {
      name: f.name,
      source,
      decode: valueDecoder(f, fieldPath, discovery, [...pathParts, f.name]),
      required: f.required === true,
      mask: maskFunction(f),
      emptyIsMissing: f.type !== 'string',
      consumes,
    };
  });
  const known = new Set(compiled.flatMap((f) => f.consumes));
  const n = compiled.length;
  return (value, st) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return fail(path || '(event)', `expected an object, got ${describe(value)}`);
    }
    const raw = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) {
      const f = compiled[i];
      const v = f.source(raw);
      // A function comes from Object.prototype (a field named `constructor` that the event lacks).
      if (v === undefined || v === null || (v === '' && f.emptyIsMissing) || typeof v === 'function') {
        if (f.required) fail(path ? `${path}.${f.name}` : f.name, 'required field is missing');
        continue;
      }
      const decoded = f.decode(v, st);
      if (decoded === undefined) continue;
      out[f.name] = f.mask ? f.mask(decoded) : decoded;
    }
    if (discovery && st.discovered) {
      for (const key in raw) {
        if (known.has(key)) continue;
        const v = raw[key];
        if (v === undefined || v === null) continue;
        checkDepth(v, path ? `${path}.${key}` : key);
        Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
        st.discovered.push({ path: [...pathParts, key], value: v });
      }
    }
    return out;
  };
}

export function valueDecoder(spec: ValueSpec, path: string, discovery: boolean, pathParts: string[]): Decoder {
  switch (spec.type) {
    case 'string':
      return stringDecoder(spec, path);
    case 'int':
    case 'smallint':
    case 'bigint':
      return integerDecoder(spec.type, path);
    case 'float':
      return floatDecoder(path);
    case 'boolean':
      return booleanDecoder(path);
    case 'timestamp':
      return timestampDecoder(spec, path);
    case 'json':
      return jsonDecoder(spec, path);
    case 'array':
      return arrayDecoder(spec, path, discovery, pathParts);
    case 'object': {
      const decode = objectDecoder(spec.fields ?? [], path, discovery, pathParts);
      if (!spec.isEmbeddedJSON) return decode;
      return (value, st) => decode(embedded(value, path), st);
    }
    default:
      throw new Error(`unknown field type ${String((spec as ValueSpec).type)}`);
  }
}

/** The decoder of a whole event: the schema's top-level fields. */
export function eventDecoder(fields: FieldSpec[], discovery: boolean): (raw: Record<string, unknown>, st: DecodeState) => Record<string, unknown> {
  const decode = objectDecoder(fields, '', discovery, []);
  return (raw, st) => decode(raw, st) as Record<string, unknown>;
}

