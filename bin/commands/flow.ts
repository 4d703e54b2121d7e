// `caracal flow [--sql duckdb|athena] [--data DIR] [--schema FILE.yml] [--from T --to T] [--now T] 'QUERY'`:
// compiles a PantherFlow query and runs it with the embedded DuckDB engine over the lake under DIR, printing one
// JSON object per row. Tables and their columns come from the schemas (the managed log types and any --schema
// files), as the search page's and Glue's catalog does: no data file is read to learn them, and only the tables
// the query names are opened.
import { quoteName } from '../../core/lake/sql-text';
import { readFileSync } from 'node:fs';
import { staticCatalog, type Catalog, type ColumnInfo, type TableInfo } from '../../core/pantherflow/catalog';
import { LOGS_DATABASE, RULE_ERRORS_DATABASE, SIGNALS_DATABASE, tableName } from '../../core/lake/layout';
import { compile } from '../../core/pantherflow/compiler';
import { flowTypeOfHive, lakeColumns } from '../../core/search/lake-tables';
import { managedSchema, managedSchemaNames } from '../../core/schemas/managed-schemas';
import type { SchemaSpec } from '../../core/schemas/types';
import { DIALECTS, type DialectName } from '../../core/pantherflow/dialect';
import { LineIndex } from '../../core/pantherflow/position';
import type { Diagnostic } from '../../core/pantherflow/diagnostic';
import { openLake } from '../../local/services/athena/duckdb';

const USAGE = `usage: caracal flow [--sql duckdb|athena] [--data DIR] [--schema FILE.yml] [--from TIME --to TIME] [--now TIME] 'QUERY'

Compiles a PantherFlow query and runs it with the embedded DuckDB engine, printing one JSON object per row.
  --sql DIALECT   print the SQL for duckdb or athena instead of running the query
  --data DIR      the lake: DIR/<db>/<table>/year=YYYY/month=MM/day=DD/hour=HH/*.json.gz (or .json, .parquet)
  --schema FILE   a custom log type's schema (repeatable): its tables join the managed log types' ones; the
                  tables' columns come from these schemas, never from the data
  --from, --to    the time range applied to tables the query gives no p_event_time filter
  --now TIME      the time time.now() and time.ago() count from (default: the current time)
A chart (visualize) is described on stderr as '# visualize {...}'.`;

interface Options {
  sql?: DialectName;
  data?: string;
  schemas: string[];
  from?: string;
  to?: string;
  now?: string;
  query?: string;
}

function parseArgs(argv: string[]): Options | string {
  const o: Options = { schemas: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    try {
      if (a === '--sql') {
        const d = value();
        if (!(DIALECTS as readonly string[]).includes(d)) return `--sql must be one of ${DIALECTS.join(', ')}`;
        o.sql = d as DialectName;
      } else if (a === '--data') o.data = value();
      else if (a === '--schema') o.schemas.push(value());
      else if (a === '--from') o.from = value();
      else if (a === '--to') o.to = value();
      else if (a === '--now') o.now = value();
      else if (a.startsWith('--')) return `unknown option ${a}`;
      else if (o.query !== undefined) return 'give the query as one argument (quote it)';
      else o.query = a;
    } catch (e) {
      return (e as Error).message;
    }
  }
  if (o.query === undefined) return 'missing the query';
  if ((o.from === undefined) !== (o.to === undefined)) return '--from and --to go together';
  return o;
}

function validTime(t: string | undefined): boolean {
  return t === undefined || !Number.isNaN(Date.parse(t));
}

/** A custom schema file, or the reason it cannot be used. The YAML reader loads only when one is given. */
async function readSchema(path: string): Promise<SchemaSpec | string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return `cannot read ${path}: ${(e as Error).message}`;
  }
  const { loadSchemaYaml } = await import('../../core/schemas/yaml');
  const result = loadSchemaYaml(text);
  if (!result.ok)
    return `${path} is not a valid schema: ${result.problems.map((p) => `${p.path || '(schema)'}: ${p.message}`).join('; ')}`;
  return result.spec;
}

/**
 * The lake's tables as the schemas give them (Glue's catalog): one per log type in each lake database. A table's
 * columns are worked out when the query first looks at them, so only the schemas it reads are parsed.
 */
export function schemaCatalog(custom: readonly SchemaSpec[] = []): Catalog {
  const customs = new Map(custom.map((s) => [s.schema, s]));
  const logTypes = [...managedSchemaNames().filter((n) => !customs.has(n)), ...customs.keys()];
  const tables: TableInfo[] = [];
  for (const database of [LOGS_DATABASE, SIGNALS_DATABASE, RULE_ERRORS_DATABASE] as const) {
    for (const logType of logTypes) {
      let columns: ColumnInfo[] | undefined;
      tables.push({
        database,
        name: tableName(logType),
        timePartitioned: true,
        get columns() {
          columns ??= lakeColumns(customs.get(logType) ?? managedSchema(logType)!, database).map((c) => ({
            name: c.name,
            type: flowTypeOfHive(c.type),
          }));
          return columns;
        },
      });
    }
  }
  return staticCatalog(tables);
}

/** The catalog's tables that compiled SQL reads. */
function tablesIn(catalog: Catalog, sql: string): TableInfo[] {
  return catalog.tables().filter((t) => sql.includes(`${quoteName(t.database)}.${quoteName(t.name)}`));
}

export function formatDiagnostic(query: string, d: Diagnostic): string {
  const p = new LineIndex(query).position(d.start);
  return `error: line ${p.line + 1}, column ${p.character + 1}: ${d.message}`;
}

export async function run(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  const o = parseArgs(argv);
  if (typeof o === 'string') {
    process.stderr.write(`caracal flow: ${o}\n${USAGE}\n`);
    return 2;
  }
  if (![o.from, o.to, o.now].every(validTime)) {
    process.stderr.write('caracal flow: --from, --to and --now take timestamps such as 2024-05-01T00:00:00Z\n');
    return 2;
  }
  const custom: SchemaSpec[] = [];
  for (const path of o.schemas) {
    const schema = await readSchema(path);
    if (typeof schema === 'string') {
      process.stderr.write(`caracal flow: ${schema}\n`);
      return 2;
    }
    custom.push(schema);
  }
  // Without a lake there are no tables to run over, but the SQL for one can still be printed.
  const catalog = o.data !== undefined || o.sql ? schemaCatalog(custom) : staticCatalog([]);
  const query = o.query!;
  const result = compile(query, {
    catalog,
    dialect: o.sql ?? 'duckdb',
    ...(o.from && o.to ? { timeRange: { from: o.from, to: o.to } } : {}),
    ...(o.now ? { now: o.now } : {}),
  });
  if (!result.ok) {
    for (const d of result.diagnostics) process.stderr.write(formatDiagnostic(query, d) + '\n');
    if (o.data === undefined && result.diagnostics.some((d) => d.message.startsWith('unknown table'))) {
      process.stderr.write('hint: no lake given; pass --data DIR to read tables (datatable and range need none)\n');
    } else if (result.diagnostics.some((d) => d.message.startsWith('unknown table'))) {
      process.stderr.write("hint: a table comes from a log type's schema; pass --schema FILE.yml for a custom log type\n");
    }
    return 1;
  }
  if (o.sql) {
    process.stdout.write(result.query.sql + '\n');
    return 0;
  }
  let lake;
  try {
    lake = await openLake(o.data, { catalog: staticCatalog(tablesIn(catalog, result.query.sql)) });
  } catch (e) {
    process.stderr.write(`caracal flow: ${(e as Error).message}\n`);
    return 1;
  }
  try {
    const rows = await lake.query(result.query.sql);
    if (result.query.visualization) process.stderr.write(`# visualize ${JSON.stringify(result.query.visualization)}\n`);
    process.stdout.write(rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : ''));
    return 0;
  } catch (e) {
    process.stderr.write(`caracal flow: query failed: ${(e as Error).message}\n`);
    return 1;
  } finally {
    lake.close();
  }
}
