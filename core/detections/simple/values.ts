// Condition values: the text a person types, read as the value kind the field and operator take, and the
// message shown when it is not one ('This field + operator requires an integer', ...).
import { isCIDR, isIP } from '../../schemas/net';
import type { ValueKind } from './operators';

export const VALUE_MESSAGES: Readonly<Record<Exclude<ValueKind, 'none'>, string>> = {
  string: 'This field + operator requires a value',
  int: 'This field + operator requires an integer',
  float: 'This field + operator requires a float',
  bool: 'This field + operator requires true/false',
  ip: 'This field + operator requires an IP',
  cidr: 'This field + operator requires an IP or CIDR',
  'string[]': 'This field + operator requires a list of values',
  'int[]': 'This field + operator requires a list of integers',
  'float[]': 'This field + operator requires a list of floats',
  'bool[]': 'This field + operator requires a list of true/false values',
  'ip[]': 'This field + operator requires a list of IPs',
  json: 'This field + operator requires a JSON value',
  json_array: 'This field + operator requires a JSON array',
};

/**
 * Text typed for a JSON value that does not parse as JSON: kept with the condition so the input shows what was
 * typed, and refused by valueProblem (a condition holding it is never saved).
 */
export class UnreadJson {
  constructor(readonly text: string) {}
}

const isJsonKind = (kind: ValueKind): kind is 'json' | 'json_array' => kind === 'json' || kind === 'json_array';

/** A JSON value typed as JSON text (`{"a": 1}`, `"text"`, `[1, 2]`); blank text is no value. */
function readJson(kind: 'json' | 'json_array', text: string): unknown {
  if (!text.trim()) return new UnreadJson(text);
  try {
    const value: unknown = JSON.parse(text);
    return kind === 'json_array' && !Array.isArray(value) ? new UnreadJson(text) : value;
  } catch {
    return new UnreadJson(text);
  }
}

function jsonOk(kind: 'json' | 'json_array', value: unknown): boolean {
  if (value === undefined || value === '' || value instanceof UnreadJson) return false;
  return kind === 'json' || (Array.isArray(value) && value.length > 0);
}

type Scalar = 'string' | 'int' | 'float' | 'bool' | 'ip' | 'cidr';

const INTEGER = /^[-+]?\d+$/;
const FLOAT = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** Whether a value is one of this scalar kind. */
function scalarOk(kind: Scalar, value: unknown): boolean {
  switch (kind) {
    case 'string':
      // A number or true/false written in YAML is a value too (the engine compares them as text).
      return (typeof value === 'string' && value !== '') || typeof value === 'number' || typeof value === 'boolean';
    case 'int':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'float':
      return typeof value === 'number' && Number.isFinite(value);
    case 'bool':
      return typeof value === 'boolean';
    case 'ip':
      return typeof value === 'string' && isIP(value.trim());
    case 'cidr':
      return typeof value === 'string' && (isIP(value.trim()) || isCIDR(value.trim(), 'any'));
  }
}

/** The specification's message when a condition's value is not of the kind it needs; undefined when it is. */
export function valueProblem(kind: ValueKind, value: unknown): string | undefined {
  if (kind === 'none') return undefined;
  if (isJsonKind(kind)) return jsonOk(kind, value) ? undefined : VALUE_MESSAGES[kind];
  if (kind.endsWith('[]')) {
    const item = kind.slice(0, -2) as Scalar;
    return Array.isArray(value) && value.length > 0 && value.every((v) => scalarOk(item, v)) ? undefined : VALUE_MESSAGES[kind];
  }
  return scalarOk(kind as Scalar, value) ? undefined : VALUE_MESSAGES[kind];
}

/** One typed item: a number or boolean when the text is one, else the text itself (refused by valueProblem). */
function readScalar(kind: Scalar, text: string): unknown {
  const trimmed = text.trim();
  if (kind === 'int' && INTEGER.test(trimmed)) return Number(trimmed);
  if (kind === 'float' && FLOAT.test(trimmed)) return Number(trimmed);
  if (kind === 'bool' && /^(true|false)$/i.test(trimmed)) return trimmed.toLowerCase() === 'true';
  if (kind === 'ip' || kind === 'cidr') return trimmed;
  return text;
}

/** Splits list text on commas and newlines, trimmed, empty entries ignored. */
export const splitList = (text: string) =>
  text
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * The value typed text stands for: list kinds split on commas (items cast to int or float by type), numbers
 * and true/false read as such. Text that is not of the kind is kept as text, for valueProblem to refuse.
 */
export function readValue(kind: ValueKind, text: string): unknown {
  if (kind === 'none') return undefined;
  if (isJsonKind(kind)) return readJson(kind, text);
  if (kind.endsWith('[]')) return splitList(text).map((item) => readScalar(kind.slice(0, -2) as Scalar, item));
  return readScalar(kind as Scalar, text);
}

/** A value as the text of its input. */
export function valueText(value: unknown): string {
  if (value instanceof UnreadJson) return value.text;
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(valueText).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A value as the text of its input for this kind: JSON kinds show JSON text (a string with its quotes). */
export function valueTextFor(kind: ValueKind, value: unknown): string {
  if (!isJsonKind(kind) || value instanceof UnreadJson || value === undefined || value === '') return valueText(value);
  return JSON.stringify(value);
}

/**
 * A value carried to another kind when the operator or field changes: kept when it still fits, a list's first
 * item for a scalar, a scalar wrapped for a list, else retyped from its text.
 */
export function convertValue(kind: ValueKind, value: unknown): unknown {
  if (kind === 'none') return undefined;
  if (valueProblem(kind, value) === undefined) return value;
  if (isJsonKind(kind)) {
    if (value instanceof UnreadJson) return readJson(kind, value.text);
    const items = Array.isArray(value) ? value : value === undefined || value === '' ? [] : [value];
    if (kind === 'json_array') return items.length > 0 ? items : new UnreadJson('');
    return items.length > 0 ? items[0] : new UnreadJson('');
  }
  if (kind.endsWith('[]')) {
    const items = Array.isArray(value) ? value : value === undefined || value === '' ? [] : [value];
    return items.map((v) => readScalar(kind.slice(0, -2) as Scalar, valueText(v)));
  }
  const single = Array.isArray(value) ? value[0] : value;
  return readScalar(kind as Scalar, valueText(single));
}
