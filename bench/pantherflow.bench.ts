// PantherFlow benchmarks. (1) Compile time of a 20-operator query (target under 5 ms), and its ratio to parsing
// alone. (2) Run time in DuckDB of compiled PantherFlow against hand-written SQL giving the same rows, over
// 1,000,000 generated events, measured alternately in the same run (target: within 1.2x). (3) Partition
// pruning: a one-hour query over a 48-hour gzip NDJSON lake, against the same filter without partitions.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import { compile } from '../core/pantherflow/compiler';
import { parse } from '../core/pantherflow/parser';
import { staticCatalog } from '../core/pantherflow/catalog';
import { parseType } from '../core/pantherflow/types';
import { openLake } from '../local/services/athena/duckdb';

const catalog = staticCatalog([
  {
    database: 'panther_logs',
    name: 'aws_cloudtrail',
    timePartitioned: true,
    columns: [
      ['p_event_time', 'timestamp'],
      ['eventName', 'string'],
      ['sourceIPAddress', 'string'],
      ['bytes', 'int'],
      ['userIdentity', 'object<type:string, userName:string>'],
    ].map(([name, type]) => ({ name, type: parseType(type) })),
  },
]);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

// (1) compile time
const TWENTY = `panther_logs.public.aws_cloudtrail
| where p_event_time > time.ago(7d)
| where eventName in ('GetObject', 'PutObject', 'ConsoleLogin')
| extend kb = bytes / 1024
| extend user = strings.lower(userIdentity.userName)
| where strings.starts_with(sourceIPAddress, '10.')
| extend hour = time.trunc('hour', p_event_time)
| project p_event_time, eventName, sourceIPAddress, kb, user, hour, bytes
| where kb > 1
| extend big = kb > 50
| search 'alice'
| extend subnet = re.extract(sourceIPAddress, '^([0-9]+[.][0-9]+)', 1)
| where not (user == 'bob')
| sort p_event_time desc
| limit 100000
| extend size = math.round(kb, 1)
| summarize n = agg.count(), total = agg.sum(bytes), users = agg.make_set(user) by subnet, hour
| where n > 1
| extend share = total / n
| sort share desc
| limit 20`;
const ops = TWENTY.split('\n').filter((l) => l.startsWith('|')).length;
const compileOnce = () => {
  const r = compile(TWENTY, { catalog, dialect: 'duckdb', now: '2024-05-08T00:00:00Z' });
  if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('; '));
};
for (let i = 0; i < 300; i++) {
  compileOnce();
  parse(TWENTY);
}
const compileTimes: number[] = [];
const parseTimes: number[] = [];
for (let i = 0; i < 500; i++) {
  let t = performance.now();
  compileOnce();
  compileTimes.push(performance.now() - t);
  t = performance.now();
  parse(TWENTY);
  parseTimes.push(performance.now() - t);
}
const compileMs = median(compileTimes);
console.log(
  `compile ${ops}-operator query: median ${compileMs.toFixed(3)} ms (target < 5 ms: ${compileMs < 5 ? 'met' : 'NOT met'}), ${(compileMs / 5).toFixed(3)}x of the 5 ms budget`,
);
console.log(
  `compile / parse-only ratio: ${(compileMs / median(parseTimes)).toFixed(2)}x (parse median ${median(parseTimes).toFixed(3)} ms)`,
);

// (2) PantherFlow vs hand-written SQL over 1,000,000 events
const instance = await DuckDBInstance.create(':memory:');
const db = await instance.connect();
await db.run('CREATE SCHEMA panther_logs');
await db.run(`CREATE TABLE panther_logs.aws_cloudtrail AS
  SELECT ts AS p_event_time,
    ['ConsoleLogin', 'GetObject', 'PutObject', 'AssumeRole', 'DeleteTrail'][1 + (i % 5)::INTEGER] AS eventName,
    '10.' || (i % 7)::VARCHAR || '.' || (i % 200)::VARCHAR || '.' || (i % 50)::VARCHAR AS sourceIPAddress,
    (i * 7919) % 100000 AS bytes,
    struct_pack(type := CASE WHEN i % 100 = 0 THEN 'Root' ELSE 'IAMUser' END, userName := ['alice', 'bob', 'carol', 'dave'][1 + (i % 4)::INTEGER]) AS userIdentity,
    year(ts)::INTEGER AS year, month(ts)::INTEGER AS month, day(ts)::INTEGER AS day, hour(ts)::INTEGER AS hour
  FROM (SELECT i, TIMESTAMP '2024-05-01 00:00:00' + to_milliseconds(i * 600) AS ts FROM range(1000000) t(i))`);

const cases: { name: string; flow: string; sql: string }[] = [
  {
    name: 'filter, summarize, sort, limit',
    flow: "panther_logs.public.aws_cloudtrail | where eventName == 'GetObject' and bytes > 1000 | summarize n = agg.count(), total = agg.sum(bytes) by sourceIPAddress | sort n, sourceIPAddress asc | limit 10",
    sql: `SELECT sourceIPAddress, count(*) AS n, sum(bytes) AS total FROM panther_logs.aws_cloudtrail WHERE eventName = 'GetObject' AND bytes > 1000 GROUP BY sourceIPAddress ORDER BY n DESC, sourceIPAddress LIMIT 10`,
  },
  {
    name: 'extend, where, project, summarize',
    flow: 'panther_logs.public.aws_cloudtrail | extend kb = bytes / 1024 | where kb > 50 | project eventName, kb | summarize avg_kb = agg.avg(kb) by eventName | sort eventName asc',
    sql: 'SELECT eventName, avg(bytes / 1024) AS avg_kb FROM panther_logs.aws_cloudtrail WHERE bytes / 1024 > 50 GROUP BY eventName ORDER BY eventName',
  },
  {
    name: 'time filter with partitions, hourly counts',
    flow: "panther_logs.public.aws_cloudtrail | where p_event_time >= '2024-05-03 00:00:00' and p_event_time < '2024-05-04 00:00:00' | summarize n = agg.count() by h = time.trunc('hour', p_event_time) | sort h asc",
    sql: "SELECT date_trunc('hour', p_event_time) AS h, count(*) AS n FROM panther_logs.aws_cloudtrail WHERE year = 2024 AND month = 5 AND day = 3 AND p_event_time >= TIMESTAMP '2024-05-03 00:00:00' AND p_event_time < TIMESTAMP '2024-05-04 00:00:00' GROUP BY 1 ORDER BY h",
  },
  {
    name: 'nested field, distinct count',
    flow: "panther_logs.public.aws_cloudtrail | where userIdentity.type == 'Root' | summarize users = agg.count_distinct(userIdentity.userName), ips = agg.count_distinct(sourceIPAddress)",
    sql: "SELECT count(DISTINCT userIdentity.userName) AS users, count(DISTINCT sourceIPAddress) AS ips FROM panther_logs.aws_cloudtrail WHERE userIdentity.type = 'Root'",
  },
];

const ratios: number[] = [];
for (const c of cases) {
  const compiled = compile(c.flow, { catalog, dialect: 'duckdb', now: '2024-05-08T00:00:00Z' });
  if (!compiled.ok) throw new Error(`${c.name}: ${compiled.diagnostics.map((d) => d.message).join('; ')}`);
  const run = async (sql: string) => {
    const t = performance.now();
    const r = await db.runAndReadAll(sql);
    return { ms: performance.now() - t, rows: JSON.stringify(r.getRowsJson()) };
  };
  const a = await run(compiled.query.sql);
  const b = await run(c.sql);
  if (a.rows !== b.rows) throw new Error(`${c.name}: PantherFlow and hand-written SQL give different rows`);
  const flowMs: number[] = [];
  const handMs: number[] = [];
  for (let i = 0; i < 9; i++) {
    flowMs.push((await run(compiled.query.sql)).ms);
    handMs.push((await run(c.sql)).ms);
  }
  const ratio = median(flowMs) / median(handMs);
  ratios.push(ratio);
  console.log(
    `${c.name}: PantherFlow ${median(flowMs).toFixed(1)} ms vs hand-written ${median(handMs).toFixed(1)} ms = ${ratio.toFixed(2)}x`,
  );
}
const geo = Math.exp(ratios.reduce((s, r) => s + Math.log(r), 0) / ratios.length);
console.log(
  `PantherFlow / hand-written SQL over 1,000,000 events: geometric mean ${geo.toFixed(2)}x, worst ${Math.max(...ratios).toFixed(2)}x (target <= 1.2x: ${Math.max(...ratios) <= 1.2 ? 'met' : 'NOT met'})`,
);
db.closeSync();
instance.closeSync();

// (3) partition pruning over files in the lake layout
const lakeDir = mkdtempSync(join(tmpdir(), 'caracal-bench-lake-'));
try {
  const writer = await DuckDBInstance.create(':memory:');
  const w = await writer.connect();
  const start = Date.UTC(2024, 4, 1);
  for (let h = 0; h < 48; h++) {
    const t = new Date(start + h * 3_600_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    const hourDir = join(
      lakeDir,
      'panther_logs',
      'aws_cloudtrail',
      `year=${t.getUTCFullYear()}`,
      `month=${pad(t.getUTCMonth() + 1)}`,
      `day=${pad(t.getUTCDate())}`,
      `hour=${pad(t.getUTCHours())}`,
    );
    mkdirSync(hourDir, { recursive: true });
    const from = t.toISOString().slice(0, 19).replace('T', ' ');
    await w.run(
      `COPY (SELECT strftime(TIMESTAMP '${from}' + to_milliseconds(i * 720), '%Y-%m-%d %H:%M:%S.%g') AS p_event_time, ['GetObject', 'PutObject'][1 + (i % 2)::INTEGER] AS eventName, (i * 31) % 5000 AS bytes FROM range(5000) r(i)) TO '${join(hourDir, 'events.json.gz')}' (FORMAT json, COMPRESSION gzip)`,
    );
  }
  w.closeSync();
  writer.closeSync();
  const lake = await openLake(lakeDir);
  const pruned = compile(
    "panther_logs.public.aws_cloudtrail | where p_event_time >= '2024-05-02 06:00:00' and p_event_time < '2024-05-02 07:00:00' | summarize n = agg.count(), b = agg.sum(bytes)",
    { catalog: lake.catalog, dialect: 'duckdb' },
  );
  if (!pruned.ok) throw new Error(pruned.diagnostics.map((d) => d.message).join('; '));
  const unpruned = `SELECT count(*) AS n, sum(bytes) AS b FROM panther_logs.aws_cloudtrail WHERE p_event_time >= TIMESTAMP '2024-05-02 06:00:00' AND p_event_time < TIMESTAMP '2024-05-02 07:00:00'`;
  const time = async (sql: string) => {
    const t = performance.now();
    const rows = await lake.query(sql);
    return { ms: performance.now() - t, rows: JSON.stringify(rows) };
  };
  if ((await time(pruned.query.sql)).rows !== (await time(unpruned)).rows)
    throw new Error('pruned and unpruned queries disagree');
  const prunedMs: number[] = [];
  const fullMs: number[] = [];
  for (let i = 0; i < 5; i++) {
    prunedMs.push((await time(pruned.query.sql)).ms);
    fullMs.push((await time(unpruned)).ms);
  }
  lake.close();
  console.log(
    `partition pruning, 1 of 48 hourly gzip NDJSON partitions (240,000 events): PantherFlow ${median(prunedMs).toFixed(1)} ms vs the same filter without partition predicates ${median(fullMs).toFixed(1)} ms = ${(median(prunedMs) / median(fullMs)).toFixed(3)}x`,
  );
} finally {
  rmSync(lakeDir, { recursive: true, force: true });
}
