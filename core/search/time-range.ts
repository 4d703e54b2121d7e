// A search's time range: one of twelve presets (PT20M ... PAllTime) or a custom from/to, resolved to
// instants, and the partition filter every query of the range carries (the lake's year/month/day/hour columns).
import { timestampLiteral } from '../lake/sql-text';

export const TIME_RANGE_PRESETS = [
  'PT20M',
  'PT1H',
  'PT3H',
  'PT6H',
  'PT12H',
  'PT24H',
  'P3D',
  'P1W',
  'P1M',
  'P3M',
  'P6M',
  'PAllTime',
] as const;
export type TimeRangePreset = (typeof TIME_RANGE_PRESETS)[number];
export const DEFAULT_PRESET: TimeRangePreset = 'PT24H';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Searches stay in the history this many days, then expire. */
export const HISTORY_DAYS = 30;

export interface ResolvedRange {
  /** ISO 8601; absent for all time. */
  readonly from?: string;
  readonly to: string;
}

export interface TimeRangeInput {
  readonly preset?: string | null;
  readonly from?: string | null;
  readonly to?: string | null;
}

export class TimeRangeError extends Error {}

export const isPreset = (v: unknown): v is TimeRangePreset =>
  typeof v === 'string' && (TIME_RANGE_PRESETS as readonly string[]).includes(v);

/** A preset or a custom range → instants (now for `to` unless given); throws TimeRangeError for a bad range. */
export function resolveTimeRange(input: TimeRangeInput, now = new Date()): ResolvedRange {
  if (input.preset !== undefined && input.preset !== null && input.preset !== '') {
    if (!isPreset(input.preset)) throw new TimeRangeError(`timeRange.preset must be one of ${TIME_RANGE_PRESETS.join(', ')}`);
    if (input.from || input.to) throw new TimeRangeError('timeRange takes a preset or from/to, not both');
    const to = now.getTime();
    if (input.preset === 'PAllTime') return { to: new Date(to).toISOString() };
    return { from: new Date(to - presetMillis(input.preset, now)).toISOString(), to: new Date(to).toISOString() };
  }
  const from = input.from ? Date.parse(input.from) : NaN;
  const to = input.to ? Date.parse(input.to) : now.getTime();
  if (!input.from || Number.isNaN(from)) throw new TimeRangeError('timeRange needs a preset or a from time');
  if (Number.isNaN(to)) throw new TimeRangeError('timeRange.to is not a time');
  if (from > to) throw new TimeRangeError('timeRange.from must be before timeRange.to');
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
}

function presetMillis(preset: Exclude<TimeRangePreset, 'PAllTime'>, now: Date): number {
  const months = { P1M: 1, P3M: 3, P6M: 6 } as const;
  if (preset in months) {
    const back = new Date(now);
    back.setUTCMonth(back.getUTCMonth() - months[preset as keyof typeof months]);
    return now.getTime() - back.getTime();
  }
  const m = /^PT(\d+)([HM])$/.exec(preset);
  if (m) return Number(m[1]) * (m[2] === 'H' ? HOUR : 60_000);
  if (preset === 'P3D') return 3 * DAY;
  return 7 * DAY; // P1W
}

/**
 * The partition predicate of a range (column names through `column`): the days it spans as
 * `(year = Y AND month = M AND day = D)` terms (at most 62), else the months it spans; all time: TRUE. Both
 * Athena's partition projection and DuckDB's hive partitions prune on these plain comparisons.
 */
export function partitionFilter(range: ResolvedRange, column = (name: string) => name): string {
  if (!range.from) return 'TRUE';
  const [y, m, d] = ['year', 'month', 'day'].map(column);
  const start = Date.UTC(...ymd(range.from));
  const end = Date.UTC(...ymd(range.to));
  const days = Math.round((end - start) / DAY) + 1;
  if (days <= 62) {
    const terms: string[] = [];
    for (let t = start; t <= end; t += DAY) {
      const day = new Date(t);
      terms.push(`(${y} = ${day.getUTCFullYear()} AND ${m} = ${day.getUTCMonth() + 1} AND ${d} = ${day.getUTCDate()})`);
    }
    return terms.length === 1 ? terms[0] : `(${terms.join(' OR ')})`;
  }
  const [fy, fm] = ymd(range.from);
  const [ty, tm] = ymd(range.to);
  return `(${y} * 100 + ${m} BETWEEN ${fy * 100 + fm + 1} AND ${ty * 100 + tm + 1} AND ${y} BETWEEN ${fy} AND ${ty})`;
}

const ymd = (iso: string): [number, number, number] => {
  const t = new Date(iso);
  return [t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate()];
};

/** The range's bounds on p_event_time, as a predicate in the lake's timestamp text (works in Athena and DuckDB). */
export function eventTimeFilter(range: ResolvedRange, column = 'p_event_time'): string {
  const ts = (iso: string) => timestampLiteral(Date.parse(iso));
  if (!range.from) return `${column} <= ${ts(range.to)}`;
  return `${column} BETWEEN ${ts(range.from)} AND ${ts(range.to)}`;
}
