// The embedded query engine over the data lake: DuckDB reading gzip NDJSON (or Parquet) in the lake layout
// `<dir>/<db>/<table>/year=YYYY/month=MM/day=DD/hour=HH/*.json.gz`. Each table becomes a view `"<db>"."<table>"`
// with the year/month/day/hour partition columns, so partition predicates prune files. Used by `caracal flow`
// and by the local search service.
//
// The engine runs queries users wrote, so it is locked down underneath whatever checked them (docs/security.md):
// once the views exist, it may touch no file outside the lake's folder (and the folders the caller names), its
// memory and threads are bounded, and its configuration is locked, so no statement can lift any of that.
import { quoteName, quoteString } from '../../../core/lake/sql-text';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve, sep } from 'node:path';
import {
  DuckDBInstance,
  DuckDBListValue,
  DuckDBArrayValue,
  DuckDBStructValue,
  DuckDBMapValue,
  type DuckDBConnection,
  type DuckDBValue,
} from '@duckdb/node-api';
import {
  staticCatalog,
  type Catalog,
  type ColumnInfo,
  type TableInfo,
  EVENT_TIME,
  PARTITION_COLUMNS,
} from '../../../core/pantherflow/catalog';
import { dialect } from '../../../core/pantherflow/dialect';
import { T, type FlowType, type Field } from '../../../core/pantherflow/types';

export type Row = Record<string, unknown>;

export interface LakeEngine {
  readonly catalog: Catalog;
  query(sql: string): Promise<Row[]>;
  /** A new connection to the same database (its own query, interruptible), for the Athena stand-in. */
  connect(): Promise<DuckDBConnection>;
  /** Re-reads which known tables have data files now (a table's first files turn its empty view into a reader). */
  refresh(): Promise<void>;
  /**
   * Adds or replaces one known table (its columns from a schema) without touching the others: the Athena
   * stand-in's CreateTable/UpdateTable. Only for an engine opened with a catalog.
   */
  register(table: TableInfo): Promise<void>;
  close(): void;
}

const quote = quoteName;
const literal = quoteString;

export interface LakeOptions {
  /**
   * The tables and their column types (from the schemas). Without it, tables are the directories found under
   * `dir` and their columns are inferred by reading every file; with it, nothing is read up front, and a table
   * with no data yet is an empty view.
   */
  readonly catalog?: Catalog;
  /**
   * A suffix every data file's name has beyond its lake name, e.g. s3rver's `._S3rver_object` (the S3 stand-in
   * keeps `<key>._S3rver_object`): files are matched as `*.json.gz<suffix>` / `*.parquet<suffix>` and JSON is
   * read as gzip.
   */
  readonly objectSuffix?: string;
  /** Folders beyond the lake's the engine may also use (the Athena stand-in's query profiles). */
  readonly allowedDirectories?: readonly string[];
  /**
   * Work done before the configuration is locked (per-connection settings cannot change after): the Athena
   * stand-in's macros, functions and its pool of profiled connections.
   */
  readonly prepare?: (engine: LakeEngine) => Promise<void>;
}

/** The memory one engine may use (queries past it fail with DuckDB's out-of-memory error; nothing spills to disk). */
export const LAKE_MEMORY_LIMIT = '512MB';
/** The threads one engine's queries run on. */
export const LAKE_THREADS = Math.max(1, Math.min(4, availableParallelism()));

/** Opens an in-memory DuckDB with one view per lake table under `dir` (no directory: no tables). */
export async function openLake(folder?: string, options: LakeOptions = {}): Promise<LakeEngine> {
  const dir = folder && resolve(folder);
  const instance = await DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'true',
    memory_limit: LAKE_MEMORY_LIMIT,
    threads: String(LAKE_THREADS),
    temp_directory: '',
  });
  const connection = await instance.connect();
  const tables: TableInfo[] = [];
  const suffix = options.objectSuffix ?? '';
  // With a catalog the folder may not exist yet (the tables are empty until it does).
  const found = dir && (!options.catalog || existsSync(dir)) ? lakeTables(dir) : [];
  const empty = new Set<TableInfo>();
  if (options.catalog) {
    for (const table of options.catalog.tables()) {
      const path = found.find((f) => f.database === table.database && f.name === table.name)?.path;
      if (!(await registerKnownTable(connection, table, path, suffix))) empty.add(table);
      tables.push(table);
    }
  } else {
    for (const { database, name, path } of found) {
      if (dataFormat(path, suffix)) tables.push(await registerTable(connection, database, name, path, suffix));
    }
  }
  const engine: LakeEngine = {
    catalog: staticCatalog(tables),
    query: async (sql) => {
      const reader = await connection.runAndReadAll(sql);
      const names = reader.columnNames();
      const json = reader.columnTypes().map((t) => t.alias === 'JSON');
      return reader
        .getRows()
        .map((row) =>
          Object.fromEntries(row.map((v, i) => [names[i], json[i] && typeof v === 'string' ? parseJson(v) : plain(v)])),
        );
    },
    connect: () => instance.connect(),
    refresh: async () => {
      if (!dir || !empty.size) return;
      // One listing per database folder, not a look per table: most of a catalog's tables have no folder yet.
      const folders = new Map<string, Set<string>>();
      for (const table of [...empty]) {
        let names = folders.get(table.database);
        if (!names) {
          const dbPath = join(dir, table.database);
          names = new Set(existsSync(dbPath) ? readdirSync(dbPath) : []);
          folders.set(table.database, names);
        }
        if (!names.has(table.name)) continue;
        const path = join(dir, table.database, table.name);
        if (dataFormat(path, suffix) && (await registerKnownTable(connection, table, path, suffix))) empty.delete(table);
      }
    },
    register: async (table) => {
      const at = tables.findIndex((t) => t.database === table.database && t.name === table.name);
      const old = at >= 0 ? tables[at] : undefined;
      if (old) empty.delete(old);
      const path = dir && join(dir, table.database, table.name);
      const found = path && existsSync(path) ? path : undefined;
      if (!(await registerKnownTable(connection, table, found, suffix))) empty.add(table);
      if (at >= 0) tables[at] = table;
      else tables.push(table);
    },
    close: () => {
      connection.closeSync();
      instance.closeSync();
    },
  };
  await options.prepare?.(engine);
  await lockDown(connection, [...(dir ? [dir] : []), ...(options.allowedDirectories ?? [])]);
  return engine;
}

/**
 * No file outside `directories` (the lake's folder) can be read or written, no extension loaded, and no setting
 * changed again (lock_configuration): a statement that reaches the engine unchecked still cannot leave the lake.
 */
async function lockDown(connection: DuckDBConnection, directories: readonly string[]): Promise<void> {
  const folders = directories.map((d) => literal(resolve(d) + sep));
  await connection.run(`SET allowed_directories = [${folders.join(', ')}]`);
  await connection.run(`SET enable_external_access = false`);
  await connection.run(`SET autoload_known_extensions = false`);
  await connection.run(`SET lock_configuration = true`);
}

function lakeTables(dir: string): { database: string; name: string; path: string }[] {
  if (!existsSync(dir)) throw new Error(`no lake directory at ${dir}`);
  const out: { database: string; name: string; path: string }[] = [];
  for (const database of readdirSync(dir).sort()) {
    const dbPath = join(dir, database);
    if (!statSync(dbPath).isDirectory()) continue;
    for (const name of readdirSync(dbPath).sort()) {
      const path = join(dbPath, name);
      if (statSync(path).isDirectory()) out.push({ database, name, path });
    }
  }
  return out;
}

/** The format of a table's data files (the first one found), or undefined when it has none yet. */
function dataFormat(path: string, suffix = ''): 'json' | 'parquet' | undefined {
  const stack = [path];
  while (stack.length) {
    const dir = stack.pop()!;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) stack.push(join(dir, entry.name));
      else if (!entry.name.endsWith(suffix)) continue;
      else if (entry.name.slice(0, entry.name.length - suffix.length).endsWith('.parquet')) return 'parquet';
      else if (/\.json(\.gz)?$/.test(entry.name.slice(0, entry.name.length - suffix.length))) return 'json';
    }
  }
  return undefined;
}

function reader(path: string, parquet: boolean, columns?: string, suffix = '', maximumDepth?: number): string {
  const files = parquet ? `*.parquet${suffix}` : suffix ? `*.json.gz${suffix}` : '*.json*';
  const glob = join(path, 'year=*', 'month=*', 'day=*', 'hour=*', files);
  const hiveTypes = `{${PARTITION_COLUMNS.map((c) => `${literal(c)}: 'INTEGER'`).join(', ')}}`;
  if (parquet) return `read_parquet(${literal(glob)}, hive_partitioning = true, hive_types = ${hiveTypes}, union_by_name = true)`;
  return `read_json(${literal(glob)}, format = 'newline_delimited', hive_partitioning = true, hive_types = ${hiveTypes}, union_by_name = true${suffix ? ", compression = 'gzip'" : ''}${maximumDepth ? `, maximum_depth = ${maximumDepth}` : ''}${columns ? `, columns = ${columns}` : ''})`;
}

async function registerTable(
  connection: DuckDBConnection,
  database: string,
  name: string,
  path: string,
  suffix = '',
): Promise<TableInfo> {
  const parquet = dataFormat(path, suffix) === 'parquet';
  // Keys that differ only by case (CloudTrail's principalId and principalID) cannot be two fields of one
  // struct: then the table's nested objects are read as JSON, which keeps every key apart with its exact case
  // (docs/search.md).
  let maximumDepth: number | undefined;
  let described;
  try {
    described = await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${reader(path, parquet, undefined, suffix)}`);
  } catch (e) {
    if (parquet || !/Duplicate name/i.test((e as Error).message)) throw e;
    maximumDepth = 1;
    described = await connection.runAndReadAll(
      `DESCRIBE SELECT * FROM ${reader(path, parquet, undefined, suffix, maximumDepth)}`,
    );
  }
  const columns: { name: string; sqlType: string }[] = described
    .getRowObjectsJson()
    .map((r) => ({ name: String(r.column_name), sqlType: String(r.column_type) }))
    .filter((c) => !(PARTITION_COLUMNS as readonly string[]).includes(c.name))
    .map((c) => (!parquet && c.name === EVENT_TIME ? { ...c, sqlType: 'TIMESTAMP' } : c));
  const spec = `{${columns.map((c) => `${literal(c.name)}: ${literal(c.sqlType)}`).join(', ')}}`;
  await connection.run(`CREATE SCHEMA IF NOT EXISTS ${quote(database)}`);
  await connection.run(
    `CREATE OR REPLACE VIEW ${quote(database)}.${quote(name)} AS SELECT * FROM ${reader(path, parquet, spec, suffix, maximumDepth)}`,
  );
  const info: ColumnInfo[] = columns.map((c) => ({ name: c.name, type: flowType(c.sqlType) }));
  return { database, name, columns: info, timePartitioned: true };
}

/**
 * A table whose columns the catalog gives: read with those types, or an empty view when it has no files yet
 * (then false).
 */
async function registerKnownTable(
  connection: DuckDBConnection,
  table: TableInfo,
  path: string | undefined,
  suffix = '',
): Promise<boolean> {
  const duck = dialect('duckdb');
  const view = `${quote(table.database)}.${quote(table.name)}`;
  await connection.run(`CREATE SCHEMA IF NOT EXISTS ${quote(table.database)}`);
  const format = path && dataFormat(path, suffix);
  if (path && format === 'parquet') {
    await connection.run(`CREATE OR REPLACE VIEW ${view} AS SELECT * FROM ${reader(path, true, undefined, suffix)}`);
    return true;
  } else if (path && format === 'json') {
    const spec = `{${table.columns.map((c) => `${literal(c.name)}: ${literal(duck.typeName(c.type))}`).join(', ')}}`;
    await connection.run(`CREATE OR REPLACE VIEW ${view} AS SELECT * FROM ${reader(path, false, spec, suffix)}`);
    return true;
  } else {
    const columns = [
      ...table.columns.map((c) => `CAST(NULL AS ${duck.typeName(c.type)}) AS ${quote(c.name)}`),
      ...PARTITION_COLUMNS.map((c) => `CAST(NULL AS INTEGER) AS ${quote(c)}`),
    ];
    await connection.run(`CREATE OR REPLACE VIEW ${view} AS SELECT ${columns.join(', ')} WHERE FALSE`);
    return false;
  }
}

/** DuckDB type text → PantherFlow type. */
export function flowType(sqlType: string): FlowType {
  const t = sqlType.trim();
  if (t.endsWith('[]')) return T.array(flowType(t.slice(0, -2)));
  const upper = t.toUpperCase();
  if (upper.startsWith('STRUCT(') && t.endsWith(')')) return T.object(structFields(t.slice(7, -1)));
  if (upper.startsWith('MAP(') || upper === 'JSON') return T.json;
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT)$/.test(upper)) return T.int;
  if (/^(FLOAT|DOUBLE|REAL)$/.test(upper) || upper.startsWith('DECIMAL')) return T.float;
  if (upper === 'BOOLEAN') return T.bool;
  if (upper.startsWith('TIMESTAMP') || upper === 'DATE') return T.timestamp;
  if (upper === 'INTERVAL') return T.timespan;
  return T.string;
}

function structFields(body: string): Field[] {
  const fields: Field[] = [];
  let depth = 0;
  let start = 0;
  const push = (part: string) => {
    const m = /^\s*("(?:[^"]|"")*"|[^\s"]+)\s+(.*)$/s.exec(part);
    if (!m) return;
    const name = m[1].startsWith('"') ? m[1].slice(1, -1).replace(/""/g, '"') : m[1];
    fields.push({ name, type: flowType(m[2]) });
  };
  let inQuote = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '"') inQuote = !inQuote;
    if (inQuote) continue;
    if (c === '(') depth++;
    if (c === ')') depth--;
    if (c === ',' && depth === 0) {
      push(body.slice(start, i));
      start = i + 1;
    }
  }
  push(body.slice(start));
  return fields;
}

/** A DuckDB value as plain JSON-ready data: safe integers as numbers, nested values as arrays and objects, others as text. */
export function plain(v: DuckDBValue): unknown {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (typeof v === 'bigint')
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
  if (v instanceof DuckDBListValue || v instanceof DuckDBArrayValue) return v.items.map(plain);
  if (v instanceof DuckDBStructValue) return Object.fromEntries(Object.entries(v.entries).map(([k, x]) => [k, plain(x)]));
  if (v instanceof DuckDBMapValue) return Object.fromEntries(v.entries.map((e) => [String(plain(e.key)), plain(e.value)]));
  return v.toString();
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
