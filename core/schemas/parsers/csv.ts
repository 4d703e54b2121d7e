// Delimited text: comma, tab, space or pipe; quoted cells with doubled quotes. With hasHeader, a header line
// gives the column names of the lines that follow it in the same stream: without `columns` the first line is
// the header; with `columns` (the names used when no header was seen) a line made only of known column names
// is one. W3C extended logs (CloudFront, IIS) are read too: `#Fields:` is the header, other `#` lines are comments.
import type { CsvParserSpec } from '../types';
import { SKIP, TextOptions, type LineInfo, type LineParser, type RawRecord, type RecordResult } from './common';

const MAX_HEADERS = 1024;

/** Cells of a delimited line. A space delimiter takes runs of spaces as one and ignores leading and trailing ones. */
export function splitDelimited(line: string, delimiter: string): string[] | string {
  const cells: string[] = [];
  const spaces = delimiter === ' ';
  let n = line.length;
  let i = 0;
  if (spaces) {
    while (i < n && line.charCodeAt(i) === 32) i++;
    while (n > i && line.charCodeAt(n - 1) === 32) n--;
  }
  const next = (from: number) => {
    let j = from + delimiter.length;
    if (spaces) while (j < n && line.charCodeAt(j) === 32) j++;
    return j;
  };
  for (;;) {
    if (line.charCodeAt(i) === 34 /* " */ && i < n) {
      let cell = '';
      let j = i + 1;
      for (;;) {
        const q = line.indexOf('"', j);
        if (q < 0 || q >= n) return 'unterminated quoted value';
        cell += line.slice(j, q);
        if (q + 1 < n && line.charCodeAt(q + 1) === 34) {
          cell += '"';
          j = q + 2;
          continue;
        }
        j = q + 1;
        break;
      }
      cells.push(cell);
      if (j >= n) break;
      if (!line.startsWith(delimiter, j)) return `unexpected text after a quoted value at column ${cells.length}`;
      i = next(j);
    } else {
      let end = line.indexOf(delimiter, i);
      if (end < 0 || end > n) end = n;
      cells.push(line.slice(i, end));
      if (end >= n) break;
      i = next(end);
    }
  }
  return cells;
}

export function csvParser(spec: CsvParserSpec, fieldNames: string[] = []): LineParser {
  const delimiter = spec.delimiter || ',';
  const options = new TextOptions(spec);
  const columns = spec.columns && spec.columns.length > 0 ? spec.columns : undefined;
  const known = new Set([...(columns ?? []), ...fieldNames]);
  const headers = new Map<string, string[]>();
  const remember = (streamKey: string, names: string[]) => {
    if (headers.size >= MAX_HEADERS) headers.delete(headers.keys().next().value as string);
    headers.set(streamKey, names);
  };
  const split = (line: string) => splitDelimited(line, delimiter);

  return {
    parse(rawLine: string, info: LineInfo): RecordResult {
      let line = options.strip(rawLine);
      if (spec.hasHeader && line.charCodeAt(0) === 35 /* # */) {
        if (!line.startsWith('#Fields:')) return SKIP;
        line = line.slice('#Fields:'.length).trim();
        const names = delimiter === '\t' ? line.split(/\s+/) : split(line);
        if (typeof names === 'string') return names;
        remember(info.streamKey, names);
        return SKIP;
      }
      const cells = split(line);
      if (typeof cells === 'string') return cells;
      if (spec.hasHeader) {
        const isHeader = columns ? cells.every((c) => known.has(c)) : !headers.has(info.streamKey) || info.lineNumber === 1;
        if (isHeader) {
          remember(info.streamKey, cells);
          return SKIP;
        }
      }
      const names = headers.get(info.streamKey) ?? columns;
      if (!names) return 'no header line seen before this line';
      if (cells.length !== names.length) return `expected ${names.length} columns, got ${cells.length}`;
      const record: RawRecord = {};
      for (let i = 0; i < names.length; i++) options.set(record, names[i], cells[i]);
      return options.finish(record);
    },
  };
}
