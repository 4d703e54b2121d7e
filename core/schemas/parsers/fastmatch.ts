// fastmatch: patterns of literal text and `%{name}` placeholders, tried in order. A placeholder takes the text
// up to the next literal; a placeholder between double quotes takes the quoted text and unescapes it.
// `%{}` matches a value that is not kept.
import type { FastmatchParserSpec } from '../types';
import { TextOptions, type LineParser, type RawRecord, type RecordResult } from './common';

interface Capture {
  name: string;
  quoted: boolean;
  /** The literal that ends the value ('' for the last placeholder: the rest of the line). */
  until: string;
}

interface Pattern {
  prefix: string;
  captures: Capture[];
}

export class FastmatchError extends Error {}

export function compileFastmatch(pattern: string): Pattern {
  const literals: string[] = [];
  const names: string[] = [];
  let last = 0;
  for (const m of pattern.matchAll(/%\{([^}]*)\}/g)) {
    literals.push(pattern.slice(last, m.index));
    names.push(m[1]);
    last = m.index! + m[0].length;
  }
  literals.push(pattern.slice(last));
  if (names.length === 0) throw new FastmatchError('Must contain at least one placeholder');
  const captures: Capture[] = names.map((name, i) => {
    const before = literals[i];
    const after = literals[i + 1];
    if (after === '' && i < names.length - 1)
      throw new FastmatchError(`placeholders %{${name}} and %{${names[i + 1]}} must be separated by text`);
    return { name, quoted: before.endsWith('"') && after.startsWith('"'), until: after };
  });
  return { prefix: literals[0], captures };
}

function unescapeQuoted(text: string): string {
  return text.indexOf('\\') < 0 ? text : text.replace(/\\(.)/g, '$1');
}

function matchPattern(p: Pattern, line: string, options: TextOptions): RawRecord | null {
  if (!line.startsWith(p.prefix)) return null;
  let pos = p.prefix.length;
  const record: RawRecord = {};
  const last = p.captures.length - 1;
  for (let i = 0; i <= last; i++) {
    const c = p.captures[i];
    let end: number;
    if (c.quoted) {
      end = pos;
      for (;;) {
        const q = line.indexOf('"', end);
        if (q < 0) return null;
        let backslashes = 0;
        for (let k = q - 1; k >= pos && line.charCodeAt(k) === 92; k--) backslashes++;
        if (backslashes % 2 === 0 && line.startsWith(c.until, q)) {
          end = q;
          break;
        }
        end = q + 1;
      }
    } else if (c.until === '') {
      end = line.length;
    } else if (i === last) {
      end = line.length - c.until.length;
      if (end < pos || !line.endsWith(c.until)) return null;
    } else {
      end = line.indexOf(c.until, pos);
      if (end < 0) return null;
    }
    const raw = line.slice(pos, end);
    if (c.name) options.set(record, c.name, c.quoted ? unescapeQuoted(raw) : raw);
    pos = end + c.until.length;
  }
  return pos === line.length ? record : null;
}

export function fastmatchParser(spec: FastmatchParserSpec): LineParser {
  const patterns = spec.match.map(compileFastmatch);
  const options = new TextOptions(spec);
  return {
    parse(rawLine: string): RecordResult {
      const line = options.strip(rawLine);
      for (const p of patterns) {
        const record = matchPattern(p, line, options);
        if (record) return options.finish(record);
      }
      return patterns.length === 1 ? 'line does not match the pattern' : `line matches none of the ${patterns.length} patterns`;
    },
  };
}
