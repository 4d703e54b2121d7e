// Runs: the scheduler's overhead per due detection (a pass over 500 due detections on dynalite: the Query,
// a conditional claim per detection and an in-memory send, per detection, as a ratio to reading the same
// 500 with the one Query alone), and one correlation evaluation over 100,000 signals (the evaluator's time apart from reading them), for
// a joined sequence with a time frame, a sequence with an absent step, a MinMatchCount sequence and a
// group with MatchCriteria. Figures: median of repeated evaluations and its ratio to a baseline measured in
// the same run (sorting the same signals by time and bucketing them by rule: the least any evaluator does),
// so the figures compare across machines. Last, a scheduled query's run apart from its query and the engine
// (10,000 result rows through grouping, dedup and alert writes on dynalite, 100 matches in 10 dedup groups),
// as a ratio to the same run with no rows (the fixed cost: reading the query and its rules, the run record).
import { evaluateCorrelation, type Signal } from '../core/correlation';
import { parseCorrelationBody } from '../core/detections';
import type { Engine } from '../functions/lib/detections';
import { scheduledRulesFor } from '../functions/lib/detections/content';
import { saveDetection } from '../functions/lib/detections/repository';
import { dueRuns, putScheduledRun } from '../functions/lib/detections';
import { executeRun, schedulerPass, type QueryRunner } from '../functions/lib/runs';
import { startAlertChanges } from '../tests/functions/alerts/alert-changes';
import { startEntityTable } from '../tests/functions/alerts/entity-table';

const COUNT = 100_000;
const SAMPLES = 7;
const START = Date.UTC(2026, 0, 1);
const schedule = { RateMinutes: 60, TimeoutMinutes: 5 };

// Deterministic pseudo-random signals: 4 rules, 5,000 users, one signal every ~1.3 s over 36 hours.
let seed = 42;
const random = () => {
  // mulberry32
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};
const signals: Signal[] = Array.from({ length: COUNT }, (_, i) => ({
  ruleId: `Rule.${'ABCD'[Math.floor(random() * 4)]}`,
  time: START + i * 1300,
  fields: { user: `user${Math.floor(random() * 5000)}`, ip: `10.0.${i % 200}.${i % 250}` },
  id: `row${i}`,
}));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
function time(run: () => unknown): number {
  run();
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t = performance.now();
    run();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

const baseline = time(() => {
  const sorted = [...signals].sort((a, b) => a.time - b.time);
  const byRule = new Map<string, Signal[]>();
  for (const s of sorted) (byRule.get(s.ruleId) ?? byRule.set(s.ruleId, []).get(s.ruleId)!).push(s);
  return byRule.size;
});

const bodies: [string, unknown][] = [
  [
    'sequence A→B on user within 30 min',
    [
      {
        Sequence: [
          { ID: 'A', RuleID: 'Rule.A' },
          { ID: 'B', RuleID: 'Rule.B' },
        ],
        Transitions: [{ ID: 't', From: 'A', To: 'B', WithinTimeFrameMinutes: 30, Match: [{ On: 'user' }] }],
        Schedule: schedule,
      },
    ],
  ],
  [
    'sequence A→C (absent on user, 10 min)→D',
    [
      {
        Sequence: [
          { ID: 'A', RuleID: 'Rule.A' },
          { ID: 'C', RuleID: 'Rule.C', Absence: true },
          { ID: 'D', RuleID: 'Rule.D' },
        ],
        Transitions: [
          { ID: 'ac', From: 'A', To: 'C', WithinTimeFrameMinutes: 10, Match: [{ On: 'user' }] },
          { ID: 'cd', From: 'C', To: 'D', WithinTimeFrameMinutes: 60, Match: [{ On: 'user' }] },
        ],
        Schedule: schedule,
      },
    ],
  ],
  [
    'sequence 3×A then B on user within 60 min',
    [
      {
        Sequence: [
          { ID: 'A', RuleID: 'Rule.A', MinMatchCount: 3 },
          { ID: 'B', RuleID: 'Rule.B' },
        ],
        Transitions: [{ ID: 't', From: 'A', To: 'B', WithinTimeFrameMinutes: 60, Match: [{ On: 'user' }] }],
        Schedule: schedule,
      },
    ],
  ],
  [
    'group A, B, C grouped by user',
    [
      {
        Group: [
          { ID: 'A', RuleID: 'Rule.A' },
          { ID: 'B', RuleID: 'Rule.B' },
          { ID: 'C', RuleID: 'Rule.C' },
        ],
        MatchCriteria: {
          user: [
            { GroupID: 'A', Match: 'user' },
            { GroupID: 'B', Match: 'user' },
            { GroupID: 'C', Match: 'user' },
          ],
        },
        Schedule: schedule,
      },
    ],
  ],
];

console.log(`${COUNT.toLocaleString('en')} signals; baseline (sort by time, bucket by rule): ${baseline.toFixed(1)} ms`);
for (const [name, detection] of bodies) {
  const body = parseCorrelationBody(detection);
  let matches = 0;
  const ms = time(() => {
    matches = evaluateCorrelation(body, signals, { maxMatches: 1_000_000 }).matches.length;
  });
  console.log(`${name}: ${ms.toFixed(1)} ms, ${(ms / baseline).toFixed(1)}× baseline, ${matches.toLocaleString('en')} matches`);
}

// ------------------------------------------------------------------------------- scheduler overhead
const DUE = 500;
const dynamo = await startEntityTable('bench-runs');
const runAt = Date.UTC(2026, 2, 1, 10);
let round = 0;
const seed500 = async () => {
  round++;
  for (let i = 0; i < DUE; i += 50) {
    await Promise.all(
      Array.from({ length: 50 }, (_, k) =>
        putScheduledRun({
          detectionId: `Bench.${round}.${i + k}`,
          nextRunAt: runAt,
          schedule: { RateMinutes: 15, TimeoutMinutes: 2 },
        }),
      ),
    );
  }
};
const passes: number[] = [];
const reads: number[] = [];
for (let i = 0; i < 5; i++) {
  await seed500();
  let t = performance.now();
  const due = await dueRuns(runAt, DUE);
  reads.push(performance.now() - t);
  t = performance.now();
  const pass = await schedulerPass(runAt, async () => undefined, DUE);
  passes.push(performance.now() - t);
  if (due.length !== DUE || pass.queued.length !== DUE)
    throw new Error(`expected ${DUE} due and queued, got ${due.length}/${pass.queued.length}`);
}
const pass = median(passes);
const read = median(reads);
console.log(
  `scheduler pass over ${DUE} due detections: ${pass.toFixed(0)} ms, ${((pass / DUE) * 1000).toFixed(0)} µs per detection, ${(pass / read).toFixed(1)}× the Query that reads them`,
);

// ------------------------------------------------------------------------------- scheduled query run
const ROWS = 10_000;
const changes = await startAlertChanges();
const QUERY = 'Bench Query';
await saveDetection(
  {
    id: QUERY,
    type: 'scheduled_query',
    yaml: '',
    body: null,
    spec: {
      AnalysisType: 'scheduled_query',
      QueryName: QUERY,
      Enabled: true,
      Query: 'SELECT DISTINCT a FROM t',
      Schedule: schedule,
    },
  },
  'bench',
  0,
);
await saveDetection(
  {
    id: 'Bench.Scheduled',
    type: 'scheduled_rule',
    yaml: '',
    body: 'def rule(e):\n    return True\n',
    spec: {
      AnalysisType: 'scheduled_rule',
      RuleID: 'Bench.Scheduled',
      Enabled: true,
      Severity: 'Low',
      ScheduledQueries: [QUERY],
    },
  },
  'bench',
  0,
);
const resultRows = Array.from({ length: ROWS }, (_, i) => ({
  user: `user${i % 1000}`,
  n: i,
  p_event_time: '2026-03-01 10:00:00.000',
}));
const engine: Pick<Engine, 'run'> = {
  run: async (content, events) => ({
    load: { loaded: 1, errors: [] },
    results: events.map((e) =>
      Number(e.n) % 100 === 0 ? [{ id: content.detections[0].id, matched: true, dedup: `u${Number(e.n) % 10}` }] : [],
    ),
  }),
};
const runOnce = async (rows: Record<string, unknown>[], k: number) => {
  const runner: QueryRunner = async () => rows;
  const now = Date.now();
  const t = performance.now();
  const record = await executeRun(
    { detectionId: QUERY, runAt: now, window: { start: now - 3_600_000, end: now }, timeoutMinutes: 5 },
    new Date(now + k),
    undefined,
    () => ({ runner, engine, rulesFor: scheduledRulesFor }),
  );
  if (record.error || record.rows !== rows.length) throw new Error(`bench run failed: ${record.error}`);
  return performance.now() - t;
};
const empty: number[] = [];
const full: number[] = [];
for (let i = 0; i < 5; i++) {
  empty.push(await runOnce([], i * 2));
  full.push(await runOnce(resultRows, i * 2 + 1));
}
const fixed = median(empty);
const withRows = median(full);
console.log(
  `scheduled query run (query and engine stood in): no rows ${fixed.toFixed(0)} ms; ${ROWS.toLocaleString('en')} rows, 100 matches in 10 dedup groups ${withRows.toFixed(0)} ms (${(withRows / fixed).toFixed(1)}× the empty run, ${(((withRows - fixed) / ROWS) * 1000).toFixed(1)} µs per row)`,
);
await changes.stop();
await dynamo.stop();
