// `caracal flow [--sql duckdb|athena] [--data DIR] [--from T --to T] [--now T] 'QUERY'`: compiles a PantherFlow
// query and runs it with the embedded DuckDB engine over the lake under DIR, printing one JSON object per row.
import { compile } from '../../core/pantherflow/compiler';
import { DIALECTS, type DialectName } from '../../core/pantherflow/dialect';
import { LineIndex } from '../../core/pantherflow/position';
import type { Diagnostic } from '../../core/pantherflow/diagnostic';
import { openLake } from '../../functions/lib/lake/duckdb';

const USAGE = `usage: caracal flow [--sql duckdb|athena] [--data DIR] [--from TIME --to TIME] [--now TIME] 'QUERY'

Compiles a PantherFlow query and runs it with the embedded DuckDB engine, printing one JSON object per row.
  --sql DIALECT   print the SQL for duckdb or athena instead of running the query
  --data DIR      the lake: DIR/<db>/<table>/year=YYYY/month=MM/day=DD/hour=HH/*.json.gz (or .json, .parquet)
  --from, --to    the time range applied to tables the query gives no p_event_time filter
  --now TIME      the time time.now() and time.ago() count from (default: the current time)
A chart (visualize) is described on stderr as '# visualize {...}'.`;

interface Options {
  sql?: DialectName;
  data?: string;
  from?: string;
  to?: string;
  now?: string;
  query?: string;
}

function parseArgs(argv: string[]): Options | string {
  const o: Options = {};
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
  let lake;
  try {
    lake = await openLake(o.data);
  } catch (e) {
    process.stderr.write(`caracal flow: ${(e as Error).message}\n`);
    return 1;
  }
  try {
    const query = o.query!;
    const result = compile(query, {
      catalog: lake.catalog,
      dialect: o.sql ?? 'duckdb',
      ...(o.from && o.to ? { timeRange: { from: o.from, to: o.to } } : {}),
      ...(o.now ? { now: o.now } : {}),
    });
    if (!result.ok) {
      for (const d of result.diagnostics) process.stderr.write(formatDiagnostic(query, d) + '\n');
      if (!o.data && result.diagnostics.some((d) => d.message.startsWith('unknown table'))) {
        process.stderr.write('hint: no lake given; pass --data DIR to read tables (datatable and range need none)\n');
      }
      return 1;
    }
    if (o.sql) {
      process.stdout.write(result.query.sql + '\n');
      return 0;
    }
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
