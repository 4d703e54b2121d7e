// The default parser: one JSON object per line.
import { MAX_JSON_DEPTH } from '../decode';
import type { LineParser, RecordResult } from './common';

// JSON.parse turns every number into a double, so an integer beyond 2^53 (a 64-bit id, hash or nonce, often
// unsigned) loses its last digits before any schema sees it. Lines that hold such an integer are read with
// those integers as their exact decimal text instead: a `string` field keeps them exactly (the managed
// schemas type unsigned 64-bit fields `string`), a `bigint` or `float` field reads the text as before, and a
// `json` field holds the text. A line is parsed once; only when it held a number a double cannot hold as an
// exact integer (rare) is it parsed again with its long integer literals quoted. Finding those numbers in the
// parsed value is far cheaper than scanning every line's text for long runs of digits first.
const NUMBER = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;

/** The line with every integer literal outside strings that a double cannot hold exactly quoted as text. */
export function quoteUnsafeIntegers(line: string): string {
  let out = '';
  let copied = 0;
  let i = 0;
  const n = line.length;
  while (i < n) {
    const c = line.charCodeAt(i);
    if (c === 34 /* " */) {
      i++;
      while (i < n) {
        const d = line.charCodeAt(i);
        if (d === 92 /* \ */) i += 2;
        else if (d === 34) break;
        else i++;
      }
      i++;
    } else if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(line);
      if (!m) {
        i++;
        continue;
      }
      const end = i + m[0].length;
      if (m[1] === undefined && m[2] === undefined && !Number.isSafeInteger(Number(m[0]))) {
        out += line.slice(copied, i) + '"' + m[0] + '"';
        copied = end;
      }
      i = end;
    } else i++;
  }
  return copied === 0 ? line : out + line.slice(copied);
}

/** The deepest nesting hasInexactNumber met (the value read is at 0, its members at 1, ...). */
let deepest = 0;

/** Whether a parsed value holds a number beyond the exact integers of a double (2^53); `deepest` learns how
 * deep its objects and arrays nest (up to where a number stopped the walk). */
function hasInexactNumber(value: unknown): boolean {
  if (typeof value === 'number') return isInexact(value);
  return value !== null && typeof value === 'object' && hasInexactMember(value, 0);
}

const isInexact = (n: number) => n > Number.MAX_SAFE_INTEGER || n < Number.MIN_SAFE_INTEGER;

/** hasInexactNumber of an object or array at `depth`: its members are looked at here (a call per member
 * costs more than the look), objects and arrays among them walked in turn. */
function hasInexactMember(value: object, depth: number): boolean {
  if (depth > deepest) deepest = depth;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (typeof v === 'number') {
        if (isInexact(v)) return true;
      } else if (typeof v === 'object' && v !== null && hasInexactMember(v, depth + 1)) return true;
    }
    return false;
  }
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key];
    if (typeof v === 'number') {
      if (isInexact(v)) return true;
    } else if (typeof v === 'object' && v !== null && hasInexactMember(v, depth + 1)) return true;
  }
  return false;
}

/** The last object readJsonObject read, when none of its objects or arrays nests MAX_JSON_DEPTH levels deep. */
let lastShallow: object | null = null;

/** Whether `record` is the object readJsonObject read last and it nests less than MAX_JSON_DEPTH levels deep:
 * its values then need no depth check (the walk for long integers measured it). A record changed since it was
 * read must not be asked about (readers hand their records on as they are). */
export function isShallowJson(record: object): boolean {
  return record === lastShallow;
}

/** A line read as a JSON object, or why it is not one. */
export function readJsonObject(line: string): Record<string, unknown> | string {
  let value: unknown;
  lastShallow = null;
  try {
    value = JSON.parse(line);
    deepest = 0;
    if (hasInexactNumber(value)) value = JSON.parse(quoteUnsafeIntegers(line));
    else if (deepest < MAX_JSON_DEPTH && value !== null && typeof value === 'object') lastShallow = value;
  } catch {
    // The reason is the one JSON.parse gives for the line as written (quoting moves the positions).
    try {
      value = JSON.parse(line);
    } catch (err) {
      return `invalid JSON: ${(err as Error).message}`;
    }
  }
  if (value === null || typeof value !== 'object') return `expected a JSON object, got ${value === null ? 'null' : typeof value}`;
  if (Array.isArray(value)) return 'expected a JSON object, got an array';
  return value as Record<string, unknown>;
}

export const jsonParser: LineParser = {
  parse(line: string): RecordResult {
    return readJsonObject(line);
  },
};
