// What every line parser returns: the raw record (field name to value), an error text, or SKIP for a line
// that carries no event (a CSV header).
import type { TextParserOptions } from '../types';

export type RawRecord = Record<string, unknown>;
export const SKIP = null;
export type RecordResult = RawRecord | string | typeof SKIP;

export interface LineInfo {
  /** Identifies the input stream a line belongs to (a CSV header applies to the lines of its own object). */
  streamKey: string;
  lineNumber?: number;
}

export interface LineParser {
  parse(line: string, info: LineInfo): RecordResult;
}

/** The options shared by the text parsers: prefix skipping, empty values, trimming and expanded fields. */
export class TextOptions {
  private readonly skipPrefix: string;
  private readonly empty: Set<string>;
  private readonly trim: boolean;
  private readonly expand: [string, (string | { ref: string })[]][];

  constructor(options: TextParserOptions) {
    this.skipPrefix = options.skipPrefix ?? '';
    this.empty = new Set(options.emptyValues ?? []);
    this.trim = options.trimSpace ?? false;
    this.expand = Object.entries(options.expandFields ?? {}).map(([name, template]) => [name, parseTemplate(template)]);
  }

  strip(line: string): string {
    return this.skipPrefix && line.startsWith(this.skipPrefix) ? line.slice(this.skipPrefix.length) : line;
  }

  /** Sets a value unless it is one of the empty values. */
  set(record: RawRecord, name: string, raw: string): void {
    const value = this.trim ? raw.trim() : raw;
    if (this.empty.has(value)) return;
    record[name] = value;
  }

  finish(record: RawRecord): RawRecord {
    for (const [name, parts] of this.expand) {
      let out = '';
      for (const part of parts) {
        if (typeof part === 'string') out += part;
        else {
          const v = record[part.ref];
          if (v === undefined) {
            out = '';
            break;
          }
          out += String(v);
        }
      }
      if (out) record[name] = out;
    }
    return record;
  }
}

function parseTemplate(template: string): (string | { ref: string })[] {
  const parts: (string | { ref: string })[] = [];
  let last = 0;
  for (const m of template.matchAll(/%\{([^}]*)\}/g)) {
    if (m.index! > last) parts.push(template.slice(last, m.index));
    parts.push({ ref: m[1] });
    last = m.index! + m[0].length;
  }
  if (last < template.length) parts.push(template.slice(last));
  return parts;
}
