// Time filters: finds the p_event_time bounds a query states, and turns bounds into partition predicates on
// the lake's year/month/day/hour partition columns, so a query reads only the partitions it needs.
import type * as A from './ast';
import { EVENT_TIME, PARTITION_COLUMNS } from './catalog';
import type { Analysis } from './checker';
import { conjuncts, isTimestampText, walk } from './checker';
import type { Dialect } from './dialect';

export interface TimeRange {
  readonly from: Date | string | number;
  readonly to: Date | string | number;
}

export interface TimeBounds {
  /** Whether the predicates mention p_event_time at all (then the UI's time range is not applied). */
  readonly named: boolean;
  /** Inclusive lower and upper bounds in epoch milliseconds, where the predicates state them as constants. */
  readonly from?: number;
  readonly to?: number;
}

export function toMillis(t: Date | string | number): number {
  if (t instanceof Date) return t.getTime();
  if (typeof t === 'number') return t;
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(t) ? t.replace(' ', 'T') : t.replace(' ', 'T') + 'Z');
  if (Number.isNaN(ms)) throw new Error(`not a timestamp: '${t}'`);
  return ms;
}

/** Epoch milliseconds of an expression the compiler can evaluate (a timestamp literal, time.now(), time.ago(1d), ...). */
export function constantTime(e: A.Expr, analysis: Analysis, now: number): number | undefined {
  if (e.kind === 'literal' && e.type === 'string' && analysis.timestampLiterals.has(e)) return toMillis(String(e.value));
  if (e.kind === 'name') {
    const binding = analysis.scalarLets.get(e);
    return binding ? constantTime(binding.expr, analysis, now) : undefined;
  }
  if (e.kind === 'binary' && (e.op === '+' || e.op === '-') && e.right.kind === 'literal' && e.right.type === 'timespan') {
    const base = constantTime(e.left, analysis, now);
    return base === undefined ? undefined : base + (e.op === '+' ? 1 : -1) * Number(e.right.value);
  }
  if (e.kind !== 'call') return undefined;
  const [a, b] = e.args;
  switch (e.callee.name) {
    case 'time.now':
      return now;
    case 'time.ago':
      return a?.kind === 'literal' && a.type === 'timespan' ? now - Number(a.value) : undefined;
    case 'time.parse_timestamp':
      return a?.kind === 'literal' && a.type === 'string' && isTimestampText(String(a.value)) ? toMillis(String(a.value)) : undefined;
    case 'time.add': {
      const base = a && constantTime(a, analysis, now);
      return base !== undefined && b?.kind === 'literal' && b.type === 'timespan' ? base + Number(b.value) : undefined;
    }
    default:
      return undefined;
  }
}

const isEventTime = (e: A.Expr, analysis: Analysis) => e.kind === 'name' && e.name === EVENT_TIME && !analysis.scalarLets.has(e);

/** Bounds stated by `where` predicates that run directly on a table (before anything that changes rows). */
export function timeBounds(predicates: readonly A.Expr[], analysis: Analysis, now: number): TimeBounds {
  let named = false;
  let from: number | undefined;
  let to: number | undefined;
  const lower = (ms: number | undefined) => ms !== undefined && (from = from === undefined ? ms : Math.max(from, ms));
  const upper = (ms: number | undefined) => ms !== undefined && (to = to === undefined ? ms : Math.min(to, ms));
  for (const p of predicates) {
    walk(p, (x) => {
      if (isEventTime(x, analysis)) named = true;
    });
    for (const c of conjuncts(p)) {
      if (c.kind === 'between' && !c.negated && isEventTime(c.value, analysis)) {
        lower(constantTime(c.low, analysis, now));
        upper(constantTime(c.high, analysis, now));
      }
      if (c.kind !== 'binary') continue;
      const flip: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '==': '==' };
      const [op, other] = isEventTime(c.left, analysis) ? [c.op, c.right] : isEventTime(c.right, analysis) ? [flip[c.op], c.left] : [undefined, undefined];
      if (!op || !other) continue;
      const ms = constantTime(other, analysis, now);
      if (op === '>' || op === '>=' || op === '==') lower(ms);
      if (op === '<' || op === '<=' || op === '==') upper(ms);
    }
  }
  return { named, ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
}

function parts(ms: number): number[] {
  const d = new Date(ms);
  return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours()];
}

/** (year, month, day, hour) compared lexicographically with the hour holding `ms`. */
function tupleCompare(d: Dialect, ms: number, op: '>=' | '<='): string {
  const values = parts(ms);
  const strict = op === '>=' ? '>' : '<';
  let sql = `${d.ident(PARTITION_COLUMNS[3])} ${op} ${values[3]}`;
  for (let i = 2; i >= 0; i--) {
    const col = d.ident(PARTITION_COLUMNS[i]);
    sql = `(${col} ${strict} ${values[i]} OR (${col} = ${values[i]} AND ${sql}))`;
  }
  return sql;
}

export function partitionPredicates(d: Dialect, bounds: { from?: number; to?: number }): string[] {
  const out: string[] = [];
  if (bounds.from !== undefined) out.push(tupleCompare(d, bounds.from, '>='));
  if (bounds.to !== undefined) out.push(tupleCompare(d, bounds.to, '<='));
  return out;
}
