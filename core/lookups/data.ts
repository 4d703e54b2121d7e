// A lookup table's data: read from CSV (a header row, RFC 4180 quoting) or JSON (an array of objects, or one
// object per line), its columns inferred, and held in a compact, read-only form keyed by the primary key
// (a string column: exact match; a CIDR column: longest prefix, IPv4 and IPv6). Rows are kept by column
// and built into an object only when a key matches.
import { CidrIndex, parseCidr, type ParsedCidr } from './cidr';

export const MAX_DATA_BYTES = 50 * 1024 * 1024;
export type KeyType = 'STRING' | 'CIDR';
export type ColumnType = 'string' | 'bigint' | 'float' | 'boolean' | 'json';

export interface Column {
  name: string;
  type: ColumnType;
}

export class LookupDataError extends Error {}

const INTERN_LIMIT = 65_536;

export type DataFormat = 'CSV' | 'JSON';

/** The format of a file by its name, then by its first character. */
export function detectFormat(fileName: string, text: string): DataFormat {
  if (/\.csv$/i.test(fileName)) return 'CSV';
  if (/\.(json|jsonl|ndjson)$/i.test(fileName)) return 'JSON';
  const first = text.trimStart()[0];
  return first === '[' || first === '{' ? 'JSON' : 'CSV';
}

/** Parses CSV text with a header row into records (strings; empty cells omitted). */
export function parseCsv(text: string): Record<string, unknown>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let fieldStarted = false;
  for (; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
    } else if (c === '"' && !fieldStarted) {
      quoted = true;
      fieldStarted = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
      fieldStarted = false;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      if (row.length > 1 || row[0] !== '') rows.push(row);
      row = [];
      field = '';
      fieldStarted = false;
      line++;
    } else {
      field += c;
      fieldStarted = true;
    }
  }
  if (quoted) throw new LookupDataError(`CSV: a quoted field is not closed (line ${line})`);
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  if (!rows.length) throw new LookupDataError('CSV: the file is empty');
  const header = rows[0].map((name) => name.trim());
  header.forEach((name, at) => {
    if (!name) throw new LookupDataError(`CSV: column ${at + 1} of the header has no name`);
    if (header.indexOf(name) !== at) throw new LookupDataError(`CSV: the column '${name}' appears twice in the header`);
  });
  return rows.slice(1).map((cells, at) => {
    if (cells.length > header.length)
      throw new LookupDataError(`CSV: row ${at + 2} has ${cells.length} fields, the header ${header.length}`);
    const record: Record<string, unknown> = {};
    cells.forEach((cell, c) => {
      if (cell !== '') record[header[c]] = cell;
    });
    return record;
  });
}

/** Parses JSON text: an array of objects, one object, or one object per line. */
export function parseJsonRecords(text: string): Record<string, unknown>[] {
  const trimmed = text.trim();
  if (!trimmed) throw new LookupDataError('JSON: the file is empty');
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (trimmed.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch (error) {
      throw new LookupDataError(`JSON: ${(error as Error).message}`);
    }
    if (!Array.isArray(parsed)) throw new LookupDataError('JSON: expected an array of objects');
    parsed.forEach((item, at) => {
      if (!isObject(item)) throw new LookupDataError(`JSON: item ${at + 1} is not an object`);
    });
    return parsed as Record<string, unknown>[];
  }
  const records: Record<string, unknown>[] = [];
  trimmed.split(/\r?\n/).forEach((line, at) => {
    if (!line.trim()) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      throw new LookupDataError(`JSON: line ${at + 1}: ${(error as Error).message}`);
    }
    if (!isObject(parsed)) throw new LookupDataError(`JSON: line ${at + 1} is not an object`);
    records.push(parsed);
  });
  return records;
}

export function parseRecords(fileName: string, text: string): Record<string, unknown>[] {
  if (text.length > MAX_DATA_BYTES) throw new LookupDataError('The file is larger than 50 MB');
  return detectFormat(fileName, text) === 'CSV' ? parseCsv(text) : parseJsonRecords(text);
}

function typeOf(value: unknown): ColumnType {
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'bigint' : 'float';
  if (typeof value === 'string') return 'string';
  return 'json';
}

/** Columns of the records in first-seen order; a column whose values disagree in type is a string. */
export function inferColumns(records: Record<string, unknown>[]): Column[] {
  const types = new Map<string, ColumnType>();
  for (const record of records)
    for (const [name, value] of Object.entries(record)) {
      if (value === null || value === undefined) continue;
      const type = typeOf(value);
      const seen = types.get(name);
      if (seen === undefined) types.set(name, type);
      else if (seen !== type)
        types.set(
          name,
          seen === 'bigint' && type === 'float' ? 'float' : type === 'bigint' && seen === 'float' ? 'float' : 'string',
        );
    }
  return [...types.entries()].map(([name, type]) => ({ name, type }));
}

/** Why a record cannot be a row (no key, or a key that is not a CIDR), or undefined when it can. */
export function keyProblem(record: Record<string, unknown>, primaryKey: string, keyType: KeyType): string | undefined {
  const key = record[primaryKey];
  const keyText = typeof key === 'string' ? key.trim() : typeof key === 'number' ? String(key) : undefined;
  if (!keyText) return `no value for the primary key '${primaryKey}'`;
  if (keyType === 'CIDR' && !parseCidr(keyText)) return `'${keyText.slice(0, 60)}' is not a CIDR or IP address`;
  return undefined;
}

export interface TableLoad {
  table: LookupData;
  /** Rows left out (no key, or a key that is not a CIDR), with the reason, first 20. */
  skipped: { row: number; reason: string }[];
  skippedCount: number;
}

/** The compact, read-only form of a table. */
export class LookupData {
  private readonly columnValues: unknown[][];
  private readonly stringKeys?: Map<string, number>;
  private readonly cidrKeys?: CidrIndex;

  private constructor(
    readonly columns: string[],
    columnValues: unknown[][],
    readonly rowCount: number,
    readonly keyType: KeyType,
    keys: Map<string, number> | CidrIndex,
  ) {
    this.columnValues = columnValues;
    if (keys instanceof CidrIndex) this.cidrKeys = keys;
    else this.stringKeys = keys;
  }

  /** Builds the table from records; rows without a usable key are skipped and counted. */
  static build(records: Iterable<Record<string, unknown>>, primaryKey: string, keyType: KeyType): TableLoad {
    const columns: string[] = [];
    const columnAt = new Map<string, number>();
    const columnValues: unknown[][] = [];
    // repeated strings (countries, ASNs, cities) are held once per column, up to INTERN_LIMIT distinct ones
    const interned: (Map<string, string> | undefined)[] = [];
    const skipped: { row: number; reason: string }[] = [];
    let skippedCount = 0;
    const stringKeys = new Map<string, number>();
    const cidrs: [ParsedCidr, number][] = [];
    let rowCount = 0;
    let source = 0;
    for (const record of records) {
      source++;
      const key = record[primaryKey];
      const keyText = typeof key === 'string' ? key.trim() : typeof key === 'number' ? String(key) : undefined;
      let reason: string | undefined;
      let cidr: ParsedCidr | undefined;
      if (!keyText) reason = `no value for the primary key '${primaryKey}'`;
      else if (keyType === 'CIDR' && !(cidr = parseCidr(keyText)))
        reason = `'${keyText.slice(0, 60)}' is not a CIDR or IP address`;
      if (reason) {
        skippedCount++;
        if (skipped.length < 20) skipped.push({ row: source, reason });
        continue;
      }
      const row = rowCount++;
      for (const [name, value] of Object.entries(record)) {
        let at = columnAt.get(name);
        if (at === undefined) {
          at = columns.length;
          columns.push(name);
          columnAt.set(name, at);
          columnValues.push([]);
          interned.push(new Map());
        }
        const pool = interned[at];
        if (pool && typeof value === 'string') {
          const held = pool.get(value);
          if (held !== undefined) columnValues[at][row] = held;
          else {
            columnValues[at][row] = value;
            if (pool.size < INTERN_LIMIT) pool.set(value, value);
            else interned[at] = undefined;
          }
        } else columnValues[at][row] = value;
      }
      if (cidr) cidrs.push([cidr, row]);
      else stringKeys.set(keyText!, row);
    }
    for (const values of columnValues) values.length = rowCount;
    const keys = keyType === 'CIDR' ? new CidrIndex(cidrs) : stringKeys;
    return { table: new LookupData(columns, columnValues, rowCount, keyType, keys), skipped, skippedCount };
  }

  /** The row index matching a key, or -1. */
  matchIndex(key: string): number {
    if (this.cidrKeys) return this.cidrKeys.match(key.trim());
    return this.stringKeys!.get(key) ?? -1;
  }

  /** The row matching a key (exact, or the longest prefix for a CIDR table), or undefined. */
  lookup(key: string): Record<string, unknown> | undefined {
    const at = this.matchIndex(key);
    return at < 0 ? undefined : this.row(at);
  }

  row(at: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (let c = 0; c < this.columns.length; c++) {
      const value = this.columnValues[c][at];
      if (value !== undefined) out[this.columns[c]] = value;
    }
    return out;
  }

  /** The first rows, for a preview. */
  preview(limit: number): Record<string, unknown>[] {
    const out: Record<string, unknown>[] = [];
    for (let at = 0; at < Math.min(limit, this.rowCount); at++) out.push(this.row(at));
    return out;
  }
}
