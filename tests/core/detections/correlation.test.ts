import { describe, expect, it } from 'vitest';
import {
  evaluateCorrelation,
  parseCorrelationBody,
  runCorrelationTests,
  signalField,
  signalsFromRuleOutputs,
  TEST_START_MS,
  validateCorrelationRule,
  type Signal,
} from '../../../core/detections';

const schedule = { RateMinutes: 60, TimeoutMinutes: 5 };
const at = (minutes: number) => TEST_START_MS + minutes * 60_000;
const signal = (ruleId: string, minutes: number, fields: Record<string, unknown> = {}): Signal => ({
  ruleId,
  time: at(minutes),
  fields,
});

const sequence = parseCorrelationBody([
  {
    Sequence: [
      { ID: 'A', RuleID: 'Rule.A', MinMatchCount: 2 },
      { ID: 'B', RuleID: 'Rule.B' },
    ],
    Transitions: [{ ID: 'A-B', From: 'A', To: 'B', WithinTimeFrameMinutes: 10, Match: [{ On: 'user' }] }],
    Schedule: schedule,
  },
]);

describe('sequence evaluation', () => {
  const cases: [string, Signal[], boolean][] = [
    [
      'min count then the next step in time',
      [signal('Rule.A', 0, { user: 'u' }), signal('Rule.A', 1, { user: 'u' }), signal('Rule.B', 5, { user: 'u' })],
      true,
    ],
    ['min count not reached', [signal('Rule.A', 0, { user: 'u' }), signal('Rule.B', 5, { user: 'u' })], false],
    [
      'steps out of order',
      [signal('Rule.B', 0, { user: 'u' }), signal('Rule.A', 1, { user: 'u' }), signal('Rule.A', 2, { user: 'u' })],
      false,
    ],
    [
      'outside the transition window',
      [signal('Rule.A', 0, { user: 'u' }), signal('Rule.A', 1, { user: 'u' }), signal('Rule.B', 30, { user: 'u' })],
      false,
    ],
    [
      'join field differs',
      [signal('Rule.A', 0, { user: 'u' }), signal('Rule.A', 1, { user: 'u' }), signal('Rule.B', 5, { user: 'v' })],
      false,
    ],
    [
      'min count reached only by one user',
      [signal('Rule.A', 0, { user: 'u' }), signal('Rule.A', 1, { user: 'v' }), signal('Rule.B', 5, { user: 'v' })],
      false,
    ],
  ];
  it.each(cases)('%s', (_name, signals, fired) => {
    expect(evaluateCorrelation(sequence, signals).fired).toBe(fired);
  });

  it('sees only the lookback window before the run time', () => {
    const body = parseCorrelationBody([
      {
        Sequence: [
          { ID: 'A', RuleID: 'Rule.A' },
          { ID: 'B', RuleID: 'Rule.B' },
        ],
        LookbackWindowMinutes: 15,
        Schedule: schedule,
      },
    ]);
    const signals = [signal('Rule.A', 0), signal('Rule.B', 10), signal('Rule.A', 100)];
    expect(evaluateCorrelation(body, signals, at(12)).fired).toBe(true);
    expect(evaluateCorrelation(body, signals, at(9)).fired).toBe(false);
    expect(evaluateCorrelation(body, signals).fired).toBe(false);
  });

  it('returns the signals that made it fire', () => {
    const signals = [signal('Rule.A', 0, { user: 'u' }), signal('Rule.A', 1, { user: 'u' }), signal('Rule.B', 5, { user: 'u' })];
    expect(evaluateCorrelation(sequence, signals).signals).toHaveLength(3);
  });

  it('joins different field names with From/To and honours Absence and MaxMatchCount', () => {
    const absence = parseCorrelationBody([
      {
        Sequence: [
          { ID: 'Grant', RuleID: 'Rule.Grant', MaxMatchCount: 1 },
          { ID: 'Review', RuleID: 'Rule.Review', Absence: true },
        ],
        Transitions: [
          { ID: 't', From: 'Grant', To: 'Review', WithinTimeFrameMinutes: 60, Match: [{ From: 'actor', To: 'reviewed' }] },
        ],
        Schedule: schedule,
      },
    ]);
    expect(evaluateCorrelation(absence, [signal('Rule.Grant', 0, { actor: 'a' })]).fired).toBe(true);
    expect(
      evaluateCorrelation(absence, [signal('Rule.Grant', 0, { actor: 'a' }), signal('Rule.Review', 10, { reviewed: 'a' })]).fired,
    ).toBe(false);
    expect(
      evaluateCorrelation(absence, [signal('Rule.Grant', 0, { actor: 'a' }), signal('Rule.Review', 10, { reviewed: 'b' })]).fired,
    ).toBe(true);
    expect(
      evaluateCorrelation(absence, [signal('Rule.Grant', 0, { actor: 'a' }), signal('Rule.Review', 90, { reviewed: 'a' })]).fired,
    ).toBe(true);
    expect(
      evaluateCorrelation(absence, [signal('Rule.Grant', 0, { actor: 'a' }), signal('Rule.Grant', 1, { actor: 'a' })]).fired,
    ).toBe(false);
  });

  it('reads signal fields by exact name, then by dotted path', () => {
    const nested = signal('Rule.A', 0, { 'p_alert_context.user': 'flat', p_alert_context: { user: 'nested', actor: { id: 7 } } });
    expect(signalField(nested, 'p_alert_context.user')).toBe('flat');
    expect(signalField(nested, 'p_alert_context.actor.id')).toBe(7);
    expect(signalField(nested, 'p_alert_context.missing.id')).toBeUndefined();
  });
});

describe('group evaluation', () => {
  const group = parseCorrelationBody([
    {
      Group: [
        { ID: 'A', RuleID: 'Rule.A', MinMatchCount: 2 },
        { ID: 'B', RuleID: 'Rule.B' },
        { ID: 'C', RuleID: 'Rule.C' },
      ],
      MinMatchCount: 2,
      MatchCriteria: {
        user: [
          { GroupID: 'A', Match: 'user' },
          { GroupID: 'B', Match: 'account' },
          { GroupID: 'C', Match: 'user' },
        ],
      },
      LookbackWindowMinutes: 30,
      Schedule: schedule,
    },
  ]);
  const cases: [string, Signal[], boolean][] = [
    [
      'two entries for one user',
      [signal('Rule.A', 0, { user: 'u' }), signal('Rule.A', 1, { user: 'u' }), signal('Rule.B', 2, { account: 'u' })],
      true,
    ],
    [
      'entries for different users',
      [signal('Rule.A', 0, { user: 'u' }), signal('Rule.A', 1, { user: 'u' }), signal('Rule.B', 2, { account: 'v' })],
      false,
    ],
    ['entry below its min count', [signal('Rule.A', 0, { user: 'u' }), signal('Rule.B', 2, { account: 'u' })], false],
    ['outside the lookback window', [signal('Rule.B', 0, { account: 'u' }), signal('Rule.C', 45, { user: 'u' })], false],
    ['any two entries', [signal('Rule.B', 0, { account: 'u' }), signal('Rule.C', 5, { user: 'u' })], true],
  ];
  it.each(cases)('%s', (_name, signals, fired) => {
    expect(evaluateCorrelation(group, signals).fired).toBe(fired);
  });
});

describe('group without MinMatchCount', () => {
  // Every entry must hold; an Absence entry holds when no signal shares the criteria values.
  const group = parseCorrelationBody([
    {
      Group: [
        { ID: 'Change', RuleID: 'Rule.Change' },
        { ID: 'Archived', RuleID: 'Rule.Archived', Absence: true },
      ],
      MatchCriteria: {
        repo: [
          { GroupID: 'Change', Match: 'p_alert_context.repo' },
          { GroupID: 'Archived', Match: 'p_alert_context.repo' },
        ],
      },
      LookbackWindowMinutes: 90,
      Schedule: schedule,
    },
  ]);
  const change = (repo: string, minute: number) => signal('Rule.Change', minute, { 'p_alert_context.repo': repo });
  const archived = (repo: string, minute: number) => signal('Rule.Archived', minute, { 'p_alert_context.repo': repo });
  const cases: [string, Signal[], boolean][] = [
    ['change, then the same repo archived', [change('a', 0), archived('a', 1)], false],
    ['archived, then a change of the same repo', [archived('a', 0), change('a', 1)], false],
    ['a different repo archived', [change('a', 0), archived('b', 1)], true],
    ['nothing archived', [change('a', 0)], true],
  ];
  it.each(cases)('%s', (_name, signals, fired) => {
    expect(evaluateCorrelation(group, signals).fired).toBe(fired);
  });
});

describe('correlation unit tests', () => {
  const detection = [
    {
      Sequence: [
        { ID: 'A', RuleID: 'Rule.A' },
        { ID: 'B', RuleID: 'Rule.B' },
      ],
      Schedule: schedule,
      LookbackWindowMinutes: 15,
    },
  ];
  it('builds signals from RuleOutputs (minutes or timestamps, by step ID or RuleID)', () => {
    const body = parseCorrelationBody(detection);
    const signals = signalsFromRuleOutputs(body, [
      { ID: 'A', Matches: { user: { u: [0, '2024-01-01T00:05:00Z'] } } },
      { ID: 'Rule.B', Matches: { user: { u: ['2024-01-01 00:07:00'] } } },
    ]);
    expect(signals.map((s) => [s.ruleId, (s.time - TEST_START_MS) / 60_000, s.fields])).toEqual([
      ['Rule.A', 0, { user: 'u' }],
      ['Rule.A', 5, { user: 'u' }],
      ['Rule.B', 7, { user: 'u' }],
    ]);
  });

  it('passes when the verdict matches the expectation, and reports bad input', () => {
    const results = runCorrelationTests(detection, [
      {
        Name: 'in order',
        ExpectedResult: true,
        RuleOutputs: [
          { ID: 'A', Matches: { u: { x: [0] } } },
          { ID: 'B', Matches: { u: { x: [5] } } },
        ],
      },
      {
        Name: 'lookback exceeded',
        ExpectedResult: false,
        RuleOutputs: [
          { ID: 'A', Matches: { u: { x: [0] } } },
          { ID: 'B', Matches: { u: { x: [20] } } },
        ],
      },
      { Name: 'wrong expectation', ExpectedResult: true, RuleOutputs: [{ ID: 'B', Matches: { u: { x: [0] } } }] },
      { Name: 'bad time', ExpectedResult: true, RuleOutputs: [{ ID: 'A', Matches: { u: { x: ['yesterday'] } } }] },
    ]);
    expect(results.map((r) => [r.name, r.passed])).toEqual([
      ['in order', true],
      ['lookback exceeded', true],
      ['wrong expectation', false],
      ['bad time', false],
    ]);
    expect(results[3].error).toMatch(/invalid match time "yesterday"/);
  });

  it('fails every test of an invalid rule with its validation message', () => {
    const [result] = runCorrelationTests(
      [{ Sequence: [], Schedule: schedule }],
      [{ Name: 't', ExpectedResult: false, RuleOutputs: [] }],
    );
    expect(result).toMatchObject({ passed: false, error: 'Sequence form requires Sequence with at least one entry' });
  });
});

describe('correlation rule validation', () => {
  const messages = (detection: unknown, context = {}) =>
    validateCorrelationRule(detection, context).map((i) => `${i.level}: ${i.message}`);
  const cases: [string, unknown, string[]][] = [
    ['not a one-item list', [], ['error: Detection must be a list of exactly one item, in sequence or group form']],
    [
      'both forms',
      [{ Sequence: [], Group: [], Schedule: schedule }],
      ['error: Detection needs exactly one of Sequence or Group'],
    ],
    ['schedule required', [{ Sequence: [{ ID: 'a', RuleID: 'R' }] }], ['error: Sequence form requires Schedule']],
    [
      'timeout required',
      [
        {
          Group: [
            { ID: 'a', RuleID: 'R' },
            { ID: 'b', RuleID: 'S' },
          ],
          MinMatchCount: 2,
          Schedule: { RateMinutes: 5 },
        },
      ],
      ['error: Schedule TimeoutMinutes is required and must be an integer of at least 1'],
    ],
    [
      'rate and lookback bounds',
      [{ Sequence: [{ ID: 'a', RuleID: 'R' }], Schedule: { RateMinutes: 1, TimeoutMinutes: 1 }, LookbackWindowMinutes: 14 }],
      [
        'error: LookbackWindowMinutes must be an integer from 15 to 21600',
        'error: Schedule RateMinutes must be an integer of at least 2',
      ],
    ],
    [
      'group min',
      [{ Group: [{ ID: 'a', RuleID: 'R' }], MinMatchCount: 1, Schedule: schedule }],
      ['error: Group MinMatchCount must be an integer of at least 2'],
    ],
    [
      'duplicates',
      [
        {
          Sequence: [
            { ID: 'a', RuleID: 'R' },
            { ID: 'a', RuleID: 'R' },
          ],
          Schedule: schedule,
        },
      ],
      ['error: Cannot have duplicate IDs', 'error: Cannot have duplicate RuleIDs'],
    ],
    [
      'missing ids with transitions',
      [{ Sequence: [{ RuleID: 'R' }, { ID: 'b', RuleID: 'S' }], Transitions: [{ From: 'x', To: 'b' }], Schedule: schedule }],
      ['error: Missing ID in Sequence', 'error: transition must name existing steps in From and To', 'error: Missing transition'],
    ],
    [
      'missing rule ids',
      [{ Group: [{ ID: 'a' }, { ID: 'b', RuleID: 'S' }], MinMatchCount: 2, Schedule: schedule }],
      ['error: Missing RuleID in Group'],
    ],
    [
      'absence with counts',
      [{ Sequence: [{ ID: 'a', RuleID: 'R', Absence: true, MinMatchCount: 1 }], Schedule: schedule }],
      ['error: The rule cannot be absent with min or max match count'],
    ],
    [
      'negative counts',
      [{ Sequence: [{ ID: 'a', RuleID: 'R', MaxMatchCount: -1 }], Schedule: schedule }],
      ['error: MaxMatchCount must be an integer of at least 0'],
    ],
    [
      'transition bounds and match items',
      [
        {
          Sequence: [
            { ID: 'a', RuleID: 'R' },
            { ID: 'b', RuleID: 'S' },
          ],
          Transitions: [{ From: 'a', To: 'b', WithinTimeFrameMinutes: 0, Match: [{ On: 'x' }, { On: 'y' }] }],
          Schedule: schedule,
        },
      ],
      ['error: WithinTimeFrameMinutes must be an integer from 1 to 1440', 'error: Transition Match must have exactly one item'],
    ],
    [
      'too many and out-of-order transitions',
      [
        {
          Sequence: [
            { ID: 'a', RuleID: 'R' },
            { ID: 'b', RuleID: 'S' },
          ],
          Transitions: [
            { From: 'a', To: 'b' },
            { From: 'b', To: 'a' },
          ],
          Schedule: schedule,
        },
      ],
      ['error: Too many transitions', 'warning: Invalid Transitions: Can only have one transition between each node in order'],
    ],
    [
      'evaluation order',
      [{ Sequence: [{ ID: 'a', RuleID: 'R' }], Schedule: schedule, EventEvaluationOrder: 'Random' }],
      ['error: EventEvaluationOrder must be Chronological or ReverseChronological'],
    ],
  ];
  it.each(cases)('%s', (_name, detection, expected) => {
    expect(messages(detection)).toEqual(expected);
  });

  it('checks rule references against the repository', () => {
    const lookupRule = (id: string) => (id === 'Policy.X' ? 'policy' : id === 'Rule.Y' ? 'ok' : 'missing');
    const detection = [
      {
        Sequence: [
          { ID: 'a', RuleID: 'Self' },
          { ID: 'b', RuleID: 'Policy.X' },
          { ID: 'c', RuleID: 'Nope' },
          { ID: 'd', RuleID: 'Rule.Y' },
        ],
        Schedule: schedule,
      },
    ];
    expect(messages(detection, { ruleId: 'Self', lookupRule })).toEqual([
      'error: A rule cannot reference itself',
      'warning: No rule found: Self',
      'error: Cannot use policies: Policy.X',
      'warning: No rule found: Nope',
    ]);
  });
});
