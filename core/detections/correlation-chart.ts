// The correlation-rule editor's flow chart as pure functions: the `Detection` YAML text in, the
// chart's state out (empty, invalid YAML, or nodes, edges and the flow-chart messages), and the conversion
// between the sequence and group forms. The messages come from validateCorrelationRule, the same check the
// server applies when a correlation rule is saved, so the chart and the save never disagree.
import { stringify } from 'yaml';
import { readYaml } from '../yaml';
import { validateCorrelationRule, type CorrelationIssue } from './correlation';
import { isRecord } from './shape';

export const EMPTY_CHART = "You haven't added any rules yet!";
export const DISABLED_RULE = 'This rule is currently disabled. Please enable for the Correlation Rule to work.';
export const NO_RULE_FOUND = 'No rule found';
export const CANNOT_USE_POLICIES = 'Cannot use policies';
export const ABSENT_WITH_COUNTS = 'The rule cannot be absent with min or max match count';

/** The validation messages shown over the chart (the step-node ones sit on their node). */
export const FLOW_CHART_MESSAGES: readonly string[] = [
  'Cannot have duplicate IDs',
  'Missing ID in Sequence',
  'A rule cannot reference itself',
  'Cannot have duplicate RuleIDs',
  'Missing RuleID in Sequence',
  'Missing RuleID in Group',
  'Too many transitions',
  'Missing transition',
  'Invalid Transitions: Can only have one transition between each node in order',
];

/** The body's keys, for the editor's completion (top level, steps, transitions). */
export const BODY_KEYS = {
  top: [
    'Sequence',
    'Group',
    'Transitions',
    'MinMatchCount',
    'MatchCriteria',
    'Schedule',
    'LookbackWindowMinutes',
    'EventEvaluationOrder',
  ],
  step: ['ID', 'RuleID', 'SignalMatch', 'MinMatchCount', 'MaxMatchCount', 'Absence'],
  transition: ['ID', 'From', 'To', 'WithinTimeFrameMinutes', 'Match'],
  schedule: ['RateMinutes', 'CronExpression', 'TimeoutMinutes'],
} as const;

export interface ChartNode {
  /** The step's ID, or `#n` (1-based) when it has none. */
  key: string;
  id?: string;
  ruleId?: string;
  absence: boolean;
  minMatchCount?: number;
  maxMatchCount?: number;
  /** Messages of this node alone ('The rule cannot be absent with min or max match count'). */
  messages: string[];
}

export interface ChartEdge {
  from: string;
  to: string;
  id?: string;
  withinMinutes?: number;
  /** 'On field' or 'from → to' of the transition's Match. */
  match?: string;
}

export type CorrelationChart =
  | { state: 'empty' }
  | { state: 'invalid'; error: string }
  | {
      state: 'chart';
      form: 'sequence' | 'group';
      nodes: ChartNode[];
      edges: ChartEdge[];
      /** The group's MinMatchCount (all entries when absent). */
      minMatchCount?: number;
      /** The group's MatchCriteria, one line each: 'On user', or 'user: Login.actor = Admin.target'. */
      criteria?: string[];
      lookbackMinutes?: number;
      /** The rule's validation messages: errors and the one warning. */
      messages: CorrelationIssue[];
    };

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

function readBody(text: string): { value: unknown } | { error: string } {
  try {
    return { value: readYaml(text) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** The chart of a `Detection` YAML text; `ruleId` is the correlation rule's own id ('A rule cannot reference itself'). */
export function correlationChart(text: string, ruleId?: string): CorrelationChart {
  if (!text.trim()) return { state: 'empty' };
  const read = readBody(text);
  if ('error' in read) return { state: 'invalid', error: read.error };
  const value = read.value;
  if (value === null || (Array.isArray(value) && value.length === 0)) return { state: 'empty' };
  if (!Array.isArray(value) || value.length !== 1 || !isRecord(value[0]))
    return { state: 'invalid', error: 'The body must be a list of exactly one item, in sequence or group form' };
  const body = value[0];
  const isSequence = 'Sequence' in body;
  if (isSequence === 'Group' in body) return { state: 'invalid', error: 'The body needs exactly one of Sequence or Group' };
  const raw = isSequence ? body.Sequence : body.Group;
  if (raw === null || raw === undefined || (Array.isArray(raw) && raw.length === 0)) return { state: 'empty' };
  if (!Array.isArray(raw)) return { state: 'invalid', error: `${isSequence ? 'Sequence' : 'Group'} must be a list` };

  const nodes: ChartNode[] = raw.map((step, index) => {
    const s = isRecord(step) ? step : {};
    const absence = s.Absence === true;
    return {
      key: typeof s.ID === 'string' && s.ID ? s.ID : `#${index + 1}`,
      id: typeof s.ID === 'string' ? s.ID : undefined,
      ruleId: typeof s.RuleID === 'string' && s.RuleID ? s.RuleID : undefined,
      absence,
      minMatchCount: isInt(s.MinMatchCount) ? s.MinMatchCount : undefined,
      maxMatchCount: isInt(s.MaxMatchCount) ? s.MaxMatchCount : undefined,
      messages: absence && (s.MinMatchCount !== undefined || s.MaxMatchCount !== undefined) ? [ABSENT_WITH_COUNTS] : [],
    };
  });
  const edges: ChartEdge[] = [];
  if (isSequence) {
    const transitions = Array.isArray(body.Transitions) ? body.Transitions.filter(isRecord) : [];
    if (transitions.length === 0) {
      // Without transitions the steps still follow one another, with no time frame.
      for (let i = 1; i < nodes.length; i++) edges.push({ from: nodes[i - 1].key, to: nodes[i].key });
    }
    for (const t of transitions) {
      if (typeof t.From !== 'string' || typeof t.To !== 'string') continue;
      const m = Array.isArray(t.Match) && isRecord(t.Match[0]) ? t.Match[0] : undefined;
      edges.push({
        from: t.From,
        to: t.To,
        id: typeof t.ID === 'string' ? t.ID : undefined,
        withinMinutes: isInt(t.WithinTimeFrameMinutes) ? t.WithinTimeFrameMinutes : undefined,
        match: m ? (typeof m.On === 'string' ? `On ${m.On}` : `${String(m.From)} → ${String(m.To)}`) : undefined,
      });
    }
  }
  const flowChart = new Set(FLOW_CHART_MESSAGES);
  const seen = new Set<string>();
  const messages = validateCorrelationRule(value, { ruleId }).filter((issue) => {
    if (!flowChart.has(issue.message) || seen.has(issue.message)) return false;
    seen.add(issue.message);
    return true;
  });
  return {
    state: 'chart',
    form: isSequence ? 'sequence' : 'group',
    nodes,
    edges,
    minMatchCount: !isSequence && isInt(body.MinMatchCount) ? body.MinMatchCount : undefined,
    ...(isSequence ? {} : { criteria: criteriaLines(body.MatchCriteria) }),
    lookbackMinutes: isInt(body.LookbackWindowMinutes) ? body.LookbackWindowMinutes : undefined,
    messages,
  };
}

/** A group's MatchCriteria as lines: 'On field' when every entry matches the same field, else each entry's field. */
function criteriaLines(criteria: unknown): string[] {
  if (!isRecord(criteria)) return [];
  return Object.entries(criteria).flatMap(([name, list]) => {
    const entries = (Array.isArray(list) ? list : []).filter(isRecord).map((e) => [String(e.GroupID), String(e.Match)]);
    if (!entries.length) return [];
    const fields = new Set(entries.map(([, field]) => field));
    return [
      fields.size === 1 ? `On ${[...fields][0]}` : `${name}: ${entries.map(([id, field]) => `${id}.${field}`).join(' = ')}`,
    ];
  });
}

/** How a referenced rule looks from the chart: what its step node says, if anything. */
export function stepRuleMessage(rule: { analysisType: string; enabled: boolean } | null): string | undefined {
  if (rule === null) return NO_RULE_FOUND;
  if (rule.analysisType === 'POLICY' || rule.analysisType === 'policy') return CANNOT_USE_POLICIES;
  if (!rule.enabled) return DISABLED_RULE;
  return undefined;
}

/** The form of a body text, when it is a sequence or a group ('Organize Rules as …' is shown only then). */
export function bodyForm(text: string): 'sequence' | 'group' | undefined {
  const read = readBody(text);
  if ('error' in read || !Array.isArray(read.value) || read.value.length !== 1 || !isRecord(read.value[0])) return undefined;
  const body = read.value[0];
  if ('Sequence' in body && !('Group' in body)) return 'sequence';
  if ('Group' in body && !('Sequence' in body)) return 'group';
  return undefined;
}

const STEP_KEYS = ['ID', 'RuleID', 'SignalMatch', 'MinMatchCount', 'MaxMatchCount', 'Absence'];

/**
 * The body converted to the other form ('Organize Rules as Group' / 'as Sequence'). A sequence's
 * transitions that join on fields become the group's MatchCriteria, and back; time frames have no place in
 * a group and are dropped; the common keys (Schedule, LookbackWindowMinutes, EventEvaluationOrder) stay.
 */
/**
 * The group form has no time frames: converting a sequence to a group keeps each transition's time frame in a
 * comment line at the end of the group's YAML (`# time-frame: ["From","To",minutes]`, short lines, so the
 * body stays in view), and converting back restores them (by From and To).
 */
export const TIME_FRAMES_COMMENT = '# time-frame: ';
/** The lines above them, for the person reading the YAML. */
export const TIME_FRAMES_NOTE = '# A group has no time frames:\n# Organize Rules as Sequence restores these.';

interface TimeFrame {
  readonly From: string;
  readonly To: string;
  readonly WithinTimeFrameMinutes: number;
}

/** The time frames a sequence→group conversion kept in the text's comments, if any. */
export function keptTimeFrames(text: string): TimeFrame[] {
  return text.split('\n').flatMap((line) => {
    if (!line.startsWith(TIME_FRAMES_COMMENT)) return [];
    try {
      const frame: unknown = JSON.parse(line.slice(TIME_FRAMES_COMMENT.length));
      return Array.isArray(frame) && typeof frame[0] === 'string' && typeof frame[1] === 'string' && typeof frame[2] === 'number'
        ? [{ From: frame[0], To: frame[1], WithinTimeFrameMinutes: frame[2] }]
        : [];
    } catch {
      return [];
    }
  });
}

export function organizeAs(text: string, form: 'sequence' | 'group'): string {
  const current = bodyForm(text);
  if (!current) throw new Error('The body is not a sequence or a group');
  if (current === form) return text;
  const body = (readYaml(text) as Record<string, unknown>[])[0];
  const steps = ((current === 'sequence' ? body.Sequence : body.Group) as unknown[]).map((step, index) => {
    const s = isRecord(step) ? step : {};
    const out: Record<string, unknown> = {};
    for (const key of STEP_KEYS) if (s[key] !== undefined) out[key] = s[key];
    if (out.ID === undefined) out.ID = `Step${index + 1}`;
    return out;
  });
  const common: Record<string, unknown> = {};
  for (const key of ['Schedule', 'LookbackWindowMinutes', 'EventEvaluationOrder'])
    if (body[key] !== undefined) common[key] = body[key];
  let next: Record<string, unknown>;
  if (form === 'group') {
    const criteria: Record<string, { GroupID: string; Match: string }[]> = {};
    for (const t of Array.isArray(body.Transitions) ? body.Transitions.filter(isRecord) : []) {
      const m = Array.isArray(t.Match) && isRecord(t.Match[0]) ? t.Match[0] : undefined;
      if (!m || typeof t.From !== 'string' || typeof t.To !== 'string') continue;
      const [fromField, toField] = typeof m.On === 'string' ? [m.On, m.On] : [String(m.From), String(m.To)];
      const name = typeof m.On === 'string' ? m.On : fromField;
      const list = (criteria[name] ??= []);
      for (const entry of [
        { GroupID: t.From, Match: fromField },
        { GroupID: t.To, Match: toField },
      ])
        if (!list.some((e) => e.GroupID === entry.GroupID)) list.push(entry);
    }
    next = { Group: steps, ...(Object.keys(criteria).length ? { MatchCriteria: criteria } : {}), ...common };
    const frames = (Array.isArray(body.Transitions) ? body.Transitions.filter(isRecord) : [])
      .filter((t) => typeof t.From === 'string' && typeof t.To === 'string' && typeof t.WithinTimeFrameMinutes === 'number')
      .map((t) => ({ From: t.From, To: t.To, WithinTimeFrameMinutes: t.WithinTimeFrameMinutes }));
    // At the end, on short lines: the body stays in view at the top of the editor.
    const kept = frames.map((f) => `${TIME_FRAMES_COMMENT}${JSON.stringify([f.From, f.To, f.WithinTimeFrameMinutes])}\n`);
    if (kept.length) return `${stringify([next])}${TIME_FRAMES_NOTE}\n${kept.join('')}`;
  } else {
    const transitions: Record<string, unknown>[] = [];
    const frames = keptTimeFrames(text);
    const criteria = isRecord(body.MatchCriteria) ? body.MatchCriteria : {};
    for (let i = 1; i < steps.length; i++) {
      const from = String(steps[i - 1].ID);
      const to = String(steps[i].ID);
      const t: Record<string, unknown> = { ID: `${from} to ${to}`, From: from, To: to };
      const frame = frames.find((f) => f.From === from && f.To === to);
      if (frame) t.WithinTimeFrameMinutes = frame.WithinTimeFrameMinutes;
      for (const list of Object.values(criteria)) {
        if (!Array.isArray(list)) continue;
        const a = list.find((e) => isRecord(e) && e.GroupID === from) as { Match?: string } | undefined;
        const b = list.find((e) => isRecord(e) && e.GroupID === to) as { Match?: string } | undefined;
        if (a?.Match && b?.Match) {
          t.Match = [a.Match === b.Match ? { On: a.Match } : { From: a.Match, To: b.Match }];
          break;
        }
      }
      transitions.push(t);
    }
    next = { Sequence: steps, ...(transitions.length ? { Transitions: transitions } : {}), ...common };
  }
  return stringify([next]);
}
