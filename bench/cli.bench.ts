// The command-line tool (`npm run bench -- cli`), each figure a ratio to its floor measured in the same run:
//
// 1. Start-up: `caracal --version` through the launcher (the compiled build, bin/build.mjs) and through tsx
//    (what every call cost before), against `node -e 0`.
// 2. `caracal flow --data` over EVENTS (default 1,000,000) generated CloudTrail events in 50 hourly gzip NDJSON
//    partitions: each query's wall time (a process per call) against the same rows from hand-written DuckDB SQL
//    over the same files, also a fresh process per call (node + DuckDB, no CLI) — target within 1.2x each.
// 3. `caracal test` over a generated corpus (BEFORE=<checkout> adds that checkout's figure) (RULES rules x TESTS tests, default 500 x 7 = 3,500 tests, the
//    size of the public panther-analysis corpus) against a bare Python loop: one python3 process that compiles
//    the same rule files, builds the same events (the engine's PantherEvent) and calls rule() and title() for
//    every test, checking the expected results — target within 1.5x.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { resolvePython } from '../functions/detection-engine/worker-client';

const ROOT = resolve(import.meta.dirname, '..');
const LAUNCHER = join(ROOT, 'bin', 'caracal.mjs');
const ENGINE_DIR = join(ROOT, 'functions', 'detection-engine');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (n: number) => `${n.toFixed(0)} ms`;

function wall(command: string, args: string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}) {
  const start = performance.now();
  const r = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, ...options });
  const took = performance.now() - start;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${command} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms: took, stdout: r.stdout, stderr: r.stderr, status: r.status };
}

/** Alternating rounds of `a` and `b`; the median of each. */
function paired(rounds: number, a: () => number, b: () => number): [number, number] {
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < rounds; i++) {
    if (i % 2) {
      bs.push(b());
      as.push(a());
    } else {
      as.push(a());
      bs.push(b());
    }
  }
  return [median(as), median(bs)];
}

// ------------------------------------------------------------------------------------------------ 1. start-up

function startup() {
  // Make sure the build is current (the first call after an edit rebuilds it).
  wall(process.execPath, [LAUNCHER, '--version']);
  const rounds = 11;
  const [floor, compiled] = paired(
    rounds,
    () => wall(process.execPath, ['-e', '0']).ms,
    () => wall(process.execPath, [LAUNCHER, '--version']).ms,
  );
  const [, tsx] = paired(
    rounds,
    () => 0,
    () => wall(process.execPath, ['--import', 'tsx', join(ROOT, 'bin', 'caracal.ts'), '--version']).ms,
  );
  console.log(`start-up (median of ${rounds}): node -e 0 ${ms(floor)}`);
  console.log(`  caracal --version, compiled: ${ms(compiled)} — ${(compiled / floor).toFixed(2)}x node -e 0`);
  console.log(
    `  caracal --version, through tsx (before): ${ms(tsx)} — ${(tsx / floor).toFixed(2)}x node -e 0; compiled/tsx ${(compiled / tsx).toFixed(2)}x`,
  );
}

// ------------------------------------------------------------------------------------------------ 2. flow --data

const EVENTS = Number(process.env.EVENTS ?? 1_000_000);
const HOURS = 50;
const START = Date.UTC(2026, 10, 1, 0);

async function generateLake(dir: string) {
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  const perHour = Math.ceil(EVENTS / HOURS);
  for (let h = 0; h < HOURS; h++) {
    const t = new Date(START + h * 3_600_000);
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
    const from = t.toISOString().slice(0, 19).replace('T', ' ');
    await db.run(`COPY (SELECT
        strftime(TIMESTAMP '${from}' + to_milliseconds(i * (3600000 // ${perHour})), '%Y-%m-%d %H:%M:%S.%g') || '000000' AS p_event_time,
        'AWS.CloudTrail' AS p_log_type,
        'r' || (${h * perHour} + i) AS p_row_id,
        ['GetObject', 'PutObject', 'ConsoleLogin', 'AssumeRole', 'ListBuckets'][1 + (i % 5)::INTEGER] AS eventName,
        ['s3.amazonaws.com', 'signin.amazonaws.com', 'sts.amazonaws.com'][1 + (i % 3)::INTEGER] AS eventSource,
        ['us-east-1', 'eu-west-1', 'ap-south-1', 'us-west-2'][1 + (i % 4)::INTEGER] AS awsRegion,
        '10.' || (i % 7) || '.' || ((i // 7) % 250) || '.' || (i % 200) AS sourceIPAddress,
        'aws-cli/2.' || (i % 20) AS userAgent,
        i % 3 = 0 AS readOnly,
        CASE WHEN i % 50 = 0 THEN 'AccessDenied' END AS errorCode,
        struct_pack(type := CASE WHEN i % 100 = 0 THEN 'Root' ELSE 'IAMUser' END, userName := 'user' || (i % 40), arn := 'arn:aws:iam::123456789012:user/user' || (i % 40), accountId := '123456789012') AS userIdentity
      FROM range(${perHour}) r(i)) TO '${join(hourDir, 'events.json.gz')}' (FORMAT json, COMPRESSION gzip)`);
  }
  db.closeSync();
  instance.closeSync();
}

const GLOB = (dir: string, path = 'year=*/month=*/day=*/hour=*') => `${dir}/panther_logs/aws_cloudtrail/${path}/*.json.gz`;
const read = (dir: string, columns: string, path?: string) =>
  `read_json('${GLOB(dir, path)}', format = 'newline_delimited', hive_partitioning = true, hive_types = {'year': 'INTEGER', 'month': 'INTEGER', 'day': 'INTEGER', 'hour': 'INTEGER'}, columns = {${columns}})`;

/** PantherFlow and the SQL someone would write by hand for the same rows (only the columns it needs). */
function flowCases(dir: string): { name: string; flow: string; sql: string }[] {
  return [
    {
      name: 'filter, summarize, sort, limit',
      flow: "panther_logs.public.aws_cloudtrail | where eventName == 'GetObject' and awsRegion == 'eu-west-1' | summarize n = agg.count() by sourceIPAddress | sort n desc, sourceIPAddress asc | limit 10",
      sql: `SELECT sourceIPAddress, count(*) AS n FROM ${read(dir, "'eventName': 'VARCHAR', 'awsRegion': 'VARCHAR', 'sourceIPAddress': 'VARCHAR'")} WHERE eventName = 'GetObject' AND awsRegion = 'eu-west-1' GROUP BY sourceIPAddress ORDER BY n DESC, sourceIPAddress LIMIT 10`,
    },
    {
      name: 'time range, hourly counts',
      flow: "panther_logs.public.aws_cloudtrail | where p_event_time >= '2026-11-02 00:00:00' and p_event_time < '2026-11-02 06:00:00' | summarize n = agg.count() by h = time.trunc('hour', p_event_time) | sort h asc",
      sql: `SELECT date_trunc('hour', p_event_time) AS h, count(*) AS n FROM ${read(dir, "'p_event_time': 'TIMESTAMP'", 'year=2026/month=11/day=02/hour=0[0-5]')} WHERE p_event_time >= TIMESTAMP '2026-11-02 00:00:00' AND p_event_time < TIMESTAMP '2026-11-02 06:00:00' GROUP BY 1 ORDER BY h`,
    },
    {
      name: 'nested field, distinct count',
      flow: "panther_logs.public.aws_cloudtrail | where userIdentity.type == 'Root' | summarize users = agg.count_distinct(userIdentity.userName), ips = agg.count_distinct(sourceIPAddress)",
      sql: `SELECT count(DISTINCT userIdentity.userName) AS users, count(DISTINCT sourceIPAddress) AS ips FROM ${read(dir, "'userIdentity': 'STRUCT(type VARCHAR, userName VARCHAR)', 'sourceIPAddress': 'VARCHAR'")} WHERE userIdentity.type = 'Root'`,
    },
    {
      name: 'one hour, project, limit',
      flow: "panther_logs.public.aws_cloudtrail | where p_event_time >= '2026-11-01 10:00:00' and p_event_time < '2026-11-01 11:00:00' and errorCode == 'AccessDenied' | sort p_row_id asc | project p_row_id, eventName, sourceIPAddress | limit 100",
      sql: `SELECT p_row_id, eventName, sourceIPAddress FROM ${read(dir, "'p_event_time': 'TIMESTAMP', 'p_row_id': 'VARCHAR', 'eventName': 'VARCHAR', 'sourceIPAddress': 'VARCHAR', 'errorCode': 'VARCHAR'", 'year=2026/month=11/day=01/hour=10')} WHERE p_event_time >= TIMESTAMP '2026-11-01 10:00:00' AND p_event_time < TIMESTAMP '2026-11-01 11:00:00' AND errorCode = 'AccessDenied' ORDER BY p_row_id LIMIT 100`,
    },
  ];
}

/** The hand-written side: a plain node process running one SQL statement with DuckDB, rows as JSON lines. */
const HAND = `
import { DuckDBInstance } from '@duckdb/node-api';
const instance = await DuckDBInstance.create(':memory:');
const db = await instance.connect();
const reader = await db.runAndReadAll(process.argv[2]);
const rows = reader.getRowObjectsJson();
process.stdout.write(rows.map((r) => JSON.stringify(r)).join('\\n') + (rows.length ? '\\n' : ''));
db.closeSync();
instance.closeSync();
`;

async function flow() {
  const dir = mkdtempSync(join(tmpdir(), 'caracal-cli-bench-lake-'));
  const handScript = join(ROOT, 'node_modules', '.cache', `caracal-bench-hand-${process.pid}.mjs`);
  try {
    const t0 = performance.now();
    await generateLake(dir);
    writeFileSync(handScript, HAND);
    console.log(
      `caracal flow --data: ${EVENTS.toLocaleString('en')} CloudTrail events in ${HOURS} hourly gzip NDJSON partitions (generated in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
    );
    const ratios: number[] = [];
    for (const c of flowCases(dir)) {
      const viaFlow = () => wall(process.execPath, [LAUNCHER, 'flow', '--data', dir, c.flow]);
      const byHand = () => wall(process.execPath, [handScript, c.sql]);
      const a = viaFlow();
      const b = byHand();
      if (a.status !== 0) throw new Error(`${c.name}: caracal flow failed: ${a.stderr}`);
      if (!a.stdout.trim() || !b.stdout.trim())
        throw new Error(
          `${c.name}: no rows\nflow: ${a.stdout.slice(0, 300)} ${a.stderr}\nhand: ${b.stdout.slice(0, 300)} ${b.stderr}`,
        );
      const normal = (text: string) =>
        text
          .trim()
          .split('\n')
          .map((line) => JSON.stringify(Object.values(JSON.parse(line) as object).map(String)))
          .join('\n');
      if (normal(a.stdout) !== normal(b.stdout))
        throw new Error(`${c.name}: different rows\nflow: ${a.stdout.slice(0, 500)}\nhand: ${b.stdout.slice(0, 500)}`);
      const [flowMs, handMs] = paired(
        5,
        () => viaFlow().ms,
        () => byHand().ms,
      );
      ratios.push(flowMs / handMs);
      const before = process.env.BEFORE;
      if (before) {
        const oldMs = median(
          [0, 1, 2].map(() => {
            const r = wall(process.execPath, [
              '--import',
              'tsx',
              join(before, 'bin', 'caracal.ts'),
              'flow',
              '--data',
              dir,
              c.flow,
            ]);
            if (r.status !== 0) throw new Error(`${before}'s caracal flow failed: ${r.stderr}`);
            return r.ms;
          }),
        );
        console.log(`  ${c.name}: ${before}'s caracal flow ${ms(oldMs)} = ${(oldMs / handMs).toFixed(2)}x the hand-written SQL`);
      }
      console.log(
        `  ${c.name}: caracal flow ${ms(flowMs)} vs hand-written SQL ${ms(handMs)} = ${(flowMs / handMs).toFixed(2)}x (${a.stdout.trim().split('\n').length} rows)`,
      );
    }
    const worst = Math.max(...ratios);
    console.log(`  worst ${worst.toFixed(2)}x (target <= 1.2x each: ${worst <= 1.2 ? 'met' : 'NOT met'})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(handScript, { force: true });
  }
}

// ------------------------------------------------------------------------------------------------ 3. caracal test

const RULES = Number(process.env.RULES ?? 500);
const TESTS = Number(process.env.TESTS ?? 7);

/** A repository in the panther-analysis layout; each test's event also as JSON, for the bare loop. */
function corpus(dir: string) {
  mkdirSync(join(dir, 'rules'), { recursive: true });
  writeFileSync(join(dir, 'helpers.yml'), 'AnalysisType: global\nGlobalID: bench_helpers\nFilename: helpers.py\n');
  writeFileSync(
    join(dir, 'helpers.py'),
    'def is_risky(name):\n    return name.startswith("Delete") or name.startswith("Stop")\n',
  );
  const cases: { file: string; tests: { log: unknown; expected: boolean }[] }[] = [];
  for (let i = 0; i < RULES; i++) {
    const tests = Array.from({ length: TESTS }, (_, t) => {
      const risky = t % 2 === 0;
      const log = {
        eventName: `${risky ? 'Delete' : 'Get'}Thing${i}`,
        userIdentity: { type: t % 3 ? 'IAMUser' : 'Root', arn: `arn:aws:iam::123456789012:user/u${t}` },
        requestParameters: { items: [{ id: t }, { id: t + 1 }] },
        sourceIPAddress: `203.0.113.${(i + t) % 250}`,
      };
      return { log, expected: risky };
    });
    const yaml = `AnalysisType: rule\nRuleID: Bench.Rule${i}\nEnabled: true\nFilename: rule_${i}.py\nLogTypes: [AWS.CloudTrail]\nSeverity: Medium\nTests:\n${tests
      .map((t, n) => `  - Name: case ${n}\n    ExpectedResult: ${t.expected}\n    Log: ${JSON.stringify(t.log)}\n`)
      .join('')}`;
    writeFileSync(join(dir, 'rules', `rule_${i}.yml`), yaml);
    writeFileSync(
      join(dir, 'rules', `rule_${i}.py`),
      `from bench_helpers import is_risky\n\n\ndef rule(event):\n    return is_risky(event.get("eventName", "")) and event.deep_get("userIdentity", "arn") is not None\n\n\ndef title(event):\n    return f"{event.deep_get('userIdentity', 'arn')} ran {event.get('eventName')} ({event.deep_walk('requestParameters', 'items', 'id')})"\n`,
    );
    cases.push({ file: join(dir, 'rules', `rule_${i}.py`), tests });
  }
  writeFileSync(join(dir, 'cases.json'), JSON.stringify(cases));
}

/** The floor: compile each rule file, build each test's event, call rule() (and title() on a match). */
const BARE = String.raw`
import json, sys, types
sys.path.insert(0, sys.argv[1])
from caracal_engine.event import PantherEvent
helpers = types.ModuleType("bench_helpers")
exec(compile(open(sys.argv[2] + "/helpers.py").read(), "helpers.py", "exec"), helpers.__dict__)
sys.modules["bench_helpers"] = helpers
cases = json.load(open(sys.argv[2] + "/cases.json"))
passed = failed = 0
for case in cases:
    module = types.ModuleType("rule")
    exec(compile(open(case["file"]).read(), case["file"], "exec"), module.__dict__)
    for test in case["tests"]:
        event = PantherEvent(test["log"])
        matched = bool(module.rule(event))
        if matched:
            module.title(event)
        if matched == test["expected"]:
            passed += 1
        else:
            failed += 1
print(f"{passed} passed, {failed} failed")
`;

function unitTests() {
  const dir = mkdtempSync(join(tmpdir(), 'caracal-cli-bench-corpus-'));
  try {
    corpus(dir);
    const bareScript = join(dir, 'bare.py');
    writeFileSync(bareScript, BARE);
    const total = RULES * TESTS;
    const python = resolvePython();
    const bare = () => {
      // The interpreter `caracal test` runs (a pyenv shim's version, without the shim's ~50 ms of shell scripts).
      const r = wall(
        python.command,
        [bareScript, ENGINE_DIR, dir],
        python.path ? { env: { ...process.env, PATH: python.path } } : {},
      );
      if (!r.stdout.includes(`${total} passed, 0 failed`)) throw new Error(`bare loop: ${r.stdout} ${r.stderr}`);
      return r.ms;
    };
    const cli = (workers: number) => () => {
      const r = wall(process.execPath, [LAUNCHER, 'test', dir, '--workers', String(workers)]);
      if (!r.stdout.includes(`${total} passed, 0 failed`)) throw new Error(`caracal test: ${r.stdout.slice(-2000)} ${r.stderr}`);
      return r.ms;
    };
    // BEFORE=<another checkout>: that checkout's `caracal test` in the same rounds (its compiled launcher when it
    // has one, else through tsx, as it ran then).
    const before = process.env.BEFORE;
    const beforeCli = before
      ? existsSync(join(before, 'bin', 'caracal.mjs'))
        ? [join(before, 'bin', 'caracal.mjs')]
        : ['--import', 'tsx', join(before, 'bin', 'caracal.ts')]
      : [];
    const old = () => {
      const r = wall(process.execPath, [...beforeCli, 'test', dir, '--workers', '1']);
      if (!r.stdout.includes(`${total} passed, 0 failed`)) throw new Error(`${before}'s caracal test: ${r.stdout.slice(-2000)}`);
      return r.ms;
    };
    cli(1)(); // warm the bytecode cache and the build
    if (before) old();
    // Each round runs every side once (in a rotating order) and each side's figure is the median of its per-round
    // ratios to that round's floor: the load of a shared machine swings within seconds, and a median of wall
    // times taken in different phases compares different machines.
    const sides: { name: string; run: () => number }[] = [
      { name: 'one', run: cli(1) },
      { name: 'two', run: cli(2) },
      ...(before ? [{ name: 'before', run: old }] : []),
    ];
    const ROUNDS = Number(process.env.TEST_ROUNDS ?? 5);
    const walls: Record<string, number[]> = { floor: [] };
    const ratios: Record<string, number[]> = {};
    for (let round = 0; round < ROUNDS; round++) {
      const order = [{ name: 'floor', run: bare }, ...sides];
      const rotated = [...order.slice(round % order.length), ...order.slice(0, round % order.length)];
      const took: Record<string, number> = {};
      for (const side of rotated) took[side.name] = side.run();
      walls.floor.push(took.floor);
      for (const side of sides) {
        (walls[side.name] ??= []).push(took[side.name]);
        (ratios[side.name] ??= []).push(took[side.name] / took.floor);
      }
    }
    const figure = (name: string) => `${ms(median(walls[name]))} — ${median(ratios[name]).toFixed(2)}x the floor`;
    console.log(
      `caracal test over ${RULES} rules x ${TESTS} tests (${total.toLocaleString('en')} tests), ${ROUNDS} rounds: median wall time, median of per-round ratios:`,
    );
    console.log(
      `  bare Python loop (the floor: python3 start, compile the rules, build the events, call rule/title): ${ms(median(walls.floor))}`,
    );
    const one = median(ratios.one);
    console.log(`  caracal test, one worker:  ${figure('one')} (target <= 1.5x: ${one <= 1.5 ? 'met' : 'NOT met'})`);
    console.log(`  caracal test, two workers: ${figure('two')}`);
    if (before) console.log(`  ${before}'s caracal test, one worker: ${figure('before')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const only = process.env.ONLY;
if (!only || only === 'startup') startup();
if (!only || only === 'test') unitTests();
if (!only || only === 'flow') await flow();
