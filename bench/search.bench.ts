// Search bench (`npm run bench -- search`). Over 1,000,000 generated CloudTrail-like events in 50 hourly
// partitions, once as gzip NDJSON and once as Parquet (generated into a temp folder, removed after): the search
// service's time for five typical queries — its Athena calls through @aws-sdk/client-athena to the local Athena
// stand-in, made as functions/lib/search makes them (start; wait as runSearch and then search(id) do, polling from
// 10 ms up to 250 ms apart; read the columns and row count; read every result page) — against the same SQL run
// directly in DuckDB on the same files, back to back (target within 1.3x: the median of each pair's ratio); and
// the time to the first page (100 rows) of a 1,000-row search (target under 1 s). Not counted: the search's
// DynamoDB record (history) and the GraphQL hop. The page adds no pause of its own: it polls search(id) again as
// soon as it answers (web/src/screens/Search/useSearchRun.ts), and the service holds that call while the query runs.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import { staticCatalog } from '../core/pantherflow/catalog';
import { flowTypeOfHive, type LakeTableSpec } from '../core/search/lake-tables';
import { openLake } from '../local/services/athena/duckdb';
import { startAthena } from '../local/services/athena';
import { athenaToDuckdb } from '../local/services/athena/translate';

const EVENTS = 1_000_000;
const HOURS = 50;
const PER_HOUR = EVENTS / HOURS;
const START = Date.UTC(2026, 10, 1, 0);
const RUNS = Number(process.env.RUNS ?? 21);

const TABLE: LakeTableSpec = {
  database: 'panther_logs',
  name: 'aws_cloudtrail',
  logType: 'AWS.CloudTrail',
  columns: [
    { name: 'p_event_time', type: 'timestamp' },
    { name: 'p_row_id', type: 'string' },
    { name: 'eventName', type: 'string' },
    { name: 'sourceIPAddress', type: 'string' },
    { name: 'bytes', type: 'bigint' },
    { name: 'userIdentity', type: 'struct<type:string,userName:string>' },
    { name: 'p_any_ip_addresses', type: 'array<string>' },
  ],
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function generate(dir: string, format: 'json' | 'parquet') {
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  for (let h = 0; h < HOURS; h++) {
    const t = new Date(START + h * 3_600_000);
    const from = t.toISOString().slice(0, 19).replace('T', ' ');
    const p = (n: number) => String(n).padStart(2, '0');
    const hourDir = join(
      dir,
      'panther_logs',
      'aws_cloudtrail',
      `year=${t.getUTCFullYear()}`,
      `month=${p(t.getUTCMonth() + 1)}`,
      `day=${p(t.getUTCDate())}`,
      `hour=${p(t.getUTCHours())}`,
    );
    mkdirSync(hourDir, { recursive: true });
    // NDJSON keeps the lake's timestamp text; Parquet a typed timestamp.
    const time = `TIMESTAMP '${from}' + to_milliseconds(i * (3600000 // ${PER_HOUR}))`;
    const select = `SELECT ${format === 'json' ? `strftime(${time}, '%Y-%m-%d %H:%M:%S.%g') || '000000'` : time} AS p_event_time,
        'r' || (${h * PER_HOUR} + i) AS p_row_id,
        ['GetObject', 'PutObject', 'ConsoleLogin', 'AssumeRole', 'ListBuckets'][1 + (i % 5)::INTEGER] AS eventName,
        '10.' || (i % 7) || '.' || ((i // 7) % 250) || '.' || (i % 200) AS sourceIPAddress,
        (i * 31) % 5000 AS bytes,
        struct_pack(type := 'IAMUser', userName := 'user' || (i % 40)) AS userIdentity,
        ['10.' || (i % 7) || '.' || ((i // 7) % 250) || '.' || (i % 200)] AS p_any_ip_addresses
      FROM range(${PER_HOUR}) r(i)`;
    const file = join(hourDir, format === 'json' ? 'events.json.gz' : 'events.parquet');
    await db.run(`COPY (${select}) TO '${file}' (FORMAT ${format}${format === 'json' ? ', COMPRESSION gzip' : ''})`);
  }
  db.closeSync();
}

// The five typical searches, as the search service writes them (user SQL with the range's filter).
const RANGE =
  "((year = 2026 AND month = 11 AND day = 1) OR (year = 2026 AND month = 11 AND day = 2) OR (year = 2026 AND month = 11 AND day = 3)) AND p_event_time BETWEEN TIMESTAMP '2026-11-01 00:00:00.000' AND TIMESTAMP '2026-11-03 23:59:59.999'";
const T = `(SELECT * FROM "panther_logs"."aws_cloudtrail" WHERE ${RANGE})`;
const QUERIES: [string, string][] = [
  ['count', `SELECT count(*) AS n FROM ${T} AS t`],
  ['by event name', `SELECT eventName, count(*) AS n FROM ${T} AS t GROUP BY eventName ORDER BY n DESC`],
  [
    'one IP, newest 100',
    `SELECT * FROM ${T} AS t WHERE contains(p_any_ip_addresses, '10.3.0.3') ORDER BY p_event_time DESC LIMIT 100`,
  ],
  [
    'top 10 users by bytes',
    `SELECT t.userIdentity.userName AS userName, sum(bytes) AS total FROM ${T} AS t GROUP BY 1 ORDER BY total DESC LIMIT 10`,
  ],
  ['events per hour', `SELECT date_trunc('hour', p_event_time) AS hour, count(*) AS n FROM ${T} AS t GROUP BY 1 ORDER BY 1`],
];
const FIRST_PAGE = `SELECT * FROM ${T} AS t WHERE eventName = 'ConsoleLogin' ORDER BY p_event_time DESC LIMIT 1000`;

async function bench(format: 'json' | 'parquet') {
  const dir = mkdtempSync(join(tmpdir(), `caracal-search-bench-${format}-`));
  try {
    const t0 = performance.now();
    console.log(
      `${format}: load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} on ${cpus().length} CPUs`,
    );
    await generate(dir, format);
    console.log(
      `${format}: generated ${EVENTS.toLocaleString('en')} events in ${HOURS} hourly partitions in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const athena = await startAthena({ lakeDir: dir, tables: [TABLE] });
    Object.assign(process.env, {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'bench',
      AWS_SECRET_ACCESS_KEY: 'bench',
      AWS_ENDPOINT_URL_ATHENA: athena.endpoint,
      ATHENA_WORKGROUP: 'bench',
    });
    const engine = await import('../functions/lib/lake');
    const service = await import('../functions/lib/search');
    const direct = await openLake(dir, {
      catalog: staticCatalog([
        {
          database: TABLE.database,
          name: TABLE.name,
          timePartitioned: true,
          columns: TABLE.columns.map((c) => ({ name: c.name, type: flowTypeOfHive(c.type) })),
        },
      ]),
    });
    // As the search service runs a search (functions/lib/search): start it and wait for it as runSearch does
    // (START_WAIT_MS), then as search(id) does (STATUS_WAIT_MS each), read its columns and row count as the
    // finished search records them (engine.queryShape), then its pages: StartQueryExecution, GetQueryExecution
    // (held by the stand-in until the query ends), GetQueryResults, then a GetQueryResults per page, where the
    // first page is answered from queryShape's read when it is that page (all its rows fit, or the same size).
    const viaService = async (sql: string, firstPageOnly = false) => {
      const id = await engine.startQuery(sql, `${Math.random()}`.slice(2));
      let s = await engine.awaitQuery(id, service.START_WAIT_MS);
      while (s.state === 'RUNNING' || s.state === 'QUEUED') s = await engine.awaitQuery(id, service.STATUS_WAIT_MS);
      if (s.state !== 'SUCCEEDED') throw new Error(`${s.state}: ${s.reason}`);
      // the finished search's columns and row count: one GetQueryResults (queryShape), GetQueryRuntimeStatistics
      // after it only when the rows do not fit its page; the engine keeps that first page for the read below
      await engine.queryShape(id);
      let page = await engine.queryResults(id, firstPageOnly ? 100 : 999);
      let rows = page.rows.length;
      while (!firstPageOnly && page.nextToken) {
        page = await engine.queryResults(id, 999, page.nextToken);
        rows += page.rows.length;
      }
      return rows;
    };
    const viaDuckdb = async (sql: string) => (await direct.query(athenaToDuckdb(sql))).length;
    for (const [name, sql] of QUERIES) {
      const service: number[] = [];
      const duck: number[] = [];
      let rows = 0;
      await viaService(sql);
      await viaDuckdb(sql);
      for (let i = 0; i < RUNS; i++) {
        let t = performance.now();
        rows = await viaService(sql);
        service.push(performance.now() - t);
        t = performance.now();
        const d = await viaDuckdb(sql);
        duck.push(performance.now() - t);
        if (d !== rows) throw new Error(`${name}: ${rows} rows through the service, ${d} in DuckDB`);
      }
      // The ratio is the median of each run's own ratio (the two measured back to back), steadier than a ratio of
      // medians on a shared machine whose load changes between runs.
      const ratio = median(service.map((s, i) => s / duck[i]));
      console.log(
        `${format} ${name.padEnd(22)} ${rows.toString().padStart(4)} rows: search path ${median(service).toFixed(1)} ms vs DuckDB ${median(duck).toFixed(1)} ms = ${ratio.toFixed(2)}x (target <= 1.3x)`,
      );
    }
    const firstPage: number[] = [];
    const whole: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let t = performance.now();
      await viaService(FIRST_PAGE, true);
      firstPage.push(performance.now() - t);
      t = performance.now();
      await viaDuckdb(FIRST_PAGE);
      whole.push(performance.now() - t);
    }
    console.log(
      `${format} first page (100 of 1,000 rows) of a search: ${median(firstPage).toFixed(1)} ms (target < 1000 ms); the whole query directly in DuckDB ${median(whole).toFixed(1)} ms`,
    );
    console.log(
      `${format}: load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} at the end`,
    );
    direct.close();
    await athena.stop();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Each format in its own process: the SDK client of the search path is made once per process, for one stand-in.
const format = process.argv[2];
if (format === 'json' || format === 'parquet') await bench(format);
else
  for (const f of ['json', 'parquet']) {
    const { spawnSync } = await import('node:child_process');
    const run = spawnSync(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, f], { stdio: 'inherit' });
    if (run.status !== 0) process.exitCode = 1;
  }
