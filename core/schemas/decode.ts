// Field decoding: a schema's fields compiled once into functions that turn a raw record (parsed JSON or the
// values of a text parser) into a typed event: coercion, required fields, validation, transforms,
// indicators and the event time. A failure returns the FAIL sentinel with the reason in the state (no
// exceptions: classification makes failures as common as successes, and throwing is slow).
import { DIGESTS } from './hash';
import { indicatorCollector, type IndicatorCollector, type IndicatorSet } from './indicators';
import { isCIDR, matchesIpVersion } from './net';
import { canonicalUtcText, compileTimeFormats, formatInstant, parseRfc3339, type Instant } from './time';
import type { FieldSpec, ValueSpec } from './types';

export interface DecodeState {
  indicators: IndicatorSet;
  eventTime: Instant | null;
  /** eventTime as written in the event. */
  eventTimeText: string;
  reference: Instant;
  /** Unknown fields found while field discovery is on: their path from the event root and value. */
  discovered: { path: string[]; value: unknown }[] | null;
  /** Why decoding failed, when a decoder returned FAIL. */
  error: string;
  /** The record's values are known to nest less than MAX_JSON_DEPTH levels (see isShallowJson), so json
   * values need no depth check; cleared when embedded JSON is parsed (its values are new). */
  shallow: boolean;
  /** The record is the object JSON.parse made from its line (isShallowJson): its objects have fast properties. */
  jsonRecord: boolean;
}

/** Returned by a decoder that failed; the reason is in DecodeState.error. */
export const FAIL: unique symbol = Symbol('decode failure');

type Decoder = (value: unknown, st: DecodeState) => unknown;

/** Values beyond this depth are refused, so output never overflows the stack when written. */
export const MAX_JSON_DEPTH = 100;

const LIMITS = {
  smallint: [-32768, 32767],
  int: [-2147483648, 2147483647],
  // int64; beyond 2^53 a JSON number has already lost precision in JSON.parse, but it is in range.
  bigint: [-(2 ** 63), 2 ** 63],
} as const;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)}`;
  return `${typeof value} ${String(value)}`;
}

function fail(st: DecodeState, path: string, message: string): typeof FAIL {
  st.error = `field "${path}": ${message}`;
  return FAIL;
}

function tooDeep(value: unknown, depth = 0): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (depth >= MAX_JSON_DEPTH) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (tooDeep(value[i], depth + 1)) return true;
  } else {
    for (const key in value) if (tooDeep((value as Record<string, unknown>)[key], depth + 1)) return true;
  }
  return false;
}

const DEPTH_MESSAGE = `nested deeper than ${MAX_JSON_DEPTH} levels`;

function embedded(value: unknown, path: string, st: DecodeState): unknown {
  if (typeof value !== 'string') return value;
  st.shallow = false;
  try {
    return JSON.parse(value);
  } catch {
    return fail(st, path, 'expected embedded JSON, got text that does not parse');
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
    else return fail(st, path, `expected a string, got ${describe(value)}`);
    if (checked) {
      if (allow && !allow.has(s)) return fail(st, path, `value ${JSON.stringify(s)} is not one of the allowed values`);
      if (deny && deny.has(s)) return fail(st, path, `value ${JSON.stringify(s)} is denied`);
      if (ip && !matchesIpVersion(s, ip))
        return fail(st, path, `value ${JSON.stringify(s)} is not an ${ip === 'any' ? 'IP' : ip} address`);
      if (cidr && !isCIDR(s, cidr))
        return fail(st, path, `value ${JSON.stringify(s)} is not an ${cidr === 'any' ? '' : cidr + ' '}CIDR block`);
    }
    if (collect) collect(s, st.indicators);
    return s;
  };
}

const INTEGER_TEXT = /^\s*[+-]?\d+\s*$/;
const FLOAT_TEXT = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

function integerDecoder(type: 'int' | 'smallint' | 'bigint', path: string): Decoder {
  const [min, max] = LIMITS[type];
  return (value, st) => {
    let n: number;
    if (typeof value === 'number') n = value;
    else if (typeof value === 'string' && INTEGER_TEXT.test(value)) n = Number(value);
    else return fail(st, path, `expected an integer, got ${describe(value)}`);
    if (!Number.isInteger(n)) return fail(st, path, `expected an integer, got ${describe(value)}`);
    if (n < min || n > max) return fail(st, path, `number ${String(value).trim()} is out of range for ${type}`);
    return n;
  };
}

function floatDecoder(path: string): Decoder {
  return (value, st) => {
    let n: number;
    if (typeof value === 'number') n = value;
    else if (typeof value === 'string' && FLOAT_TEXT.test(value)) n = Number(value);
    else return fail(st, path, `expected a number, got ${describe(value)}`);
    if (!Number.isFinite(n)) return fail(st, path, `number ${String(value).trim()} is out of range for float`);
    return n;
  };
}

function booleanDecoder(path: string): Decoder {
  return (value, st) => {
    if (typeof value === 'boolean') return value;
    if (typeof value === 'string') {
      const t = value.trim().toLowerCase();
      if (t === 'true') return true;
      if (t === 'false') return false;
    }
    return fail(st, path, `expected a boolean, got ${describe(value)}`);
  };
}

function timestampDecoder(spec: ValueSpec, path: string): Decoder {
  const formats = spec.timeFormats ?? (spec.timeFormat ? [spec.timeFormat] : ['rfc3339']);
  const parse = compileTimeFormats(formats);
  const isEventTime = spec.isEventTime === true;
  // RFC 3339 first (the common case): a UTC text in the canonical shape is written out from its own digits.
  const rfc3339First = formats[0] === 'rfc3339';
  const rest = formats.length > 1 ? compileTimeFormats(formats.slice(1)) : null;
  // The last RFC 3339 text read and what it gave: consecutive records often carry the same time (a session's
  // creation date, events of one second). Reading RFC 3339 does not depend on the reference time.
  let lastText = '';
  let lastInstant: Instant | null = null;
  let lastOut = '';
  return (value, st) => {
    let t: Instant | null;
    let text: string | null = null;
    if (rfc3339First && typeof value === 'string') {
      if (value === lastText && lastInstant !== null) {
        t = lastInstant;
        text = lastOut;
      } else {
        t = parseRfc3339(value);
        if (t) {
          text = canonicalUtcText(value) ?? formatInstant(t);
          lastText = value;
          lastInstant = t;
          lastOut = text;
        } else if (rest) t = rest(value, st.reference);
      }
    } else t = parse(value, st.reference);
    if (!t)
      return fail(
        st,
        path,
        `${describe(value)} does not match the time format${formats.length > 1 ? 's' : ''} ${formats.join(', ')}`,
      );
    if (text === null) text = formatInstant(t);
    if (isEventTime && st.eventTime === null) {
      st.eventTime = t;
      st.eventTimeText = text;
    }
    return text;
  };
}

function jsonDecoder(spec: ValueSpec, path: string): Decoder {
  const isEmbedded = spec.isEmbeddedJSON === true;
  return (value, st) => {
    const v = isEmbedded ? embedded(value, path, st) : value;
    if (v === FAIL) return FAIL;
    if (!st.shallow && tooDeep(v)) return fail(st, path, DEPTH_MESSAGE);
    return v;
  };
}

function arrayDecoder(spec: ValueSpec, path: string, discovery: boolean, pathParts: string[]): Decoder {
  const element = spec.element
    ? valueDecoder(spec.element, `${path}[]`, discovery, [...pathParts, '[]'])
    : jsonDecoder({ type: 'json' }, `${path}[]`);
  const isEmbedded = spec.isEmbeddedJSON === true;
  return (value, st) => {
    const v = isEmbedded ? embedded(value, path, st) : value;
    if (v === FAIL) return FAIL;
    if (!Array.isArray(v)) return fail(st, path, `expected an array, got ${describe(v)}`);
    const out: unknown[] = [];
    for (let i = 0; i < v.length; i++) {
      const item = v[i];
      if (item === null || item === undefined) continue;
      const decoded = element(item, st);
      if (decoded === FAIL) return FAIL;
      if (decoded !== undefined) out.push(decoded);
    }
    return out;
  };
}

interface CompiledField {
  name: string;
  path: string;
  /** The raw key the field reads as is (no rename, copy, concat or split), or null: `source` then finds it. */
  key: string | null;
  source: (raw: Record<string, unknown>) => unknown;
  decode: Decoder;
  required: boolean;
  mask: ((value: unknown) => string) | null;
  /** An empty string counts as missing for every type but string. */
  emptyIsMissing: boolean;
  /** Raw keys this field reads, so they are not reported as unknown. */
  consumes: string[];
  /** A value the object decoder takes as it is, without calling `decode` (the common cases, inline). */
  inline: Inline;
  /** For Inline.STRING_INDICATORS: the field's indicator collector. */
  collect: IndicatorCollector | null;
}

/** What `decode` would do with a value of the expected JavaScript type, when the object decoder can do it
 * itself; any other value goes through `decode`, as do the fields of other kinds. */
const enum Inline {
  NONE,
  /** A string field with neither validation nor indicators: a string is kept as it is. */
  STRING,
  /** A string field with indicators but no validation: a string is kept and its indicators collected. */
  STRING_INDICATORS,
  /** A boolean field: a boolean is kept. */
  BOOLEAN,
  /** A json field (not embedded): a value that is not an object, or one not nested too deep, is kept. */
  JSON,
}

function inlineOf(spec: ValueSpec): Inline {
  switch (spec.type) {
    case 'string': {
      const v = spec.validate;
      if (v && (v.allow || v.deny || v.ip || v.cidr)) return Inline.NONE;
      return spec.indicators && spec.indicators.length > 0 ? Inline.STRING_INDICATORS : Inline.STRING;
    }
    case 'boolean':
      return Inline.BOOLEAN;
    case 'json':
      return spec.isEmbeddedJSON === true ? Inline.NONE : Inline.JSON;
    default:
      return Inline.NONE;
  }
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

/** Missing: absent, null, empty (except for strings), or a function (from Object.prototype, e.g. `constructor`). */
function isMissing(v: unknown, f: CompiledField): boolean {
  return v === undefined || v === null || (v === '' && f.emptyIsMissing) || typeof v === 'function';
}

/** Keys of the raw objects a decoder has read, in their order, remembered up to this many. */
const MAX_REMEMBERED_KEYS = 256;
/** What a raw key is to an object decoder: the index of the field reading it as is (>= 0), or one of these. */
const KNOWN_OTHERWISE = -1; // read by a rename, copy, concat or split (through `source`)
const UNKNOWN = -2;

function objectDecoder(fields: FieldSpec[], path: string, discovery: boolean, pathParts: string[]): Decoder {
  const compiled: CompiledField[] = fields.map((f) => {
    const fieldPath = path ? `${path}.${f.name}` : f.name;
    const { source, consumes } = fieldSource(f);
    return {
      name: f.name,
      path: fieldPath,
      key: f.rename || f.copy || f.concat || f.split ? null : f.name,
      source,
      decode: valueDecoder(f, fieldPath, discovery, [...pathParts, f.name]),
      required: f.required === true,
      mask: maskFunction(f),
      emptyIsMissing: f.type !== 'string',
      consumes,
      inline: inlineOf(f),
      collect: indicatorCollector(f.indicators),
    };
  });
  const known = new Set(compiled.flatMap((f) => f.consumes));
  const n = compiled.length;
  // The raw values of the fields read by their own key are gathered in one pass over the raw object's keys
  // (a for-in reads each value by its position, where a lookup by name per field is a megamorphic load, and
  // the same pass finds whether the object has keys the schema does not know). Raw objects of one log type
  // mostly list their keys in the same order: the key at each position and what it is to this decoder are
  // remembered, so a key seen there before costs a comparison instead of a Map lookup.
  const byKey = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const key = compiled[i].key;
    if (key !== null && !byKey.has(key)) byKey.set(key, i);
  }
  // A key two fields read as is (the schema validator refuses it, but a spec may skip validation) is gathered
  // for the first; the others read it by name.
  const direct = compiled.map((f, i) => f.key !== null && byKey.get(f.key) === i);
  const seenKeys: string[] = [];
  const seenRoles: number[] = [];
  // Values by field index for the record being decoded: one array per decoder (a decoder is never entered
  // again while it runs: every object of a schema has its own). A slot is emptied when the field reads it;
  // a record left part way (a failure, an exception) leaves `dirty` set, and the next empties them all.
  const values: unknown[] = new Array<unknown>(n).fill(undefined);
  let dirty = false;
  const roleOf = (key: string): number => {
    const i = byKey.get(key);
    if (i !== undefined) return i;
    return known.has(key) ? KNOWN_OTHERWISE : UNKNOWN;
  };
  const required: number[] = [];
  for (let i = 0; i < n; i++) if (compiled[i].required) required.push(i);
  return (value, st) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return fail(st, path || '(event)', `expected an object, got ${describe(value)}`);
    }
    const raw = value as Record<string, unknown>;
    // Required fields first, by name: classification rejects most candidates here, before any other work.
    for (let r = 0; r < required.length; r++) {
      const f = compiled[required[r]];
      if (isMissing(f.key !== null ? raw[f.key] : f.source(raw), f)) return fail(st, f.path, 'required field is missing');
    }
    // Objects JSON.parse made from a line have fast properties: their keys are walked (a for-in reads each
    // value by position from the enum cache). Other records (a text parser's, which may hold their fields in a
    // dictionary, where a for-in collects and sorts the keys each time; objects from callers) are read by name.
    const gather = st.jsonRecord;
    // Without the walk, discovery looks for unknown keys itself.
    let unknown = !gather;
    if (gather) {
      if (dirty) values.fill(undefined);
      dirty = true;
      let position = 0;
      for (const key in raw) {
        let role: number;
        if (position < seenKeys.length && seenKeys[position] === key) role = seenRoles[position];
        else {
          role = roleOf(key);
          if (position < MAX_REMEMBERED_KEYS) {
            seenKeys[position] = key;
            seenRoles[position] = role;
          }
        }
        if (role >= 0) values[role] = raw[key];
        else if (role === UNKNOWN) unknown = true;
        position++;
      }
    }
    const out: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) {
      const f = compiled[i];
      let v: unknown;
      if (gather && direct[i]) {
        v = values[i];
        if (v === undefined) continue;
        values[i] = undefined;
      } else v = f.key !== null ? raw[f.key] : f.source(raw);
      // isMissing, written out (typeof first: `v === ''` on values of every type is a generic comparison).
      if (v === undefined || v === null) continue;
      const type = typeof v;
      if (type === 'string' ? (v as string).length === 0 && f.emptyIsMissing : type === 'function') continue;
      let decoded: unknown;
      switch (f.inline) {
        case Inline.STRING:
          decoded = type === 'string' ? v : f.decode(v, st);
          break;
        case Inline.STRING_INDICATORS:
          if (type === 'string') {
            f.collect!(v as string, st.indicators);
            decoded = v;
          } else decoded = f.decode(v, st);
          break;
        case Inline.BOOLEAN:
          decoded = type === 'boolean' ? v : f.decode(v, st);
          break;
        case Inline.JSON:
          decoded = type !== 'object' || st.shallow || !tooDeep(v) ? v : f.decode(v, st);
          break;
        default:
          decoded = f.decode(v, st);
      }
      if (decoded === FAIL) return FAIL;
      if (decoded === undefined) continue;
      out[f.name] = f.mask ? f.mask(decoded) : decoded;
    }
    if (gather) dirty = false;
    if (unknown && discovery && st.discovered) {
      for (const key in raw) {
        if (known.has(key)) continue;
        const v = raw[key];
        if (v === undefined || v === null) continue;
        if (!st.shallow && tooDeep(v)) return fail(st, path ? `${path}.${key}` : key, DEPTH_MESSAGE);
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
      return (value, st) => {
        const v = embedded(value, path, st);
        return v === FAIL ? FAIL : decode(v, st);
      };
    }
    default:
      throw new Error(`unknown field type ${String((spec as ValueSpec).type)}`);
  }
}

/** The decoder of a whole event: the schema's top-level fields. FAIL with the reason in `st.error`. */
export function eventDecoder(
  fields: FieldSpec[],
  discovery: boolean,
): (raw: Record<string, unknown>, st: DecodeState) => Record<string, unknown> | typeof FAIL {
  return objectDecoder(fields, '', discovery, []) as (
    raw: Record<string, unknown>,
    st: DecodeState,
  ) => Record<string, unknown> | typeof FAIL;
}
