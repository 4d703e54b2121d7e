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
  /** From and To the same step: that step's counted signals share the Match values and lie within the time frame. */
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

function joined(previous: Signal, next: Signal, transition: Transition | undefined): boolean {
  if (!transition) return true;
  const from = new Set(
    joinKeys(
      previous,
      transition.joins.map(([field]) => field),
    ),
  );
  return joinKeys(
    next,
    transition.joins.map(([, field]) => field),
  ).some((key) => from.has(key));
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
  const visibleByIndex = new Map<number, Visible>();
  for (const v of visible) {
    visibleByIndex.set(v.index, v);
    const list = byRule.get(v.signal.ruleId);
    if (list) list.push(v);
    else byRule.set(v.signal.ruleId, [v]);
  }
  const transitionInto = (index: number) => {
    const previous = body.steps[index - 1];
    return previous ? body.transitions.find((t) => t.from === previous.id && t.to === body.steps[index].id) : undefined;
  };
  const selfTransition = (step: Step) => body.transitions.find((t) => t.from === step.id && t.to === step.id);
  // Per step: its rule's signals in time order, and (when its incoming transition joins) by join value.
  const indexes = body.steps.map((step, i) => {
    const all = byRule.get(step.ruleId) ?? [];
    const transition = transitionInto(i);
    const joins = transition?.joins ?? [];
    let byJoin: Map<string, Visible[]> | undefined;
    if (joins.length) {
      byJoin = new Map();
      for (const v of all) {
        for (const key of joinKeys(
          v.signal,
          joins.map(([, to]) => to),
        )) {
          const list = byJoin.get(key);
          if (list) list.push(v);
          else byJoin.set(key, [v]);
        }
      }
    }
    const outgoing = body.transitions.find((t) => t.from === step.id && t.to !== step.id);
    const self = selfTransition(step);
    // Signals counted toward a step's MinMatchCount share the values the step is joined on, before and after
    // (and those of its transition to itself).
    const peerFields = [
      ...joins.map(([, to]) => to),
      ...(outgoing?.joins.map(([from]) => from) ?? []),
      ...(self?.joins.map(([from]) => from) ?? []),
    ];
    // A transition to itself also bounds the time from the step's first counted signal to its last.
    return { all, transition, byJoin, peerFields, self, selfWithinMs: self?.withinMs };
  });
  const taken = new Set<number>();
  const failed = new Set<string>();
  const matches: Used[][] = [];
  let deepest: Attempt | undefined;
  let firstTransitions: TransitionTrace[] | undefined;
  let firstUsed: Map<string, number> | undefined;
  let cursor = 0;
  let first0: Grouped | undefined;
  const takenByRule = new Map<string, number>();

  /** The step's signals a transition from `anchor` may reach: [list, lo, hi) in time order (taken ones included). */
  const range = (index: number, anchor: Visible | undefined): [Visible[], number, number] => {
    const { all, transition, byJoin } = indexes[index];
    if (!anchor) return [all, 0, all.length];
    let list = all;
    if (byJoin) {
      const keys = joinKeys(
        anchor.signal,
        transition!.joins.map(([from]) => from),
      );
      if (keys.length <= 1) list = (keys.length ? byJoin.get(keys[0]) : undefined) ?? [];
      else {
        // A list value joins through each of its items: the signals under any of them, once each, in order.
        const union = new Set<Visible>();
        for (const key of keys) for (const v of byJoin.get(key) ?? []) union.add(v);
        list = [...union].sort((a, b) => a.signal.time - b.signal.time || a.index - b.index);
      }
    }
    const lo = lowerBound(list, anchor.signal.time);
    const hi = transition?.withinMs === undefined ? list.length : upperBound(list, anchor.signal.time + transition.withinMs);
    return [list, lo, hi];
  };

  const fail = (
    depth: number,
    step: Step,
    reason: () => string,
    transitions: TransitionTrace[],
    used: Used[],
    broke?: Attempt['broke'],
  ) => {
    if (!deepest || depth > deepest.depth) {
      deepest = { depth, step: step.id, reason: reason(), transitions, used: countByStep(used), broke };
    }
    return undefined;
  };

  // Why a present step found too few signals (computed only for the trace's deepest stop).
  const shortReason = (index: number, anchor: Visible | undefined, found: number): [string, TransitionTrace['reason']] => {
    const step = body.steps[index];
    const { all, transition } = indexes[index];
    const live = all.filter((v) => !taken.has(v.index));
    if (live.length === 0) return [`${step.id}: no ${step.ruleId} signals`, 'missing'];
    if (!anchor) return [`${step.id}: ${found} of ${step.min} ${step.ruleId} signals`, 'missing'];
    const after = live.filter((v) => v.signal.time >= anchor.signal.time && v !== anchor);
    if (after.length === 0) return [`${step.id}: no ${step.ruleId} signal after ${body.steps[index - 1].id}`, 'missing'];
    const withinMs = transition?.withinMs;
    const inTime = withinMs === undefined ? after : after.filter((v) => v.signal.time - anchor.signal.time <= withinMs);
    if (inTime.length < step.min && after.length >= step.min) {
      return [`${step.id}: ${step.ruleId} came after the ${withinMs! / 60_000}-minute window`, 'expired'];
    }
    if (transition?.joins.length && inTime.some((v) => !joined(anchor.signal, v.signal, transition))) {
      const fields = transition.joins.map(([f, t]) => (f === t ? f : `${f}/${t}`)).join(', ');
      return [`${step.id}: ${step.ruleId} signals do not match on ${fields}`, 'unjoined'];
    }
    return [`${step.id}: ${found} of ${step.min} ${step.ruleId} signals`, 'missing'];
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
    const memo = `${index}:${anchor?.index ?? -1}`;
    if (failed.has(memo)) return undefined;
    const found = searchStep(index, anchor, used, transitions);
    // Signals only ever get taken, so a failure here is a failure for every later match too.
    if (!found) failed.add(memo);
    return found;
  };

  const searchStep = (
    index: number,
    anchor: Visible | undefined,
    used: Used[],
    transitions: TransitionTrace[],
  ): Used[] | undefined => {
    const step = body.steps[index];
    const { transition, peerFields, self, selfWithinMs } = indexes[index];
    const withinMinutes = transition?.withinMs === undefined ? undefined : transition.withinMs / 60_000;
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
    const [list, lo, hi] = range(index, anchor);

    if (step.absence) {
      // Any signal breaks an absence, one another match used as well.
      let breaker: Visible | undefined;
      for (let p = lo; p < hi && !breaker; p++) if (list[p] !== anchor) breaker = list[p];
      if (breaker) {
        const b = breaker;
        return fail(
          index,
          step,
          () => `${step.id}: a ${step.ruleId} signal was seen where none may be`,
          withEdge(edge(false, 'absent', b)),
          used,
          {
            index: b.index,
            step: step.id,
          },
        );
      }
      // Without a time frame the absence holds until the run; with one it must have closed by the run time.
      if (!run.complete && anchor && transition?.withinMs !== undefined && anchor.signal.time + transition.withinMs > run.end) {
        return fail(
          index,
          step,
          () => `${step.id}: the ${withinMinutes}-minute window for ${step.ruleId} is still open`,
          withEdge(edge(false, 'pending')),
          used,
        );
      }
      return search(index + 1, anchor, used, withEdge(edge(true)));
    }

    const usable = (v: Visible) => !taken.has(v.index) && v !== anchor;
    const stopShort = (count: number) => {
      if (deepest && deepest.depth >= index) return undefined;
      const [reason, why] = shortReason(index, anchor, count);
      return fail(index, step, () => reason, withEdge(edge(false, why)), used);
    };
    if (step.min === 1 && step.max === undefined) {
      // The common case, lazily: each usable signal in order is a candidate of its own.
      const reverse = body.reverse;
      const first = index === 0 ? cursor : 0;
      let count = 0;
      for (let k = first; k < hi - lo; k++) {
        const p = reverse ? hi - 1 - k : lo + k;
        const candidate = list[p];
        if (!usable(candidate)) {
          if (index === 0 && k === cursor) cursor++;
          continue;
        }
        count++;
        const result = search(
          index + 1,
          candidate,
          [...used, { index: candidate.index, step: step.id, time: candidate.signal.time }],
          withEdge(edge(true, undefined, candidate)),
        );
        if (result) return result;
        if (index === 0 && k === cursor) cursor++;
      }
      return count === 0 ? stopShort(0) : undefined;
    }
    // Each candidate's peers: the candidates up to it that share its join values (groups built once for the first step).
    const grouped = index === 0 && first0 ? first0 : groupCandidates(list, lo, hi, peerFields, anchor);
    if (index === 0) first0 = grouped;
    const live = index === 0 ? grouped.order.length - (takenByRule.get(step.ruleId) ?? 0) : grouped.order.filter(usable).length;
    if (live < step.min) return stopShort(live);
    if (step.max !== undefined && live > step.max) {
      return fail(
        index,
        step,
        () => `${step.id}: ${live} ${step.ruleId} signals, more than ${step.max}`,
        withEdge(edge(false)),
        used,
      );
    }
    let shortOfPeers = false;
    const n = grouped.order.length;
    for (let k = index === 0 ? cursor : 0; k < n; k++) {
      const candidate = grouped.order[body.reverse ? n - 1 - k : k];
      let result: Used[] | undefined;
      if (usable(candidate)) {
        const group = grouped.groups.get(candidate)!;
        const peers: Visible[] = [];
        const earliest = selfWithinMs === undefined ? -Infinity : candidate.signal.time - selfWithinMs;
        for (let q = grouped.position.get(candidate)!; q >= 0 && peers.length < step.min; q--) {
          if (group[q].signal.time < earliest) break;
          if (usable(group[q]) || group[q] === candidate) peers.push(group[q]);
        }
        if (peers.length < step.min) shortOfPeers = true;
        else {
          const mine = peers.reverse().map((v) => ({ index: v.index, step: step.id, time: v.signal.time }));
          // A transition to itself held: from the first counted signal to the last (in the trace as any other).
          const selfEdge: TransitionTrace | undefined = self && {
            from: step.id,
            to: step.id,
            held: true,
            fromTime: mine[0].time,
            toTime: mine[mine.length - 1].time,
            ...(selfWithinMs !== undefined ? { withinMinutes: selfWithinMs / 60_000 } : {}),
          };
          const edges = withEdge(edge(true, undefined, candidate));
          result = search(index + 1, candidate, [...used, ...mine], selfEdge ? [...edges, selfEdge] : edges);
        }
      }
      if (result) return result;
      if (index === 0 && k === cursor) cursor++;
    }
    if (shortOfPeers)
      fail(
        index,
        step,
        () =>
          `${step.id}: fewer than ${step.min} ${step.ruleId} signals share their values` +
          (selfWithinMs === undefined ? '' : ` within ${selfWithinMs / 60_000} minutes`),
        transitions,
        used,
      );
    return undefined;
  };

  while (matches.length < run.maxMatches) {
    const found = search(0, undefined, [], []);
    if (!found) break;
    failed.delete('0:-1');
    firstUsed ??= countByStep(found);
    const match = [...found].sort((a, b) => a.time - b.time || a.index - b.index);
    matches.push(match);
    for (const u of match) {
      taken.add(u.index);
      const ruleId = visibleByIndex.get(u.index)!.signal.ruleId;
      takenByRule.set(ruleId, (takenByRule.get(ruleId) ?? 0) + 1);
    }
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

interface Grouped {
  /** The step's signals in range, in time order. */
  order: Visible[];
  /** Each signal's group (signals sharing its join values, in time order) and its position there. */
  groups: Map<Visible, Visible[]>;
  position: Map<Visible, number>;
}

function groupCandidates(
  list: readonly Visible[],
  lo: number,
  hi: number,
  fields: readonly string[],
  anchor: Visible | undefined,
): Grouped {
  const byKey = new Map<string, Visible[]>();
  const grouped: Grouped = { order: [], groups: new Map(), position: new Map() };
  for (let p = lo; p < hi; p++) {
    const v = list[p];
    if (v === anchor) continue;
    grouped.order.push(v);
    const key = joinKey(v.signal, fields) ?? `#${v.index}`;
    let group = byKey.get(key);
    if (!group) byKey.set(key, (group = []));
    grouped.position.set(v, group.length);
    group.push(v);
    grouped.groups.set(v, group);
  }
  return grouped;
}

const MAX_JOIN_KEYS = 1000;

/**
 * Every key a signal joins under through a transition's Match: one per combination of its fields' values, where
 * a list stands for each of its items, so a list joins a value it holds or another list it shares an item with
 * (the reference content relies on it: a list of instance ids on one side, one id on the other). None when a
 * field is missing or an empty list.
 */
function joinKeys(signal: Signal, fields: readonly string[]): string[] {
  if (fields.length === 0) return [''];
  if (fields.length === 1) {
    const value = signalField(signal, fields[0]);
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) return [valueKey(value)];
  }
  let combos: string[][] = [[]];
  for (const field of fields) {
    const value = signalField(signal, field);
    const items = (Array.isArray(value) ? value : [value]).filter((v) => v !== undefined && v !== null);
    if (items.length === 0) return [];
    const keys = [...new Set(items.map(valueKey))];
    combos = combos.flatMap((c) => keys.map((k) => [...c, k])).slice(0, MAX_JOIN_KEYS);
  }
  return combos.map((parts) => (parts.length === 1 ? parts[0] : JSON.stringify(parts)));
}

/** The composite value of some fields (undefined when one is missing: such a signal joins nothing). */
function joinKey(signal: Signal, fields: readonly string[]): string | undefined {
  if (fields.length === 0) return '';
  const parts: string[] = [];
  for (const field of fields) {
    const value = signalField(signal, field);
    if (value === undefined || value === null) return undefined;
    parts.push(valueKey(value));
  }
  return parts.length === 1 ? parts[0] : JSON.stringify(parts);
}

/** First position whose time is >= t. */
function lowerBound(list: readonly Visible[], t: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].signal.time < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First position whose time is > t. */
function upperBound(list: readonly Visible[], t: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].signal.time <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function countByStep(used: Used[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const u of used) counts.set(u.step, (counts.get(u.step) ?? 0) + 1);
  return counts;
}

// --------------------------------------------------------------------------------------------- group

function evaluateGroup(
  body: Extract<CorrelationBody, { form: 'group' }>,
  visible: Visible[],
  trace: CorrelationTrace,
  maxMatches: number,
): Used[][] {
  // An entry's values for the criteria it takes part in, each criterion's value as the keys it matches under (a
  // list stands for each of its items, as in a transition's Match): every combination, one per grouping the
  // signal may join. Empty when one of them is missing.
  const combosOf = (entry: Step, signal: Signal): Map<string, string>[] => {
    const values = new Map<string, string>();
    let lists: [string, string[]][] | undefined;
    for (const criterion of body.criteria) {
      const field = criterion.fields.get(entry.id);
      if (field === undefined) continue;
      const value = signalField(signal, field);
      if (value === undefined || value === null) return [];
      if (!Array.isArray(value)) {
        values.set(criterion.name, valueKey(value));
        continue;
      }
      const keys = [...new Set(value.filter((v) => v !== undefined && v !== null).map(valueKey))];
      if (keys.length === 0) return [];
      (lists ??= []).push([criterion.name, keys]);
    }
    if (!lists) return [values];
    let combos = [values];
    for (const [name, keys] of lists)
      combos = combos.flatMap((c) => keys.map((k) => new Map(c).set(name, k))).slice(0, MAX_JOIN_KEYS);
    return combos;
  };
  const perEntry = body.entries.map((entry) => {
    const list: { v: Visible; combos: Map<string, string>[] }[] = [];
    // The entry's signals by the values of the criteria it takes part in.
    const byValues = new Map<string, Visible[]>();
    const names = body.criteria.filter((c) => c.fields.has(entry.id)).map((c) => c.name);
    for (const v of visible) {
      if (v.signal.ruleId !== entry.ruleId) continue;
      const combos = combosOf(entry, v.signal);
      if (!combos.length) continue;
      list.push({ v, combos });
      for (const values of combos) {
        const key = JSON.stringify(names.map((n) => values.get(n)));
        const same = byValues.get(key);
        if (same) same.push(v);
        else byValues.set(key, [v]);
      }
    }
    return { list, names, byValues };
  });
  // Candidate groupings: every combination of criterion values some entry's signal carries.
  const wanted = new Map<string, Map<string, string>>();
  perEntry.forEach(({ list }) => {
    for (const { combos } of list) {
      for (const values of combos) {
        const key = JSON.stringify([...values].sort());
        if (!wanted.has(key)) wanted.set(key, values);
      }
    }
  });
  if (!wanted.size) wanted.set('[]', new Map());
  const agrees = (values: Map<string, string>, target: Map<string, string>) => {
    for (const [name, value] of values) if (target.has(name) && target.get(name) !== value) return false;
    return true;
  };
  const signalsFor = (e: number, target: Map<string, string>): Visible[] => {
    const { list, names, byValues } = perEntry[e];
    if (names.every((n) => target.has(n))) return byValues.get(JSON.stringify(names.map((n) => target.get(n)))) ?? [];
    return list.filter(({ combos }) => combos.some((values) => agrees(values, target))).map(({ v }) => v);
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
      const mine = signalsFor(e, target).filter((v) => !taken.has(v.index));
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
