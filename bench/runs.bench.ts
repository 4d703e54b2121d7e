// Runs: the scheduler's overhead per due detection (a pass over 500 due detections on dynalite: the Query,
// a conditional claim per detection and an in-memory send, per detection, as a ratio to reading the same
// 500 with the one Query alone), and one correlation evaluation over 100,000 signals (the evaluator's time apart from reading them), for
// a joined sequence with a time frame, a sequence with an absent step, a MinMatchCount sequence and a
// group with MatchCriteria. Figures: median of repeated evaluations and its ratio to a baseline measured in
// the same run (sorting the same signals by time and bucketing them by rule: the least any evaluator does),
// so the figures compare across machines.
import { evaluateCorrelation, type Signal } from '../core/correlation';
import { parseCorrelationBody } from '../core/detections';
import { dueRuns, putScheduledRun, schedulerPass } from '../functions/lib/runs';
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
await dynamo.stop();
