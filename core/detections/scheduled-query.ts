// Saved and scheduled queries (panther-analysis `saved_query` / `scheduled_query`): which query text an item
// holds (Query, AthenaQuery or SnowflakeQuery are SQL; PantherFlowQuery is PantherFlow), the checks a save
// applies beyond the YAML shape (a schedule that requires a limit clause must contain one; a query lacking
// the occurrence-time or event-time placeholders is flagged; rate or cron; timeout bounds; read-only SQL), and
// the time placeholders a run fills from its schedule window. Pure: the save checks, the run worker and the
// editor share it.
//
// Which schedules require a LIMIT: a scheduled query whose rows are events (no aggregation), since every row
// goes through the scheduled rules; one that aggregates (a top-level GROUP BY or SELECT DISTINCT, or a
// PantherFlow `summarize`) returns one row per group and is bounded by its groups, as most of the public
// content's scheduled queries are. A run never passes more than MAX_SCHEDULED_ROWS rows either way.
import { quoteName, timestampLiteral } from '../lake/sql-text';
import { checkReadOnlySql } from '../search/sql/guard';
import { tokenizeSql, SqlTokenError, type SqlToken } from '../search/sql/tokens';
import { parseCron, nextCronTime } from './schedule';
import type { SaveProblem } from './save-checks';

export type QueryLanguage = 'SQL' | 'PANTHERFLOW';

/** The keys that hold a query's text, in the order the reference tool reads them. */
export const QUERY_TEXT_KEYS = ['Query', 'AthenaQuery', 'SnowflakeQuery', 'PantherFlowQuery'] as const;

/** Longest TimeoutMinutes a scheduled query may ask for (the run worker's own limit is 15 minutes). */
export const MAX_QUERY_TIMEOUT_MINUTES = 10;
/** Most rows one run passes to the scheduled rules; a scheduled query's LIMIT may not ask for more. */
export const MAX_SCHEDULED_ROWS = 10_000;
/** Longest QueryName. */
export const MAX_QUERY_NAME = 256;

/** The occurrence-time placeholders a scheduled query's SQL may use; a run fills them from its window. */
export const TIME_PLACEHOLDERS = [
  'p_occurs_since',
  'p_occurs_between',
  'p_occurs_after',
  'p_occurs_before',
  'p_occurs_around',
] as const;

export const LIMIT_REQUIRED = `A scheduled query that returns events (no GROUP BY, DISTINCT or summarize) must contain a LIMIT clause of at most ${MAX_SCHEDULED_ROWS.toLocaleString('en-US')} rows`;
export const limitTooLarge = (n: number) =>
  `The LIMIT clause asks for ${n} rows; a scheduled query may return at most ${MAX_SCHEDULED_ROWS.toLocaleString('en-US')}`;
export const NO_TIME_PLACEHOLDER =
  'The query uses no occurrence-time or event-time placeholder (p_occurs_since, p_occurs_between, p_occurs_after, p_occurs_before, p_occurs_around or p_event_time): each run reads only its schedule window';
export const TIMEOUT_RANGE = `TimeoutMinutes must be from 1 to ${MAX_QUERY_TIMEOUT_MINUTES}`;
export const QUERY_NAME_RULE = `Must be 1 to ${MAX_QUERY_NAME} characters, without line breaks or leading and trailing spaces`;

export interface QueryText {
  readonly key: (typeof QUERY_TEXT_KEYS)[number];
  readonly language: QueryLanguage;
  readonly text: string;
}

/** The query an item holds (its one query key), or undefined. */
export function queryOf(spec: Record<string, unknown>): QueryText | undefined {
  for (const key of QUERY_TEXT_KEYS) {
    const text = spec[key];
    if (typeof text === 'string') return { key, language: key === 'PantherFlowQuery' ? 'PANTHERFLOW' : 'SQL', text };
  }
  return undefined;
}

export interface QuerySchedule {
  readonly RateMinutes?: number;
  readonly CronExpression?: string;
  readonly TimeoutMinutes?: number;
}

/** A scheduled query's Schedule, when it has one. */
export function scheduleOf(spec: Record<string, unknown>): QuerySchedule | undefined {
  const schedule = spec.Schedule;
  return schedule && typeof schedule === 'object' && !Array.isArray(schedule) ? (schedule as QuerySchedule) : undefined;
}

/** Why a QueryName cannot be saved, or undefined (names may hold spaces, as the public content's do). */
export function queryNameProblem(name: string): string | undefined {
  // eslint-disable-next-line no-control-regex -- control characters are what the rule refuses
  if (!name || name.length > MAX_QUERY_NAME || name.trim() !== name || /[\u0000-\u001f\u007f]/.test(name)) return QUERY_NAME_RULE;
  return undefined;
}

function tokens(sql: string): SqlToken[] | undefined {
  try {
    return tokenizeSql(sql);
  } catch (e) {
    if (e instanceof SqlTokenError) return undefined;
    throw e;
  }
}

/** The row count of the query's outermost LIMIT (SQL: at parenthesis depth 0; PantherFlow: a `| limit N` stage), or undefined. */
export function limitOf(language: QueryLanguage, text: string): number | undefined {
  if (language === 'PANTHERFLOW') {
    let found: number | undefined;
    for (const m of text.replace(/\/\/[^\n]*/g, '').matchAll(/\|\s*limit\s+(\d+)/g)) found = Number(m[1]);
    return found;
  }
  const list = tokens(text) ?? [];
  let depth = 0;
  let found: number | undefined;
  list.forEach((t, i) => {
    if (t.kind === 'punct' && t.text === '(') depth++;
    else if (t.kind === 'punct' && t.text === ')') depth--;
    else if (depth === 0 && t.kind === 'word' && t.upper === 'LIMIT' && list[i + 1]?.kind === 'number')
      found = Number(list[i + 1].text);
  });
  return found;
}

/** Whether the query aggregates: a top-level GROUP BY or SELECT DISTINCT (SQL), a `summarize` stage (PantherFlow). */
export function aggregates(language: QueryLanguage, text: string): boolean {
  if (language === 'PANTHERFLOW') return /\|\s*summarize\b/.test(text.replace(/\/\/[^\n]*/g, ''));
  const list = tokens(text) ?? [];
  let depth = 0;
  return list.some((t, i) => {
    if (t.kind === 'punct' && t.text === '(') depth++;
    else if (t.kind === 'punct' && t.text === ')') depth--;
    if (depth !== 0 || t.kind !== 'word') return false;
    const next = list[i + 1];
    return (
      (t.upper === 'GROUP' && next?.kind === 'word' && next.upper === 'BY') ||
      (t.upper === 'SELECT' && next?.kind === 'word' && next.upper === 'DISTINCT')
    );
  });
}

/** Whether a scheduled query's schedule requires a LIMIT clause in its query (it returns events, not groups). */
export function requiresLimitClause(spec: Record<string, unknown>): boolean {
  const query = queryOf(spec);
  return query !== undefined && !aggregates(query.language, query.text);
}

/** Whether the query filters on event time: one of the placeholders (SQL), or p_event_time / time functions. */
export function usesTimePlaceholder(language: QueryLanguage, text: string): boolean {
  if (language === 'PANTHERFLOW') return /\bp_event_time\b|\bp_occurs_[a-z]+\s*\(|\btime\.ago\s*\(/.test(text);
  const list = tokens(text) ?? [];
  return list.some(
    (t, i) =>
      t.kind === 'word' &&
      (t.text.toLowerCase() === 'p_event_time' ||
        ((TIME_PLACEHOLDERS as readonly string[]).includes(t.text.toLowerCase()) && list[i + 1]?.text === '(')),
  );
}

/** Problems of a Schedule (rate or cron, timeout bounds), each on its key. */
export function scheduleProblems(schedule: QuerySchedule | undefined, at = 'Schedule'): SaveProblem[] {
  if (!schedule) return [];
  const problems: SaveProblem[] = [];
  const timeout = schedule.TimeoutMinutes;
  if (typeof timeout === 'number' && (timeout < 1 || timeout > MAX_QUERY_TIMEOUT_MINUTES))
    problems.push({ path: `${at}.TimeoutMinutes`, message: TIMEOUT_RANGE });
  if (typeof schedule.CronExpression === 'string') {
    try {
      if (nextCronTime(parseCron(schedule.CronExpression), Date.UTC(2024, 0, 1)) === null)
        problems.push({ path: `${at}.CronExpression`, message: 'The cron expression never fires' });
    } catch (e) {
      problems.push({ path: `${at}.CronExpression`, message: (e as Error).message });
    }
  }
  return problems;
}

/** Problems of a saved or scheduled query that passed the shape checks; each on its key. */
export function queryProblems(type: 'saved_query' | 'scheduled_query', spec: Record<string, unknown>): SaveProblem[] {
  const problems: SaveProblem[] = [];
  const query = queryOf(spec);
  if (!query) return problems;
  if (!query.text.trim()) return [{ path: query.key, message: 'Write the query' }];
  if (query.language === 'SQL') {
    let sql = query.text;
    try {
      sql = fillTimePlaceholders(query.text, Date.UTC(2024, 0, 1)).sql;
    } catch (e) {
      problems.push({ path: query.key, message: (e as Error).message });
    }
    const check = checkReadOnlySql(sql);
    if (!check.ok) problems.push({ path: query.key, message: check.error });
  }
  if (type === 'scheduled_query') {
    problems.push(...scheduleProblems(scheduleOf(spec)));
    const limit = limitOf(query.language, query.text);
    if (limit === undefined && requiresLimitClause(spec)) problems.push({ path: query.key, message: LIMIT_REQUIRED });
    else if (limit !== undefined && limit > MAX_SCHEDULED_ROWS) problems.push({ path: query.key, message: limitTooLarge(limit) });
  }
  return problems;
}

/** What is flagged (saved anyway): a query without a time placeholder. */
export function queryWarnings(spec: Record<string, unknown>): string[] {
  const query = queryOf(spec);
  if (!query || !query.text.trim()) return [];
  return usesTimePlaceholder(query.language, query.text) ? [] : [NO_TIME_PLACEHOLDER];
}

// ------------------------------------------------------------------------------------------------ placeholders

export class PlaceholderError extends Error {}

const UNITS: Record<string, number> = {
  s: 1,
  sec: 1,
  second: 1,
  m: 60,
  min: 60,
  minute: 60,
  h: 3600,
  hour: 3600,
  d: 86_400,
  day: 86_400,
  w: 604_800,
  week: 604_800,
};

/**
 * A duration argument: seconds as a number, or a span such as '15 minutes', '1 hour', '2d' (quoted, or written
 * bare as the public content does: p_occurs_since(1 hour)); in ms.
 */
function durationMs(arg: readonly SqlToken[], name: string): number {
  if (arg.length === 1 && arg[0].kind === 'number') return Number(arg[0].text) * 1000;
  const text =
    arg.length === 1 && arg[0].kind === 'string'
      ? arg[0].text
      : arg.every((t) => t.kind === 'number' || t.kind === 'word')
        ? arg.map((t) => t.text).join(' ')
        : '';
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]+?)s?\s*$/i.exec(text);
  const unit = m ? UNITS[m[2].toLowerCase()] : undefined;
  if (!m || unit === undefined)
    throw new PlaceholderError(`${name}() needs a duration: seconds, or text such as '15 minutes', '1 hour' or '2 days'`);
  return Number(m[1]) * unit * 1000;
}

function instantMs(arg: readonly SqlToken[], name: string): number {
  const t = arg.length === 1 && arg[0].kind === 'string' ? Date.parse(arg[0].text) : NaN;
  if (!Number.isFinite(t)) throw new PlaceholderError(`${name}() needs a timestamp such as '2024-01-31 12:00:00'`);
  return t;
}

const literal = timestampLiteral;

export interface FilledQuery {
  readonly sql: string;
  /** The span the placeholders read (epoch ms), when the query has any. */
  readonly from?: number;
  readonly to?: number;
}

/**
 * SQL with its occurrence-time placeholders replaced by p_event_time conditions, relative to `runAt` (a run's
 * scheduled time: the end of its window). An optional last argument names the table alias whose p_event_time
 * is meant: p_occurs_since('1 hour', e) → e.p_event_time BETWEEN ... .
 */
export function fillTimePlaceholders(sql: string, runAt: number): FilledQuery {
  const list = tokens(sql);
  if (!list) return { sql };
  let out = '';
  let at = 0;
  let from: number | undefined;
  let to: number | undefined;
  const span = (a: number, b: number) => {
    from = from === undefined ? a : Math.min(from, a);
    to = to === undefined ? b : Math.max(to, b);
  };
  for (let i = 0; i < list.length; i++) {
    const t: SqlToken = list[i];
    const name: string = t.kind === 'word' ? t.text.toLowerCase() : '';
    if (!(TIME_PLACEHOLDERS as readonly string[]).includes(name) || list[i + 1]?.text !== '(') continue;
    // Arguments: the tokens up to the matching ')', split on commas at depth 0.
    const args: SqlToken[][] = [[]];
    let depth = 0;
    let j = i + 2;
    for (; j < list.length; j++) {
      const a = list[j];
      if (a.text === '(' && a.kind === 'punct') depth++;
      if (a.text === ')' && a.kind === 'punct' && depth-- === 0) break;
      if (a.text === ',' && a.kind === 'punct' && depth === 0) args.push([]);
      else args[args.length - 1].push(a);
    }
    if (j >= list.length) throw new PlaceholderError(`${name}( is not closed`);
    const arity = name === 'p_occurs_between' || name === 'p_occurs_around' ? 2 : 1;
    if (args.length < arity || args.length > arity + 1 || args.some((a) => a.length === 0))
      throw new PlaceholderError(`${name}() takes ${arity} argument${arity > 1 ? 's' : ''} and an optional table alias`);
    const alias = args[arity]?.[0];
    if (alias && (args[arity].length !== 1 || (alias.kind !== 'word' && alias.kind !== 'quoted')))
      throw new PlaceholderError(`${name}(): the last argument must be a table alias`);
    const column = alias ? `${quoteName(alias.text)}.p_event_time` : 'p_event_time';
    let condition: string;
    if (name === 'p_occurs_since') {
      const start = runAt - durationMs(args[0], name);
      span(start, runAt);
      condition = `${column} BETWEEN ${literal(start)} AND ${literal(runAt)}`;
    } else if (name === 'p_occurs_between') {
      const [a, b] = [instantMs(args[0], name), instantMs(args[1], name)];
      if (b < a) throw new PlaceholderError(`${name}(): the end is before the start`);
      span(a, b);
      condition = `${column} BETWEEN ${literal(a)} AND ${literal(b)}`;
    } else if (name === 'p_occurs_after') {
      const a = instantMs(args[0], name);
      span(a, Math.max(a, runAt));
      condition = `${column} >= ${literal(a)}`;
    } else if (name === 'p_occurs_before') {
      const b = instantMs(args[0], name);
      to = to === undefined ? b : Math.max(to, b);
      condition = `${column} < ${literal(b)}`;
    } else {
      const centre = instantMs(args[0], name);
      const d = durationMs(args[1], name);
      span(centre - d, centre + d);
      condition = `${column} BETWEEN ${literal(centre - d)} AND ${literal(centre + d)}`;
    }
    out += `${sql.slice(at, t.at)}(${condition})`;
    at = list[j].end;
    i = j;
  }
  return { sql: out + sql.slice(at), from, to };
}
