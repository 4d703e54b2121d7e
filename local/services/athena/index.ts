// Athena stand-in: an HTTP endpoint speaking the AWS JSON 1.1 protocol for the Athena calls the search service
// makes (StartQueryExecution, GetQueryExecution, GetQueryResults with NextToken and MaxResults,
// GetQueryRuntimeStatistics, StopQueryExecution) and the Glue calls it reads the catalog with (GetDatabases,
// GetTables, GetTable; CreateTable/UpdateTable for custom log types). Queries run asynchronously on DuckDB
// over the lake bucket's files as the S3 stand-in keeps them (local/services/athena/duckdb.ts), each on its own
// connection so StopQueryExecution interrupts it. Athena SQL is translated where DuckDB spells it otherwise
// (translate.ts). Like Glue, the catalog outlives a restart: tables made by CreateTable/UpdateTable (custom log
// types) are kept in a file and known at the next start. Values come back as Athena writes them (arrays as
// `[a, b]`, rows and maps as `{k=v}`, core/search/athena-values), and "bytes scanned" is the size of the data
// files DuckDB actually read after partition pruning (from its profile of the query).
import { quoteString } from '../../../core/lake/sql-text';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import {
  BOOLEAN,
  DuckDBListValue,
  DuckDBArrayValue,
  DuckDBScalarFunction,
  DuckDBStructValue,
  DuckDBMapValue,
  VARCHAR,
} from '@duckdb/node-api';
import { ipAddressText, ipInCidr } from '../../../core/lookups/cidr';
import { staticCatalog, type TableInfo } from '../../../core/pantherflow/catalog';
import { athenaText } from '../../../core/search/athena-values';
import { PARTITION_KEYS, flowTypeOfHive, type LakeTableSpec } from '../../../core/search/lake-tables';
import { LOGS_DATABASE, RULE_ERRORS_DATABASE, SIGNALS_DATABASE } from '../../../core/lake/layout';
import { openLake, plain, type LakeEngine } from './duckdb';
import { closeServer, listen } from '../net';
import { IP_FUNCTIONS, MACRO_DEFINITIONS, athenaToDuckdb } from './translate';

export interface AthenaOptions {
  /** The lake bucket's folder in the S3 stand-in's state. */
  readonly lakeDir: string;
  /** The S3 stand-in's suffix of object files (`._S3rver_object`); none for a plain lake folder. */
  readonly objectSuffix?: string;
  /** The Glue tables (core/search lakeTableSpecs of the schemas). */
  readonly tables: readonly LakeTableSpec[];
  /**
   * Where the tables made or changed through CreateTable/UpdateTable are kept (JSON), so a restart knows them
   * as Glue would (custom schemas' tables); none: they last as long as the stand-in.
   */
  readonly catalogFile?: string;
}

export interface AthenaService {
  readonly endpoint: string;
  /** Executions whose DuckDB work is still going on (a cancelled one counts until DuckDB has stopped). */
  running(): number;
  stop(): Promise<void>;
}

type State = 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';

interface Execution {
  readonly id: string;
  readonly sql: string;
  readonly workGroup: string;
  state: State;
  reason?: string;
  readonly submitted: number;
  completed?: number;
  columns: { name: string; type: string }[];
  rows: (string | null)[][];
  bytesScanned: number;
  connection?: DuckDBConnection;
  /** Settles when the query has finished (succeeded, failed or was cancelled). */
  readonly finished: Promise<void>;
  readonly finish: () => void;
}

/** A connection of the stand-in's pool and the file its queries' profiles go to. */
interface Pooled {
  readonly connection: DuckDBConnection;
  readonly profile: string;
}

class AwsError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

const DATABASES = [LOGS_DATABASE, SIGNALS_DATABASE, RULE_ERRORS_DATABASE];
/** Executions are forgotten after this many (oldest first), as Athena keeps a bounded history. */
const KEEP_EXECUTIONS = 1000;
const MAX_RESULTS = 1000;
/**
 * GetQueryExecution of a running query answers when it finishes or after this long, whichever is first (a long
 * poll: the answer is the one Athena gives, only sooner, so a caller's poll interval adds nothing to a query).
 */
export const STATUS_HOLD_MS = 200;
/**
 * Where each pooled connection's query profile is written (rewritten at every query, read back for "bytes
 * scanned"): a memory file system where there is one (/dev/shm), as a disk file costs a query a few hundred µs.
 */
const PROFILE_DIR = existsSync('/dev/shm') && statSync('/dev/shm').isDirectory() ? '/dev/shm' : tmpdir();
/** Queries that run at once (each on a connection of the pool); more wait QUEUED. */
const CONNECTIONS = 4;

export async function startAthena(options: AthenaOptions): Promise<AthenaService> {
  const tables = new Map<string, CatalogEntry>(options.tables.map((t) => [`${t.database}.${t.name}`, t]));
  // Tables made through Glue calls in earlier runs: over the given ones, as the later definition.
  const saved = readCatalogFile(options.catalogFile);
  const made = new Map<string, CatalogEntry>(saved.tables.map((t) => [`${t.database}.${t.name}`, t]));
  // Tables deleted through DeleteTable stay deleted (given ones too), until made again.
  const deleted = new Set(saved.deleted);
  for (const key of deleted) tables.delete(key);
  for (const [key, t] of made) tables.set(key, t);
  const saveCatalog = () => writeCatalogFile(options.catalogFile, { tables: [...made.values()], deleted: [...deleted] });
  const info = (t: LakeTableSpec): TableInfo => ({
    database: t.database,
    name: t.name,
    timePartitioned: true,
    columns: t.columns.map((c) => ({ name: c.name, type: flowTypeOfHive(c.type) })),
  });
  const executions = new Map<string, Execution>();
  const tokens = new Map<string, string>();
  // The data files of each table as last listed for "bytes scanned" (by the glob DuckDB read them with).
  const tableFiles = new Map<string, TableFiles>();

  // The pool of connections, each set up to profile its queries into its own file (read for "bytes scanned").
  // They are made before the engine locks its configuration (local/services/athena/duckdb.ts), so there are
  // CONNECTIONS of them and no more: a query waits, QUEUED as on Athena, while every one is busy.
  const profileDir = mkdtempSync(join(PROFILE_DIR, 'caracal-athena-'));
  const idle: Pooled[] = [];
  const waiting: ((pooled: Pooled) => void)[] = [];
  const lake: LakeEngine = await openLake(options.lakeDir, {
    catalog: staticCatalog([...tables.values()].map(info)),
    objectSuffix: options.objectSuffix,
    allowedDirectories: [profileDir],
    prepare: async (engine) => {
      for (const macro of MACRO_DEFINITIONS) await engine.query(macro);
      for (let i = 0; i < CONNECTIONS; i++) {
        const connection = await engine.connect();
        if (i === 0) registerIpFunctions(connection);
        const profile = join(profileDir, `${i}.json`);
        await connection.run(`PRAGMA enable_profiling = 'json'`);
        await connection.run(`PRAGMA profiling_output = ${quoteString(profile)}`);
        // Only what scannedBytes reads (each operator's extra info: its files); no timings, memory or row counts.
        await connection.run(`SET custom_profiling_settings = '{"EXTRA_INFO": "true"}'`);
        idle.push({ connection, profile });
      }
    },
  });

  function acquire(): Promise<Pooled> | Pooled {
    return idle.pop() ?? new Promise<Pooled>((resolve) => waiting.push(resolve));
  }
  function release(pooled: Pooled): void {
    const next = waiting.shift();
    if (next) next(pooled);
    else idle.push(pooled);
  }

  async function run(exec: Execution): Promise<void> {
    const started = Date.now();
    let pooled: Pooled | undefined;
    try {
      if (!idle.length) exec.state = 'QUEUED';
      pooled = await acquire();
      if (exec.state === 'CANCELLED' || stopped) return;
      exec.state = 'RUNNING';
      exec.connection = pooled.connection;
      await lake.refresh();
      const reader = await pooled.connection.runAndReadAll(athenaToDuckdb(exec.sql));
      exec.bytesScanned = scannedBytes(pooled.profile, tableFiles);
      const names = reader.columnNames();
      const types = reader.columnTypes().map((t) => athenaType(t.toString()));
      exec.columns = names.map((name, i) => ({ name, type: types[i] }));
      exec.rows = reader.getRows().map((row) => row.map(text));
      if (exec.state === 'RUNNING') exec.state = 'SUCCEEDED';
    } catch (e) {
      if (exec.state === 'RUNNING') {
        exec.state = 'FAILED';
        exec.reason = (e as Error).message.split('\n')[0];
      }
    } finally {
      exec.completed = Math.max(Date.now(), started);
      exec.connection = undefined;
      // A connection whose query failed or was interrupted serves the next one (DuckDB clears its state).
      if (pooled) release(pooled);
      exec.finish();
    }
  }
  let stopped = false;

  const athena: Record<string, (body: Record<string, unknown>) => unknown | Promise<unknown>> = {
    StartQueryExecution(body) {
      const sql = body.QueryString;
      if (typeof sql !== 'string' || !sql.trim()) throw new AwsError('InvalidRequestException', 'QueryString is required');
      const token = typeof body.ClientRequestToken === 'string' ? body.ClientRequestToken : undefined;
      if (token && tokens.has(token)) return { QueryExecutionId: tokens.get(token) };
      const id = randomUUID();
      let finish!: () => void;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      const exec: Execution = {
        id,
        sql,
        workGroup: typeof body.WorkGroup === 'string' ? body.WorkGroup : 'primary',
        state: 'RUNNING',
        submitted: Date.now(),
        columns: [],
        rows: [],
        bytesScanned: 0,
        finished,
        finish,
      };
      executions.set(id, exec);
      if (token) tokens.set(token, id);
      while (executions.size > KEEP_EXECUTIONS) executions.delete(executions.keys().next().value!);
      void run(exec);
      return { QueryExecutionId: id };
    },
    async GetQueryExecution(body) {
      const exec = execution(body);
      if (exec.state === 'RUNNING' || exec.state === 'QUEUED') {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([exec.finished, new Promise<void>((r) => (timer = setTimeout(r, STATUS_HOLD_MS)))]);
        clearTimeout(timer);
      }
      return {
        QueryExecution: {
          QueryExecutionId: exec.id,
          Query: exec.sql,
          StatementType: 'DML',
          WorkGroup: exec.workGroup,
          Status: {
            State: exec.state,
            StateChangeReason: exec.reason,
            SubmissionDateTime: exec.submitted / 1000,
            CompletionDateTime: exec.completed === undefined ? undefined : exec.completed / 1000,
          },
          Statistics: {
            DataScannedInBytes: exec.bytesScanned,
            EngineExecutionTimeInMillis: (exec.completed ?? Date.now()) - exec.submitted,
            TotalExecutionTimeInMillis: (exec.completed ?? Date.now()) - exec.submitted,
          },
        },
      };
    },
    GetQueryRuntimeStatistics(body) {
      const exec = execution(body);
      return { QueryRuntimeStatistics: { Rows: { OutputRows: exec.state === 'SUCCEEDED' ? exec.rows.length : 0 } } };
    },
    GetQueryResults(body) {
      const exec = execution(body);
      if (exec.state !== 'SUCCEEDED')
        throw new AwsError('InvalidRequestException', `Query has not yet finished. Current state: ${exec.state}`);
      const max = body.MaxResults === undefined ? MAX_RESULTS : Number(body.MaxResults);
      if (!Number.isInteger(max) || max < 1 || max > MAX_RESULTS)
        throw new AwsError('InvalidRequestException', `MaxResults must be from 1 to ${MAX_RESULTS}`);
      let offset = 0;
      if (body.NextToken !== undefined) {
        const m = /^(\d+)\.([0-9a-f-]{36})$/.exec(Buffer.from(String(body.NextToken), 'base64url').toString('utf8'));
        if (!m || m[2] !== exec.id) throw new AwsError('InvalidRequestException', 'NextToken is not valid');
        offset = Number(m[1]);
      }
      const header = body.NextToken === undefined ? [exec.columns.map((c) => c.name)] : [];
      const rows = exec.rows.slice(offset, offset + max - header.length);
      const next = offset + rows.length;
      return {
        ResultSet: {
          Rows: [...header, ...rows].map((r) => ({ Data: r.map((v) => (v === null ? {} : { VarCharValue: v })) })),
          ResultSetMetadata: {
            ColumnInfo: exec.columns.map((c) => ({
              Name: c.name,
              Label: c.name,
              Type: c.type,
              CatalogName: 'hive',
              Nullable: 'UNKNOWN',
            })),
          },
        },
        UpdateCount: 0,
        NextToken: next < exec.rows.length ? Buffer.from(`${next}.${exec.id}`).toString('base64url') : undefined,
      };
    },
    StopQueryExecution(body) {
      const exec = execution(body);
      if (exec.state === 'RUNNING' || exec.state === 'QUEUED') {
        exec.state = 'CANCELLED';
        exec.reason = 'Query was cancelled by the user';
        exec.completed = Date.now();
        exec.connection?.interrupt();
        exec.finish();
      }
      return {};
    },
  };

  function execution(body: Record<string, unknown>): Execution {
    const exec = executions.get(String(body.QueryExecutionId));
    if (!exec) throw new AwsError('InvalidRequestException', `QueryExecution ${String(body.QueryExecutionId)} was not found`);
    return exec;
  }

  const glueTable = (t: CatalogEntry) => ({
    Name: t.name,
    DatabaseName: t.database,
    TableType: 'EXTERNAL_TABLE',
    Parameters: { ...t.parameters, 'caracal.logType': t.logType, 'projection.enabled': 'true' },
    PartitionKeys: PARTITION_KEYS.map((c) => ({ Name: c.name, Type: c.type })),
    StorageDescriptor: { Columns: t.columns.map((c) => ({ Name: c.name, Type: c.type, Comment: c.comment })) },
  });

  const database = (body: Record<string, unknown>) => {
    const name = String(body.DatabaseName ?? '');
    if (!DATABASES.includes(name)) throw new AwsError('EntityNotFoundException', `Database ${name} not found.`);
    return name;
  };

  const glue: Record<string, (body: Record<string, unknown>) => unknown | Promise<unknown>> = {
    GetDatabases: () => ({ DatabaseList: DATABASES.map((Name) => ({ Name })) }),
    GetTables(body) {
      const db = database(body);
      return { TableList: [...tables.values()].filter((t) => t.database === db).map(glueTable) };
    },
    GetTable(body) {
      const db = database(body);
      const t = tables.get(`${db}.${String(body.Name ?? '').toLowerCase()}`);
      if (!t) throw new AwsError('EntityNotFoundException', `Table ${String(body.Name)} not found.`);
      return { Table: glueTable(t) };
    },
    async CreateTable(body) {
      return putTable(body, false);
    },
    async UpdateTable(body) {
      return putTable(body, true);
    },
    async DeleteTable(body) {
      const db = database(body);
      const key = `${db}.${String(body.Name ?? '').toLowerCase()}`;
      if (!tables.has(key)) throw new AwsError('EntityNotFoundException', `Table ${String(body.Name)} not found.`);
      // The view goes; the lake's files stay (an external table's data is not Glue's).
      await lake.query(`DROP VIEW IF EXISTS "${db}"."${key.slice(db.length + 1)}"`);
      tables.delete(key);
      made.delete(key);
      deleted.add(key);
      saveCatalog();
      return {};
    },
  };

  async function putTable(body: Record<string, unknown>, update: boolean) {
    const db = database(body);
    const input = (body.TableInput ?? {}) as {
      Name?: string;
      Parameters?: Record<string, string>;
      StorageDescriptor?: { Columns?: { Name?: string; Type?: string }[] };
    };
    const name = String(input.Name ?? '').toLowerCase();
    if (!/^[a-z0-9_]{1,255}$/.test(name)) throw new AwsError('InvalidInputException', 'TableInput.Name is not valid');
    const exists = tables.has(`${db}.${name}`);
    if (update && !exists) throw new AwsError('EntityNotFoundException', `Table ${name} not found.`);
    if (!update && exists) throw new AwsError('AlreadyExistsException', `Table already exists.`);
    const spec: CatalogEntry = {
      database: db as LakeTableSpec['database'],
      name,
      logType: input.Parameters?.['caracal.logType'] ?? name,
      columns: (input.StorageDescriptor?.Columns ?? []).map((c) => ({ name: String(c.Name), type: String(c.Type ?? 'string') })),
      parameters: { ...input.Parameters },
    };
    // Only this table's view is made anew; the others (hundreds, one per log type and database) stay.
    await lake.register(info(spec));
    tables.set(`${db}.${name}`, spec);
    made.set(`${db}.${name}`, spec);
    deleted.delete(`${db}.${name}`);
    saveCatalog();
    return {};
  }

  const server = createServer((req, res) => void handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const target = String(req.headers['x-amz-target'] ?? '');
    const [service, operation] = target.split('.');
    const send = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };
    try {
      const received = await requestBody(req);
      const handler = service === 'AmazonAthena' ? athena[operation] : service === 'AWSGlue' ? glue[operation] : undefined;
      if (!handler) throw new AwsError('UnknownOperationException', `The stand-in does not serve ${target || 'this request'}`);
      const body = received.length ? (JSON.parse(received.toString('utf8')) as Record<string, unknown>) : {};
      send(200, (await handler(body)) ?? {});
    } catch (e) {
      if (e instanceof AwsError) send(e.status, { __type: e.type, message: e.message, Message: e.message });
      else send(500, { __type: 'InternalServerException', message: (e as Error).message });
    }
  }
  const endpoint = await listen(server);
  return {
    endpoint,
    running: () => [...executions.values()].filter((e) => e.connection !== undefined).length,
    async stop() {
      stopped = true;
      for (const exec of executions.values()) if (exec.state === 'RUNNING') exec.connection?.interrupt();
      await closeServer(server);
      for (const pooled of idle.splice(0)) pooled.connection.closeSync();
      lake.close();
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}

/** A request's body (read with events: an async iterator over the request costs more per call). */
function requestBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Athena's IP address functions, which DuckDB lacks offline (translate.ts IP_FUNCTIONS); NULL in, NULL out. */
function registerIpFunctions(connection: DuckDBConnection): void {
  connection.registerScalarFunction(
    DuckDBScalarFunction.create({
      name: IP_FUNCTIONS.address,
      returnType: VARCHAR,
      parameterTypes: [VARCHAR],
      mainFunction: (_info, input, output) => {
        const values = input.getColumnVector(0);
        for (let row = 0; row < input.rowCount; row++) {
          const v = values.getItem(row);
          output.setItem(row, typeof v === 'string' ? (ipAddressText(v) ?? null) : null);
        }
        output.flush();
      },
    }),
  );
  connection.registerScalarFunction(
    DuckDBScalarFunction.create({
      name: IP_FUNCTIONS.inCidr,
      returnType: BOOLEAN,
      parameterTypes: [VARCHAR, VARCHAR],
      mainFunction: (_info, input, output) => {
        const cidrs = input.getColumnVector(0);
        const addresses = input.getColumnVector(1);
        for (let row = 0; row < input.rowCount; row++) {
          const cidr = cidrs.getItem(row);
          const address = addresses.getItem(row);
          const inside = typeof cidr === 'string' && typeof address === 'string' ? ipInCidr(address, cidr) : undefined;
          output.setItem(row, inside ?? null);
        }
        output.flush();
      },
    }),
  );
}

/** A table of the stand-in's Glue catalog: its spec and, when made through Glue calls, its parameters. */
type CatalogEntry = LakeTableSpec & { readonly parameters?: Record<string, string> };

interface CatalogFile {
  readonly tables: CatalogEntry[];
  /** `database.table` of the tables deleted through DeleteTable. */
  readonly deleted: string[];
}

/** The tables made or deleted through Glue calls, kept by an earlier run (none when there is no file or it is unreadable). */
function readCatalogFile(file: string | undefined): CatalogFile {
  const none: CatalogFile = { tables: [], deleted: [] };
  if (!file || !existsSync(file)) return none;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<CatalogFile>;
    return {
      tables: (parsed.tables ?? []).filter(
        (t) => DATABASES.includes(t.database) && typeof t.name === 'string' && Array.isArray(t.columns),
      ),
      deleted: (parsed.deleted ?? []).filter((k) => typeof k === 'string'),
    };
  } catch {
    return none;
  }
}

function writeCatalogFile(file: string | undefined, catalog: CatalogFile): void {
  if (!file) return;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify(catalog));
  renameSync(`${file}.tmp`, file);
}

interface ProfileNode {
  extra_info?: Record<string, unknown>;
  children?: ProfileNode[];
}

/** A table's data files as last listed: how many there were and their total size. */
interface TableFiles {
  readonly count: number;
  readonly bytes: number;
}

/**
 * The stand-in's "bytes scanned": for every file scan of the query (DuckDB's profile), the sizes of the files
 * it read after partition pruning (named in the profile when pruned; otherwise the files read times the
 * average size of the table's data files). Athena counts the bytes of the objects it reads; gzip JSON is read
 * whole, so a file's size is what it costs (Parquet's column pruning is not counted). A table's listing is
 * kept (`tables`, by its glob) while DuckDB reads as many files as it holds, so an unchanged table is not
 * walked again for each query; a file more or fewer lists it anew.
 */
function scannedBytes(profileFile: string, tables: Map<string, TableFiles>): number {
  let profile: ProfileNode;
  try {
    profile = JSON.parse(readFileSync(profileFile, 'utf8')) as ProfileNode;
  } catch {
    return 0;
  }
  let total = 0;
  const walk = (node: ProfileNode) => {
    const info = node.extra_info ?? {};
    const read = Number(info['Total Files Read']);
    const glob = typeof info['Filename(s)'] === 'string' ? info['Filename(s)'] : '';
    if (read > 0 && glob && !glob.includes('*')) {
      // Pruned: DuckDB names the files it read.
      for (const file of glob.split(', ')) total += statSync(file, { throwIfNoEntry: false })?.size ?? 0;
    } else if (read > 0 && glob.includes('/year=*')) {
      // Not pruned: DuckDB names its glob (then ", ..."), and read every file it matches.
      const pattern = glob.split(', ')[0];
      let files = tables.get(pattern);
      if (files?.count !== read) tables.set(pattern, (files = globFiles(pattern)));
      if (files.count) total += Math.round((files.bytes / files.count) * Math.min(read, files.count));
    }
    for (const child of node.children ?? []) walk(child);
  };
  walk(profile);
  return total;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The files a table's glob matches (its folder, then `year=*`, `month=*`, `day=*`, `hour=*` and a file name
 * pattern, `*` within one name as in DuckDB): how many, and their total size.
 */
function globFiles(pattern: string): TableFiles {
  const root = pattern.split('/year=*')[0];
  const match = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('[^/]*')}$`);
  let count = 0;
  let bytes = 0;
  const stack = [root];
  while (stack.length) {
    const dir = stack.pop()!;
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) stack.push(path);
      else if (match.test(path)) {
        count += 1;
        bytes += statSync(path, { throwIfNoEntry: false })?.size ?? 0;
      }
    }
  }
  return { count, bytes };
}

/** DuckDB type text → the type name Athena reports in ColumnInfo. */
export function athenaType(duck: string): string {
  const t = duck.toUpperCase();
  if (t.endsWith('[]')) return 'array';
  if (t.startsWith('STRUCT')) return 'row';
  if (t.startsWith('MAP')) return 'map';
  if (t.startsWith('DECIMAL')) return 'decimal';
  if (t.startsWith('TIMESTAMP')) return 'timestamp';
  const names: Record<string, string> = {
    VARCHAR: 'varchar',
    BIGINT: 'bigint',
    HUGEINT: 'bigint',
    UBIGINT: 'bigint',
    INTEGER: 'integer',
    UINTEGER: 'bigint',
    SMALLINT: 'smallint',
    TINYINT: 'tinyint',
    DOUBLE: 'double',
    FLOAT: 'real',
    BOOLEAN: 'boolean',
    DATE: 'date',
    INTERVAL: 'interval day to second',
    JSON: 'json',
  };
  return names[t] ?? 'varchar';
}

/** A DuckDB value as the text Athena gives (arrays `[a, b]`, rows and maps `{k=v}`; null stays null). */
function text(v: DuckDBValue): string | null {
  if (v === null) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (
    v instanceof DuckDBListValue ||
    v instanceof DuckDBArrayValue ||
    v instanceof DuckDBStructValue ||
    v instanceof DuckDBMapValue
  )
    return athenaText(plain(v));
  return v.toString();
}
