// Correlation rules: validation and parsing of the `Detection` body and the unit tests. Evaluation is
// core/correlation's `evaluateCorrelation` (the scheduled correlation runs use the same one over the
// signals they read from the lake); `caracal test` feeds it the signals a test's RuleOutputs describe.
import {
  evaluateCorrelation,
  type CorrelationBody,
  type Criterion,
  type Signal,
  type Step,
  type Transition,
} from '../correlation';
import { isRecord } from './shape';

export interface CorrelationIssue {
  level: 'error' | 'warning';
  message: string;
}

export type { CorrelationBody, Criterion, Signal, Step, Transition } from '../correlation';

export interface CorrelationMatch {
  fired: boolean;
  /** The signals that made the rule fire (empty when it did not). */
  signals: Signal[];
}

const MINUTE = 60_000;

// ------------------------------------------------------------------------------------- validation

export interface ValidationContext {
  /** The correlation rule's own id ('A rule cannot reference itself'). */
  ruleId?: string;
  /** Whether a RuleID names an existing rule, correlation rule or scheduled rule, or a policy. */
  lookupRule?: (ruleId: string) => 'ok' | 'missing' | 'policy';
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** Every problem with a correlation rule's `Detection` value, with the product's messages. */
export function validateCorrelationRule(detection: unknown, context: ValidationContext = {}): CorrelationIssue[] {
  const issues: CorrelationIssue[] = [];
  const error = (message: string) => issues.push({ level: 'error', message });
  if (!Array.isArray(detection) || detection.length !== 1 || !isRecord(detection[0])) {
    error('Detection must be a list of exactly one item, in sequence or group form');
    return issues;
  }
  const body = detection[0];
  const isSequence = 'Sequence' in body;
  const isGroup = 'Group' in body;
  if (isSequence === isGroup) {
    error('Detection needs exactly one of Sequence or Group');
    return issues;
  }
  const known = new Set([
    'Sequence',
    'Group',
    'Transitions',
    'MinMatchCount',
    'MatchCriteria',
    'Schedule',
    'LookbackWindowMinutes',
    'EventEvaluationOrder',
  ]);
  for (const key of Object.keys(body)) if (!known.has(key)) error(`unknown key ${key} in Detection`);
  if (body.LookbackWindowMinutes !== undefined) {
    const v = body.LookbackWindowMinutes;
    if (!isInt(v) || v < 15 || v > 21600) error('LookbackWindowMinutes must be an integer from 15 to 21600');
  }
  if (
    body.EventEvaluationOrder !== undefined &&
    body.EventEvaluationOrder !== 'Chronological' &&
    body.EventEvaluationOrder !== 'ReverseChronological'
  ) {
    error('EventEvaluationOrder must be Chronological or ReverseChronological');
  }
  if (!isRecord(body.Schedule)) error(`${isSequence ? 'Sequence' : 'Group'} form requires Schedule`);
  else {
    const s = body.Schedule;
    if (!isInt(s.TimeoutMinutes) || s.TimeoutMinutes < 1)
      error('Schedule TimeoutMinutes is required and must be an integer of at least 1');
    if (s.RateMinutes !== undefined && (!isInt(s.RateMinutes) || s.RateMinutes < 2))
      error('Schedule RateMinutes must be an integer of at least 2');
    if (s.RateMinutes === undefined && typeof s.CronExpression !== 'string')
      error('Schedule needs RateMinutes or CronExpression');
  }
  const steps = isSequence ? body.Sequence : body.Group;
  const where = isSequence ? 'Sequence' : 'Group';
  if (!Array.isArray(steps) || steps.length === 0) {
    error(`${where} form requires ${where} with at least one entry`);
    return issues;
  }
  const ids = new Set<string>();
  const ruleIds = new Set<string>();
  const hasTransitions = Array.isArray(body.Transitions) && body.Transitions.length > 0;
  for (const step of steps) {
    if (!isRecord(step)) {
      error(`each ${where} entry must be a mapping`);
      continue;
    }
    for (const key of Object.keys(step)) {
      if (!['ID', 'RuleID', 'SignalMatch', 'MinMatchCount', 'MaxMatchCount', 'Absence'].includes(key))
        error(`unknown key ${key} in ${where} entry`);
    }
    if (typeof step.ID === 'string') {
      if (ids.has(step.ID)) error('Cannot have duplicate IDs');
      ids.add(step.ID);
    } else if (isSequence && hasTransitions) error('Missing ID in Sequence');
    else if (!isSequence && step.ID === undefined) error('Missing ID in Group');
    if (typeof step.RuleID !== 'string' || !step.RuleID) error(`Missing RuleID in ${where}`);
    else {
      if (ruleIds.has(step.RuleID)) error('Cannot have duplicate RuleIDs');
      ruleIds.add(step.RuleID);
      if (context.ruleId && step.RuleID === context.ruleId) error('A rule cannot reference itself');
      const found = context.lookupRule?.(step.RuleID);
      // A warning: the referenced rule may live outside the directory being tested.
      if (found === 'missing') issues.push({ level: 'warning', message: `No rule found: ${step.RuleID}` });
      if (found === 'policy') error(`Cannot use policies: ${step.RuleID}`);
    }
    for (const key of ['MinMatchCount', 'MaxMatchCount'] as const) {
      if (step[key] !== undefined && (!isInt(step[key]) || (step[key] as number) < 0))
        error(`${key} must be an integer of at least 0`);
    }
    if (step.Absence !== undefined && typeof step.Absence !== 'boolean') error('Absence must be true or false');
    if (step.Absence === true && (step.MinMatchCount !== undefined || step.MaxMatchCount !== undefined)) {
      error('The rule cannot be absent with min or max match count');
    }
  }
  if (isGroup) {
    if (body.MinMatchCount !== undefined && (!isInt(body.MinMatchCount) || body.MinMatchCount < 2)) {
      error('Group MinMatchCount must be an integer of at least 2');
    }
    if (body.MatchCriteria !== undefined) {
      if (!isRecord(body.MatchCriteria)) error('MatchCriteria must map a name to a list of {GroupID, Match}');
      else {
        for (const [name, list] of Object.entries(body.MatchCriteria)) {
          if (
            !Array.isArray(list) ||
            !list.every((e) => isRecord(e) && typeof e.GroupID === 'string' && typeof e.Match === 'string')
          ) {
            error(`MatchCriteria ${name} must be a list of {GroupID, Match}`);
          } else {
            for (const entry of list as { GroupID: string }[])
              if (!ids.has(entry.GroupID)) error(`MatchCriteria ${name} names unknown GroupID ${entry.GroupID}`);
          }
        }
      }
    }
    if (body.Transitions !== undefined) error('Transitions are only allowed in the sequence form');
    return issues;
  }
  validateTransitions(body.Transitions, steps as Record<string, unknown>[], issues);
  return issues;
}

function validateTransitions(transitions: unknown, steps: Record<string, unknown>[], issues: CorrelationIssue[]): void {
  const error = (message: string) => issues.push({ level: 'error', message });
  if (transitions === undefined) return;
  if (!Array.isArray(transitions)) {
    error('Transitions must be a list');
    return;
  }
  // A transition from a step to itself (the reference content's form for "N of the same rule, joined and within
  // a time frame") constrains that step's own signals; only the transitions between steps are counted here.
  const isSelf = (t: unknown) => isRecord(t) && typeof t.From === 'string' && t.From === t.To;
  if (transitions.filter((t) => !isSelf(t)).length > Math.max(0, steps.length - 1)) error('Too many transitions');
  const order = steps.map((s) => s.ID);
  const pairs = new Set<string>();
  let outOfOrder = false;
  for (const t of transitions) {
    if (!isRecord(t)) {
      error('each transition must be a mapping');
      continue;
    }
    for (const key of Object.keys(t))
      if (!['ID', 'From', 'To', 'WithinTimeFrameMinutes', 'Match'].includes(key)) error(`unknown key ${key} in transition`);
    if (typeof t.From !== 'string' || typeof t.To !== 'string' || !order.includes(t.From) || !order.includes(t.To)) {
      error(`transition ${String(t.ID ?? '')} must name existing steps in From and To`.replace('  ', ' '));
      continue;
    }
    const pair = `${t.From}->${t.To}`;
    const self = t.From === t.To;
    if (pairs.has(pair) || (!self && order.indexOf(t.To) !== order.indexOf(t.From) + 1)) outOfOrder = true;
    pairs.add(pair);
    if (self) {
      const step = steps.find((s) => s.ID === t.From);
      if (step?.Absence === true) error('An absent step cannot have a transition to itself');
      const m = Array.isArray(t.Match) && isRecord(t.Match[0]) ? t.Match[0] : undefined;
      if (m && typeof m.On !== 'string' && m.From !== m.To) error('A transition from a step to itself must match On one field');
    }
    if (t.WithinTimeFrameMinutes !== undefined) {
      const v = t.WithinTimeFrameMinutes;
      if (!isInt(v) || v < 1 || v > 1440) error('WithinTimeFrameMinutes must be an integer from 1 to 1440');
    }
    if (t.Match !== undefined) {
      if (!Array.isArray(t.Match) || t.Match.length !== 1) error('Transition Match must have exactly one item');
      else {
        const m = t.Match[0];
        const ok =
          isRecord(m) &&
          (typeof m.On === 'string'
            ? m.From === undefined && m.To === undefined
            : typeof m.From === 'string' && typeof m.To === 'string');
        if (!ok) error('Transition Match item needs On, or From and To');
      }
    }
  }
  if (outOfOrder)
    issues.push({ level: 'warning', message: 'Invalid Transitions: Can only have one transition between each node in order' });
  if (transitions.length > 0) {
    for (let i = 1; i < steps.length; i++) {
      if (!pairs.has(`${String(steps[i - 1].ID)}->${String(steps[i].ID)}`)) {
        error('Missing transition');
        break;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------- parsing

function toStep(raw: Record<string, unknown>, index: number): Step {
  return {
    id: typeof raw.ID === 'string' ? raw.ID : `#${index}`,
    ruleId: String(raw.RuleID),
    min: raw.Absence === true ? 0 : isInt(raw.MinMatchCount) ? Math.max(1, raw.MinMatchCount) : 1,
    max: isInt(raw.MaxMatchCount) ? raw.MaxMatchCount : undefined,
    absence: raw.Absence === true,
  };
}

/** The evaluator's model of a validated `Detection` value. */
export function parseCorrelationBody(detection: unknown): CorrelationBody {
  const problems = validateCorrelationRule(detection).filter((i) => i.level === 'error');
  if (problems.length) throw new Error(problems.map((p) => p.message).join('; '));
  const body = (detection as Record<string, unknown>[])[0];
  const lookbackMs = isInt(body.LookbackWindowMinutes) ? body.LookbackWindowMinutes * MINUTE : undefined;
  if (Array.isArray(body.Group)) {
    const entries = (body.Group as Record<string, unknown>[]).map(toStep);
    const criteria: Criterion[] = Object.entries(
      (body.MatchCriteria as Record<string, { GroupID: string; Match: string }[]>) ?? {},
    ).map(([name, list]) => ({ name, fields: new Map(list.map((e) => [e.GroupID, e.Match])) }));
    // Without a MinMatchCount every entry must hold.
    const minMatches = isInt(body.MinMatchCount) ? body.MinMatchCount : entries.length;
    return { form: 'group', entries, minMatches, criteria, lookbackMs };
  }
  const steps = (body.Sequence as Record<string, unknown>[]).map(toStep);
  const transitions: Transition[] = ((body.Transitions as Record<string, unknown>[] | undefined) ?? []).map((t) => {
    const match = Array.isArray(t.Match) ? (t.Match[0] as Record<string, string>) : undefined;
    const joins: [string, string][] = match ? [match.On !== undefined ? [match.On, match.On] : [match.From, match.To]] : [];
    return {
      from: String(t.From),
      to: String(t.To),
      withinMs: isInt(t.WithinTimeFrameMinutes) ? t.WithinTimeFrameMinutes * MINUTE : undefined,
      joins,
    };
  });
  return { form: 'sequence', steps, transitions, lookbackMs, reverse: body.EventEvaluationOrder === 'ReverseChronological' };
}

// -------------------------------------------------------------------------------------- evaluation

// The evaluator is core/correlation's (one for unit tests and scheduled runs); re-exported for callers here.
export { evaluateCorrelation, signalField } from '../correlation';

// ------------------------------------------------------------------------------------------ tests

/** Where relative test times (whole minutes) are counted from. */
export const TEST_START_MS = Date.UTC(2024, 0, 1);

export interface CorrelationTestResult {
  name: string;
  passed: boolean;
  expected: boolean;
  fired?: boolean;
  error?: string;
}

function testTime(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value)) return TEST_START_MS + value * MINUTE;
  if (typeof value === 'string') {
    const parsed = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);
    if (!Number.isNaN(parsed)) return parsed;
  }
  throw new Error(`invalid match time ${JSON.stringify(value)} (whole minutes from the start, or a timestamp)`);
}

/**
 * The signals a test's RuleOutputs describe: `Matches: {field: {value: [times]}}`. One output's fields that list
 * the same time describe one signal (one match of the rule carries all its fields): the n-th value of each field
 * at that time goes into the n-th signal of that time.
 */
export function signalsFromRuleOutputs(body: CorrelationBody, ruleOutputs: unknown): Signal[] {
  if (!Array.isArray(ruleOutputs)) throw new Error('RuleOutputs must be a list');
  const steps = body.form === 'group' ? body.entries : body.steps;
  const signals: Signal[] = [];
  for (const output of ruleOutputs) {
    if (!isRecord(output) || typeof output.ID !== 'string') throw new Error('each RuleOutputs entry needs an ID');
    const step = steps.find((s) => s.id === output.ID) ?? steps.find((s) => s.ruleId === output.ID);
    const ruleId = step ? step.ruleId : output.ID;
    if (output.Matches === undefined) continue;
    if (!isRecord(output.Matches)) throw new Error(`Matches of ${output.ID} must map a field to {value: [times]}`);
    // time → the signals at that time, in the order their first field value was listed
    const atTime = new Map<number, Record<string, unknown>[]>();
    for (const [field, byValue] of Object.entries(output.Matches)) {
      if (!isRecord(byValue)) throw new Error(`Matches.${field} of ${output.ID} must map a value to a list of times`);
      const used = new Map<number, number>();
      for (const [value, times] of Object.entries(byValue)) {
        if (!Array.isArray(times)) throw new Error(`Matches.${field}.${value} of ${output.ID} must be a list of times`);
        for (const raw of times) {
          const time = testTime(raw);
          const list = atTime.get(time) ?? [];
          atTime.set(time, list);
          const n = used.get(time) ?? 0;
          used.set(time, n + 1);
          if (n < list.length) list[n][field] = value;
          else list.push({ [field]: value });
        }
      }
    }
    for (const [time, list] of atTime) for (const fields of list) signals.push({ ruleId, time, fields });
  }
  return signals;
}

/** Run a correlation rule's unit tests. */
export function runCorrelationTests(detection: unknown, tests: readonly unknown[]): CorrelationTestResult[] {
  let body: CorrelationBody | undefined;
  let setupError: string | undefined;
  try {
    body = parseCorrelationBody(detection);
  } catch (error) {
    setupError = error instanceof Error ? error.message : String(error);
  }
  return tests.map((test) => {
    const record = isRecord(test) ? test : {};
    const name = String(record.Name ?? '');
    const expected = record.ExpectedResult === true;
    if (!body) return { name, passed: false, expected, error: setupError };
    try {
      const { fired } = evaluateCorrelation(body, signalsFromRuleOutputs(body, record.RuleOutputs));
      return { name, passed: fired === expected, expected, fired };
    } catch (error) {
      return { name, passed: false, expected, error: error instanceof Error ? error.message : String(error) };
    }
  });
}
