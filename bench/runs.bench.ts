// Correlation runs: one evaluation over 100,000 signals (the evaluator's time apart from reading them), for
// a joined sequence with a time frame, a sequence with an absent step, a MinMatchCount sequence and a
// group with MatchCriteria. Figures: median of repeated evaluations and its ratio to a baseline measured in
// the same run (sorting the same signals by time and bucketing them by rule: the least any evaluator does),
// so the figures compare across machines.
import { evaluateCorrelation, type Signal } from '../core/correlation';
import { parseCorrelationBody } from '../core/detections';

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
