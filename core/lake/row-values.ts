// A lake row read back as the event the pipeline wrote. The lake keeps an event as NDJSON under a Glue table whose
// column types come from the log type's schema (core/search/lake-tables hiveType): json fields and objects without
// fields are `string` columns (their JSON text), objects with fields are structs, arrays arrays. Athena (and the
// local stand-in) answer every value as text: a json field as its JSON text, arrays and structs as `[a, b]` /
// `{k=v}` (core/search/athena-values), column and struct field names lower-cased. restoreLakeEvent puts the
// types back from the schema: objects as objects under the schema's own keys, arrays as arrays, numbers as
// numbers, booleans as booleans, json fields as their JSON value; integers past 2^53 stay the exact text the lake
// keeps. Used by every reader of lake rows that hands events on (alert events, delivery, correlation runs).
import type { FieldSpec, ValueSpec } from '../schemas/types';
import { foldFields, type LakeColumn } from '../search/lake-tables';
import { readAthenaText } from '../search/athena-values';

export type LakeRow = Record<string, unknown>;

/**
 * The select list of a lake table's columns with each array and struct column read as JSON
 * (`CAST("c" AS JSON) AS "c"`: Athena engine 3 writes a named row as a JSON object, an array as a JSON array;
 * the stand-in's DuckDB alike), so their answers are JSON text, not the ambiguous `[a, b]` / `{k=v}` text. A
 * column holding a timestamp anywhere inside is left as it is (Athena cannot cast a timestamp to JSON); its
 * text form is read back by restoreLakeEvent. Column names are the table's (core/search/lake-tables).
 */
export function lakeSelectList(columns: readonly LakeColumn[]): string {
  return columns
    .map((c) =>
      /^(array|struct)</i.test(c.type) && !/timestamp/i.test(c.type) ? `CAST("${c.name}" AS JSON) AS "${c.name}"` : `"${c.name}"`,
    )
    .join(', ');
}

/** p_* columns the pipeline writes as JSON text of an object (string columns). */
const JSON_EVENT_COLUMNS = ['p_udm', 'p_enrichment', 'p_alert_context', 'p_rule_reports'];

const SAFE_INTEGER_TEXT = /^-?\d{1,15}$/;

/**
 * JSON text parsed with integers past Number.MAX_SAFE_INTEGER kept as their text (JSON.parse would round
 * them); throws SyntaxError when it is not JSON.
 */
export function parseJsonExact(text: string): unknown {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"') {
      const start = i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      out += text.slice(start, ++i);
    } else if (ch === '-' || (ch >= '0' && ch <= '9')) {
      const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
      const token = m ? m[0] : ch;
      const n = Number(token);
      out += !m || m[1] || m[2] || Number.isSafeInteger(n) ? token : JSON.stringify(token);
      i += token.length;
    } else {
      out += ch;
      i++;
    }
  }
  return JSON.parse(out) as unknown;
}

/** A json value's text parsed; text that is not JSON stays text. */
function jsonValue(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return parseJsonExact(value);
  } catch {
    return value;
  }
}

/** An array or struct value: already a value, JSON text, or Athena's `[a, b]` / `{k=v}` text. */
function structured(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const t = value.trim();
  if (!t.startsWith('[') && !t.startsWith('{')) return value;
  try {
    return parseJsonExact(t);
  } catch {
    try {
      return readAthenaText(t) ?? value;
    } catch {
      return value;
    }
  }
}

/** One value restored to its schema type (a value of another shape is kept as it is). */
export function restoreValue(spec: ValueSpec, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  switch (spec.type) {
    case 'json':
      return jsonValue(value);
    case 'int':
    case 'smallint':
    case 'bigint': {
      if (typeof value !== 'string' || !/^\s*-?\d+\s*$/.test(value)) return value;
      const t = value.trim();
      return SAFE_INTEGER_TEXT.test(t) || Number.isSafeInteger(Number(t)) ? Number(t) : t;
    }
    case 'float': {
      if (typeof value !== 'string' || value.trim() === '') return value;
      const n = Number(value);
      return Number.isFinite(n) ? n : value;
    }
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : value;
    case 'array': {
      const items = structured(value);
      if (!Array.isArray(items)) return value;
      return spec.element ? items.map((item) => restoreValue(spec.element!, item)) : items;
    }
    case 'object': {
      if (!spec.fields?.length) return jsonValue(value);
      const object = structured(value);
      if (object === null || typeof object !== 'object' || Array.isArray(object)) return value;
      return restoreFields(spec.fields, object as LakeRow);
    }
    default:
      return value;
  }
}

/** An object's fields under the schema's keys (the engine lower-cases them; folded twins are `<name>_2`). */
function restoreFields(fields: readonly FieldSpec[], object: LakeRow): LakeRow {
  const byName = new Map<string, FieldSpec & { key: string }>();
  for (const f of foldFields(fields)) byName.set(f.name.toLowerCase(), f);
  const out: LakeRow = {};
  for (const [name, value] of Object.entries(object)) {
    const field = byName.get(name.toLowerCase());
    if (!field) out[name] = value;
    else out[field.key] = restoreValue(field, value);
  }
  return out;
}

/** A lake row of a log type's table as the event was normalized, from the schema's fields. */
export function restoreLakeEvent(fields: readonly FieldSpec[], row: LakeRow): LakeRow {
  const out = restoreFields(fields, row);
  for (const name of JSON_EVENT_COLUMNS) {
    const value = out[name];
    if (typeof value === 'string' && /^\s*[[{]/.test(value)) out[name] = jsonValue(value);
  }
  return out;
}
