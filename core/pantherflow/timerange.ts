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
      return a?.kind === 'literal' && a.type === 'string' && isTimestampText(String(a.value))
        ? toMillis(String(a.value))
        : undefined;
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
      const [op, other] = isEventTime(c.left, analysis)
        ? [c.op, c.right]
        : isEventTime(c.right, analysis)
          ? [flip[c.op], c.left]
          : [undefined, undefined];
      if (!op || !other) continue;
      const ms = constantTime(other, analysis, now);
      if (op === '>' || op === '>=' || op === '==') lower(ms);
      if (op === '<=' || op === '==') upper(ms);
      if (op === '<') upper(ms === undefined ? undefined : ms - 1);
    }
  }
  return { named, ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
}

function parts(ms: number): number[] {
  const d = new Date(ms);
  return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours()];
}

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** (partition columns from `from`) compared lexicographically with `values[from..]`. */
function tupleCompare(d: Dialect, values: number[], from: number, op: '>=' | '<='): string {
  const strict = op === '>=' ? '>' : '<';
  let sql = `${d.ident(PARTITION_COLUMNS[3])} ${op} ${values[3]}`;
  for (let i = 2; i >= from; i--) {
    const col = d.ident(PARTITION_COLUMNS[i]);
    sql = `(${col} ${strict} ${values[i]} OR (${col} = ${values[i]} AND ${sql}))`;
  }
  return sql;
}

/**
 * Predicates on year/month/day/hour selecting the hours from `from` to `to` (inclusive): equalities on the
 * leading parts both bounds share, then range comparisons on the rest, leaving out a bound that excludes nothing.
 */
export function partitionPredicates(d: Dialect, bounds: { from?: number; to?: number }): string[] {
  const lo = bounds.from !== undefined ? parts(bounds.from) : undefined;
  const hi = bounds.to !== undefined ? parts(bounds.to) : undefined;
  if (lo && hi && bounds.from! > bounds.to!) return ['FALSE'];
  const out: string[] = [];
  let k = 0;
  if (lo && hi) {
    while (k < 4 && lo[k] === hi[k]) {
      out.push(`${d.ident(PARTITION_COLUMNS[k])} = ${lo[k]}`);
      k++;
    }
  }
  if (k === 4) return out;
  if (lo) {
    const least = [0, 1, 1, 0];
    if (k === 0 || lo.slice(k).some((v, i) => v !== least[k + i])) out.push(tupleCompare(d, lo, k, '>='));
  }
  if (hi) {
    const most = [0, 12, daysInMonth(hi[0], hi[1]), 23];
    if (k === 0 || hi.slice(k).some((v, i) => v !== most[k + i])) out.push(tupleCompare(d, hi, k, '<='));
  }
  return out;
}
