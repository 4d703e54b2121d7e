// The one correlation evaluator: a parsed correlation body and the signals of its referenced rules in,
// the matches (the signals of each, in order) and a trace of how it got there out. The unit tests
// (caracal test, the API's test run) and the scheduled correlation runs both call `evaluateCorrelation`.

export interface Signal {
  /** The RuleID of the detection that produced the signal. */
  ruleId: string;
  /** Epoch milliseconds. */
  time: number;
  fields: Record<string, unknown>;
  /** The signal's own id when it has one (p_row_id in the lake); the match key prefers it to the time. */
  id?: string;
}

export interface Step {
  id: string;
  ruleId: string;
  min: number;
  max?: number;
  absence: boolean;
}

export interface Transition {
  from: string;
  to: string;
  withinMs?: number;
  /** Pairs of (field on the From step's signal, field on the To step's signal) that must be equal. */
  joins: [string, string][];
}

export interface Criterion {
  name: string;
  /** Group entry ID → field of that entry's signals. */
  fields: Map<string, string>;
}

export type CorrelationBody =
  | { form: 'sequence'; steps: Step[]; transitions: Transition[]; lookbackMs?: number; reverse: boolean }
  | { form: 'group'; entries: Step[]; minMatches: number; criteria: Criterion[]; lookbackMs?: number };

// ------------------------------------------------------------------------------------------ trace

/** What became of one signal of the input. */
export type SignalOutcome =
  /** It satisfied a step (sequence) or an entry (group) of a match. */
  | 'matched'
  /** In the window and referenced, but no match used it. */
  | 'unused'
  /** Before the lookback window or after the run time. */
  | 'outside-window'
  /** Its RuleID is no step's or entry's. */
  | 'not-referenced'
  /** It was seen where an absent step wanted none, so the sequence failed there. */
  | 'broke-absence';

export interface SignalTrace {
  /** Index of the signal in the evaluator's input. */
  index: number;
  ruleId: string;
  time: number;
  outcome: SignalOutcome;
  /** The step (sequence) or entry (group) ID it satisfied or broke. */
  step?: string;
  /** Which match (0-based, in the order of `matches`) it belongs to. */
  match?: number;
}

/** Whether a transition between two steps held, with the signals on either side. */
export interface TransitionTrace {
  from: string;
  to: string;
  held: boolean;
  /** 'expired': the To signal came after WithinTimeFrameMinutes; 'unjoined': the Match fields differed; 'missing': no To signal after the From one; 'absent': an absent step saw a signal; 'pending': an absent step's window is still open at the run time. */
  reason?: 'expired' | 'unjoined' | 'missing' | 'absent' | 'pending';
  fromTime?: number;
  toTime?: number;
  withinMinutes?: number;
}

export interface StepTrace {
  id: string;
  ruleId: string;
  /** Signals of the step's rule in the window. */
  seen: number;
  /** Signals the step used in the first match (or the deepest attempt). */
  used: number;
  held: boolean;
}

export interface CorrelationTrace {
  form: 'sequence' | 'group';
  order: 'Chronological' | 'ReverseChronological';
  /** The signals evaluated: from start (inclusive) to end (inclusive), epoch ms; start is null without a lookback. */
  window: { start: number | null; end: number };
  signals: SignalTrace[];
  steps: StepTrace[];
  /** The transitions of the first match, or of the deepest attempt when none matched (sequence form). */
  transitions: TransitionTrace[];
  /** Where evaluation stopped when nothing matched (null when the rule fired). */
  stopped: { step: string; reason: string } | null;
}

export interface CorrelationEvaluation {
  fired: boolean;
  /** Every match, each its signals in time order; matches do not share signals. */
  matches: Signal[][];
  /** The first match's signals (empty when it did not fire). */
  signals: Signal[];
  trace: CorrelationTrace;
}

export interface EvaluateOptions {
  /** The run time (epoch ms): signals after it are not seen; default the latest signal's time. */
  now?: number;
  /**
   * Whether the signals are complete (a unit test): an absent step's window counts as closed. A
   * scheduled run passes false: an absent step holds only once its window has closed by `now`, so a
   * later run (with an overlapping lookback) decides it.
   */
  complete?: boolean;
  /** At most this many matches (default 1,000). */
  maxMatches?: number;
}

// ------------------------------------------------------------------------------------- evaluation

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A signal field by exact name, else by dotted path into nested objects. */
export function signalField(signal: Signal, field: string): unknown {
  if (field in signal.fields) return signal.fields[field];
  let value: unknown = signal.fields;
  for (const part of field.split('.')) {
    if (!isRecord(value)) return undefined;
    value = value[part];
  }
  return value;
}

const valueKey = (v: unknown) => (typeof v === 'string' ? `s${v}` : JSON.stringify(v));
const sameValue = (a: unknown, b: unknown) => a !== undefined && a !== null && valueKey(a) === valueKey(b);

function joined(previous: Signal, next: Signal, transition: Transition | undefined): boolean {
  if (!transition) return true;
  return transition.joins.every(([fromField, toField]) =>
    sameValue(signalField(previous, fromField), signalField(next, toField)),
  );
}

/** A stable key of one match (its rule, ids or times, in order): the scheduled run stores it so that overlapping windows never raise a match twice. */
export function matchKey(match: readonly Signal[]): string {
  return match.map((s) => `${s.ruleId}@${s.id ?? s.time}`).join('|');
}

interface Visible {
  signal: Signal;
  index: number;
}

export function evaluateCorrelation(
  body: CorrelationBody,
  signals: readonly Signal[],
  options: EvaluateOptions | number = {},
): CorrelationEvaluation {
  const opts: EvaluateOptions = typeof options === 'number' ? { now: options } : options;
  let latest = -Infinity;
  for (const s of signals) if (s.time > latest) latest = s.time;
  const end = opts.now ?? (signals.length ? latest : 0);
  const start = body.lookbackMs === undefined ? -Infinity : end - body.lookbackMs;
  const complete = opts.complete ?? opts.now === undefined;
  const referenced = new Set((body.form === 'group' ? body.entries : body.steps).map((s) => s.ruleId));
  const traces: SignalTrace[] = signals.map((s, index) => ({
    index,
    ruleId: s.ruleId,
    time: s.time,
    outcome: !referenced.has(s.ruleId) ? 'not-referenced' : s.time >= start && s.time <= end ? 'unused' : 'outside-window',
  }));
  const visible: Visible[] = [];
  signals.forEach((signal, index) => {
    if (traces[index].outcome === 'unused') visible.push({ signal, index });
  });
  visible.sort((a, b) => a.signal.time - b.signal.time || a.index - b.index);
  const trace: CorrelationTrace = {
    form: body.form,
    order: body.form === 'sequence' && body.reverse ? 'ReverseChronological' : 'Chronological',
    window: { start: Number.isFinite(start) ? start : null, end },
    signals: traces,
    steps: [],
    transitions: [],
    stopped: null,
  };
  const found =
    body.form === 'group'
      ? evaluateGroup(body, visible, trace, opts.maxMatches ?? 1000)
      : evaluateSequence(body, visible, trace, { end, complete, maxMatches: opts.maxMatches ?? 1000 });
  found.forEach((match, m) => {
    for (const { index, step } of match) Object.assign(traces[index], { outcome: 'matched', step, match: m });
  });
  const matches = found.map((match) => match.map((v) => signals[v.index]));
  return { fired: matches.length > 0, matches, signals: matches[0] ?? [], trace };
}

type Used = { index: number; step: string; time: number };

// ------------------------------------------------------------------------------------------ sequence

interface Attempt {
  depth: number;
  step: string;
  reason: string;
  transitions: TransitionTrace[];
  used: Map<string, number>;
  broke?: { index: number; step: string };
}

function evaluateSequence(
  body: Extract<CorrelationBody, { form: 'sequence' }>,
  visible: Visible[],
  trace: CorrelationTrace,
  run: { end: number; complete: boolean; maxMatches: number },
): Used[][] {
  const byRule = new Map<string, Visible[]>();
  for (const v of visible) {
    const list = byRule.get(v.signal.ruleId);
    if (list) list.push(v);
    else byRule.set(v.signal.ruleId, [v]);
  }
  const transitionInto = (index: number) => {
    const previous = body.steps[index - 1];
    return previous ? body.transitions.find((t) => t.from === previous.id && t.to === body.steps[index].id) : undefined;
  };
  const taken = new Set<number>();
  const matches: Used[][] = [];
  let deepest: Attempt | undefined;
  let firstTransitions: TransitionTrace[] | undefined;
  let firstUsed: Map<string, number> | undefined;

  const fail = (
    depth: number,
    step: Step,
    reason: string,
    transitions: TransitionTrace[],
    used: Used[],
    broke?: Attempt['broke'],
  ) => {
    if (!deepest || depth > deepest.depth) {
      const counts = new Map<string, number>();
      for (const u of used) counts.set(u.step, (counts.get(u.step) ?? 0) + 1);
      deepest = { depth, step: step.id, reason, transitions, used: counts, broke };
    }
    return undefined;
  };

  // anchor = the signal at which the previous step completed (for an absent step: the one before it).
  const search = (
    index: number,
    anchor: Visible | undefined,
    used: Used[],
    transitions: TransitionTrace[],
  ): Used[] | undefined => {
    if (index === body.steps.length) {
      firstTransitions ??= transitions;
      return used;
    }
    const step = body.steps[index];
    const transition = transitionInto(index);
    const withinMinutes = transition?.withinMs === undefined ? undefined : transition.withinMs / 60_000;
    const all = (byRule.get(step.ruleId) ?? []).filter((v) => !taken.has(v.index));
    const after = anchor ? all.filter((v) => v.signal.time >= anchor.signal.time && v !== anchor) : all;
    const inTime =
      anchor && transition?.withinMs !== undefined
        ? after.filter((v) => v.signal.time - anchor.signal.time <= transition.withinMs!)
        : after;
    const candidates = anchor ? inTime.filter((v) => joined(anchor.signal, v.signal, transition)) : inTime;
    const edge = (held: boolean, reason?: TransitionTrace['reason'], to?: Visible): TransitionTrace | undefined =>
      anchor && index > 0
        ? {
            from: body.steps[index - 1].id,
            to: step.id,
            held,
            ...(reason ? { reason } : {}),
            fromTime: anchor.signal.time,
            ...(to ? { toTime: to.signal.time } : {}),
            ...(withinMinutes !== undefined ? { withinMinutes } : {}),
          }
        : undefined;
    const withEdge = (t: TransitionTrace | undefined) => (t ? [...transitions, t] : transitions);

    if (step.absence) {
      if (candidates.length > 0) {
        return fail(
          index,
          step,
          `${step.id}: a ${step.ruleId} signal was seen where none may be`,
          withEdge(edge(false, 'absent', candidates[0])),
          used,
          {
            index: candidates[0].index,
            step: step.id,
          },
        );
      }
      // Without a time frame the absence holds until the run; with one it must have closed by the run time.
      if (!run.complete && anchor && transition?.withinMs !== undefined && anchor.signal.time + transition.withinMs > run.end) {
        return fail(
          index,
          step,
          `${step.id}: the ${withinMinutes}-minute window for ${step.ruleId} is still open`,
          withEdge(edge(false, 'pending')),
          used,
        );
      }
      return search(index + 1, anchor, used, withEdge(edge(true)));
    }
    if (candidates.length < step.min) {
      let reason: string;
      let why: TransitionTrace['reason'] = 'missing';
      if (all.length === 0) reason = `${step.id}: no ${step.ruleId} signals`;
      else if (anchor && after.length === 0) reason = `${step.id}: no ${step.ruleId} signal after ${body.steps[index - 1].id}`;
      else if (anchor && inTime.length < step.min && after.length >= step.min) {
        why = 'expired';
        reason = `${step.id}: ${step.ruleId} came after the ${withinMinutes}-minute window`;
      } else if (anchor && candidates.length < inTime.length) {
        why = 'unjoined';
        reason = `${step.id}: ${step.ruleId} signals do not match on ${transition!.joins.map(([f, t]) => (f === t ? f : `${f}/${t}`)).join(', ')}`;
      } else reason = `${step.id}: ${candidates.length} of ${step.min} ${step.ruleId} signals`;
      return fail(index, step, reason, withEdge(edge(false, why)), used);
    }
    if (step.max !== undefined && candidates.length > step.max) {
      return fail(
        index,
        step,
        `${step.id}: ${candidates.length} ${step.ruleId} signals, more than ${step.max}`,
        withEdge(edge(false)),
        used,
      );
    }
    const order = body.reverse ? [...candidates].reverse() : candidates;
    // Signals counted toward a step's MinMatchCount share the values the step is joined on, before and after.
    const outgoing = body.transitions.find((t) => t.from === step.id);
    const joinFields = [...(transition?.joins.map(([, to]) => to) ?? []), ...(outgoing?.joins.map(([from]) => from) ?? [])];
    let shortOfPeers = false;
    for (const candidate of order) {
      const peers = candidates.filter(
        (v) =>
          v.signal.time <= candidate.signal.time && (v === candidate || sameJoinKeys(v.signal, candidate.signal, joinFields)),
      );
      if (peers.length < step.min) {
        shortOfPeers = true;
        continue;
      }
      const mine = peers.slice(-step.min).map((v) => ({ index: v.index, step: step.id, time: v.signal.time }));
      const found = search(index + 1, candidate, [...used, ...mine], withEdge(edge(true, undefined, candidate)));
      if (found) return found;
    }
    if (shortOfPeers && !deepest)
      fail(index, step, `${step.id}: fewer than ${step.min} ${step.ruleId} signals share their values`, transitions, used);
    return undefined;
  };

  while (matches.length < run.maxMatches) {
    const found = search(0, undefined, [], []);
    if (!found) break;
    firstUsed ??= countByStep(found);
    const match = [...found].sort((a, b) => a.time - b.time || a.index - b.index);
    matches.push(match);
    for (const u of match) taken.add(u.index);
  }
  const seen = (ruleId: string) => byRule.get(ruleId)?.length ?? 0;
  const used = firstUsed ?? deepest?.used ?? new Map<string, number>();
  const failedAt = matches.length ? -1 : (deepest?.depth ?? 0);
  trace.steps = body.steps.map((s, i) => ({
    id: s.id,
    ruleId: s.ruleId,
    seen: seen(s.ruleId),
    used: used.get(s.id) ?? 0,
    held: matches.length > 0 || i < failedAt,
  }));
  trace.transitions = firstTransitions ?? deepest?.transitions ?? [];
  if (!matches.length) {
    trace.stopped = deepest
      ? { step: deepest.step, reason: deepest.reason }
      : { step: body.steps[0]?.id ?? '', reason: 'no signals' };
    if (deepest?.broke) Object.assign(trace.signals[deepest.broke.index], { outcome: 'broke-absence', step: deepest.broke.step });
  }
  return matches;
}

function countByStep(used: Used[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const u of used) counts.set(u.step, (counts.get(u.step) ?? 0) + 1);
  return counts;
}

function sameJoinKeys(a: Signal, b: Signal, fields: readonly string[]): boolean {
  return fields.every((field) => sameValue(signalField(a, field), signalField(b, field)));
}

// --------------------------------------------------------------------------------------------- group

function evaluateGroup(
  body: Extract<CorrelationBody, { form: 'group' }>,
  visible: Visible[],
  trace: CorrelationTrace,
  maxMatches: number,
): Used[][] {
  // An entry's values for the criteria it takes part in; undefined when one of them is missing.
  const valuesOf = (entry: Step, signal: Signal): Map<string, string> | undefined => {
    const values = new Map<string, string>();
    for (const criterion of body.criteria) {
      const field = criterion.fields.get(entry.id);
      if (field === undefined) continue;
      const value = signalField(signal, field);
      if (value === undefined || value === null) return undefined;
      values.set(criterion.name, valueKey(value));
    }
    return values;
  };
  const perEntry = body.entries.map((entry) => {
    const list: { v: Visible; values: Map<string, string> }[] = [];
    for (const v of visible) {
      if (v.signal.ruleId !== entry.ruleId) continue;
      const values = valuesOf(entry, v.signal);
      if (values) list.push({ v, values });
    }
    return list;
  });
  // Candidate groupings: every combination of criterion values some entry's signal carries.
  const wanted = new Map<string, Map<string, string>>();
  perEntry.forEach((list) => {
    for (const { values } of list) wanted.set(JSON.stringify([...values].sort()), values);
  });
  if (!wanted.size) wanted.set('[]', new Map());
  const agrees = (values: Map<string, string>, target: Map<string, string>) => {
    for (const [name, value] of values) if (target.has(name) && target.get(name) !== value) return false;
    return true;
  };
  const matches: Used[][] = [];
  const taken = new Set<number>();
  let best: { satisfied: number; used: Map<string, number>; held: boolean[] } | undefined;
  let firstHeld: boolean[] | undefined;
  let firstUsed: Map<string, number> | undefined;
  for (const target of wanted.values()) {
    if (matches.length >= maxMatches) break;
    const used: Used[] = [];
    const held = body.entries.map((entry, e) => {
      const mine = perEntry[e].filter(({ v, values }) => !taken.has(v.index) && agrees(values, target)).map(({ v }) => v);
      const ok = entry.absence
        ? mine.length === 0
        : mine.length >= entry.min && (entry.max === undefined || mine.length <= entry.max);
      if (ok) used.push(...mine.map((v) => ({ index: v.index, step: entry.id, time: v.signal.time })));
      return ok;
    });
    const satisfied = held.filter(Boolean).length;
    if (satisfied >= body.minMatches && used.length > 0) {
      const match = used.sort((a, b) => a.time - b.time || a.index - b.index);
      matches.push(match);
      for (const u of match) taken.add(u.index);
      firstHeld ??= held;
      firstUsed ??= countByStep(match);
    } else if (!best || satisfied > best.satisfied) best = { satisfied, used: countByStep(used), held };
  }
  const held = firstHeld ?? best?.held ?? body.entries.map(() => false);
  const used = firstUsed ?? best?.used ?? new Map<string, number>();
  trace.steps = body.entries.map((entry, e) => ({
    id: entry.id,
    ruleId: entry.ruleId,
    seen: visible.filter((v) => v.signal.ruleId === entry.ruleId).length,
    used: used.get(entry.id) ?? 0,
    held: held[e],
  }));
  if (!matches.length) {
    const satisfied = best?.satisfied ?? 0;
    const missing = body.entries.filter((_, e) => !held[e]).map((entry) => entry.id);
    trace.stopped = {
      step: missing[0] ?? '',
      reason: `${satisfied} of ${body.minMatches} entries held${missing.length ? ` (not: ${missing.join(', ')})` : ''}`,
    };
  }
  return matches;
}
