// An alert's events: its rows in the signals (or detection-error) table of the lake, oldest first, paged.
// Read through the lake door's platform queries (functions/lib/lake): SQL over the Glue table of the alert's log type in
// panther_signals / panther_rule_errors, filtered by the day partitions and event times the alert spans and by
// p_alert_id, one page per query (ORDER BY p_event_time, p_row_id with OFFSET/LIMIT, the next page's offset
// being the cursor). The same calls reach Athena on AWS and the local runtime's Athena stand-in.
//
// Rows come back with every column of the table, and struct columns with every field of their type; what an
// event does not hold is null there (the lake's JSON leaves it out), so nulls are dropped (in nested objects too;
// array items keep their places), as are the partition columns: an event reads as it was written, and the alert
// page's column chooser offers the fields the events have.
//
// A correlation alert (raised by a run, sourceId 'correlation') has no rows of its own: its events are the
// signals it matched, which carry their own rules' alert ids. The run writes the matched signals on the alert
// as its dedup string (core/correlation matchKey: `<ruleId>@<p_row_id or event time in ms>` joined by `|`);
// the reader reads those signals back by p_row_id from the signals tables of the alert's log types.
import { quoteString, timestampLiteral } from '../../../core/lake/sql-text';
import { eventTimeFilter, partitionFilter } from '../../../core/search';
import { SIGNALS_DATABASE, tableName, type SignalsDatabase } from '../../../core/lake/layout';
import { lakeSelectList, restoreLakeEvent } from '../../../core/lake/row-values';
import { lakeColumns } from '../../../core/search/lake-tables';
import { managedSchema } from '../../../core/schemas/managed-schemas';
import type { FieldSpec } from '../../../core/schemas/types';
import { lakeQueryRows } from '../lake';
import { customSchemaSpecs } from '../schemas';
import { getAlert } from './repository';

export type Row = Record<string, unknown>;

export interface AlertEventsQuery {
  readonly database: SignalsDatabase;
  readonly table: string;
  readonly alertId: string;
  /** The alert's first and last event times (ISO 8601): the partitions read. */
  readonly from: string;
  readonly to: string;
  readonly offset: number;
  readonly limit: number;
}

export interface AlertEventsPage {
  readonly rows: Row[];
  readonly hasMore: boolean;
}

export interface AlertEventsEngine {
  events(query: AlertEventsQuery): Promise<AlertEventsPage>;
}

/** Runs one platform query and answers its rows (the lake door's lakeQueryRows; a stand-in in tests). */
export type LakeRows = (sql: string) => Promise<Row[]>;

const TABLE = /^[a-z0-9_]{1,255}$/;
const ALERT_ID = /^[0-9a-f]{32}$/;
const DATABASES: readonly string[] = ['panther_signals', 'panther_rule_errors'];
const PARTITION_COLUMNS = ['year', 'month', 'day', 'hour'];
/** The most rows one page of an alert's events may ask for. */
export const ALERT_EVENTS_MAX_PAGE = 10_000;
/** The most signals a correlation alert's events name (a match is a handful of steps). */
export const CORRELATION_SIGNALS_MAX = 500;
/** The source id correlation runs give their alerts (functions/lib/runs). */
export const CORRELATION_SOURCE_ID = 'correlation';

/** Whole seconds around the alert's times (event times are written to the nanosecond, the alert keeps ms). */
function secondsAround(fromIso: string, toIso: string) {
  const from = Date.parse(fromIso);
  const to = Date.parse(toIso);
  if (Number.isNaN(from) || Number.isNaN(to) || to < from) throw new Error('the alert has no valid time range');
  return {
    from: new Date(Math.floor(from / 1000) * 1000).toISOString(),
    to: new Date(Math.floor(to / 1000) * 1000 + 999).toISOString(),
  };
}

/** The alert's events query (exported for its test): its partitions, its event times, its id, one page. */
export function alertEventsSql(query: AlertEventsQuery, select = '*'): string {
  if (!DATABASES.includes(query.database)) throw new Error(`not a signals database: ${String(query.database)}`);
  if (!TABLE.test(query.table)) throw new Error(`not a lake table name: ${query.table}`);
  if (!ALERT_ID.test(query.alertId)) throw new Error('not an alert id');
  const offset = Math.floor(query.offset);
  const limit = Math.floor(query.limit);
  if (!(offset >= 0) || !(limit >= 1) || limit > ALERT_EVENTS_MAX_PAGE)
    throw new Error(`offset must be 0 or more and limit 1 to ${ALERT_EVENTS_MAX_PAGE}`);
  const range = secondsAround(query.from, query.to);
  return (
    `SELECT ${select} FROM "${query.database}"."${query.table}" ` +
    `WHERE ${partitionFilter(range)} AND ${eventTimeFilter(range)} AND p_alert_id = '${query.alertId}' ` +
    `ORDER BY p_event_time, p_row_id OFFSET ${offset} LIMIT ${limit + 1}`
  );
}

/** One signal a correlation alert matched: its rule and its row id, or its event time when it had no row id. */
export interface MatchedSignal {
  readonly ruleId: string;
  readonly rowId?: string;
  readonly timeMs?: number;
}

/** The signals named by a correlation alert's dedup string (the inverse of core/correlation matchKey). */
export function matchedSignalsOf(dedupString: string): MatchedSignal[] {
  const out: MatchedSignal[] = [];
  for (const part of dedupString.split('|')) {
    const at = part.lastIndexOf('@');
    if (at <= 0 || at === part.length - 1) continue;
    const ruleId = part.slice(0, at);
    const ref = part.slice(at + 1);
    if (/^\d{1,15}$/.test(ref)) out.push({ ruleId, timeMs: Number(ref) });
    else out.push({ ruleId, rowId: ref });
  }
  return out.slice(0, CORRELATION_SIGNALS_MAX);
}

const quote = quoteString;
const lakeTimestamp = timestampLiteral;

/** The query of the matched signals in one signals table over the alert's range (exported for its test). */
export function matchedSignalsSql(
  table: string,
  signals: readonly MatchedSignal[],
  from: string,
  to: string,
  select = '*',
): string {
  if (!TABLE.test(table)) throw new Error(`not a lake table name: ${table}`);
  if (!signals.length) throw new Error('no matched signals');
  const range = secondsAround(from, to);
  const ids = signals.filter((s) => s.rowId !== undefined).map((s) => quote(s.rowId!));
  const terms = [
    ...(ids.length ? [`p_row_id IN (${ids.join(', ')})`] : []),
    ...signals
      .filter((s) => s.timeMs !== undefined)
      .map((s) => `(p_rule_id = ${quote(s.ruleId)} AND p_event_time = ${lakeTimestamp(s.timeMs!)})`),
  ];
  return (
    `SELECT ${select} FROM "${SIGNALS_DATABASE}"."${table}" ` +
    `WHERE ${partitionFilter(range)} AND ${eventTimeFilter(range)} AND (${terms.join(' OR ')}) ` +
    `ORDER BY p_event_time, p_row_id`
  );
}

/** A value without the null fields of its objects (arrays keep their items, nulls included). */
function withoutNullFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNullFields);
  if (value === null || typeof value !== 'object') return value;
  const out: Row = {};
  for (const [key, field] of Object.entries(value))
    if (field !== null && field !== undefined) out[key] = withoutNullFields(field);
  return out;
}

/**
 * A lake row as the event was written: no partition columns, no columns or struct fields the event does not hold,
 * and with the schema's `fields` its values typed as normalized (core/lake/row-values: objects, arrays, numbers,
 * json fields as JSON values, big integers as their text).
 */
export function eventOfRow(row: Row, fields: readonly FieldSpec[] = []): Row {
  const event: Row = {};
  for (const [key, value] of Object.entries(row))
    if (value !== null && value !== undefined && !PARTITION_COLUMNS.includes(key)) event[key] = withoutNullFields(value);
  return restoreLakeEvent(fields, event);
}

/** The columns of a table whose schema is known, arrays and structs read as JSON; `*` otherwise. */
export function selectOf(fields: readonly FieldSpec[] | undefined, database: SignalsDatabase): string {
  return fields ? lakeSelectList(lakeColumns({ fields: fields as FieldSpec[] }, database)) : '*';
}

/** The schema fields of each lake table named (managed log types from core, custom ones from the schemas door). */
export async function lakeTableFields(logTypes: readonly string[]): Promise<Map<string, readonly FieldSpec[]>> {
  const out = new Map<string, readonly FieldSpec[]>();
  const custom: string[] = [];
  for (const logType of logTypes) {
    const managed = managedSchema(logType);
    if (managed) out.set(tableName(logType), managed.fields ?? []);
    else custom.push(logType);
  }
  if (custom.length)
    for (const schema of await customSchemaSpecs(custom)) out.set(tableName(schema.name), schema.spec.fields ?? []);
  return out;
}

const eventTime = (row: Row) => String(row.p_event_time ?? '');
const byEventTime = (a: Row, b: Row) => (eventTime(a) < eventTime(b) ? -1 : eventTime(a) > eventTime(b) ? 1 : 0);

/** The reader over a query runner: the lake door's in the platform, a stand-in's in tests. */
export function searchAlertEvents(run: LakeRows = (sql) => lakeQueryRows(sql)): AlertEventsEngine {
  return {
    async events(query) {
      alertEventsSql(query); // the query checked before anything is read
      const alert = await getAlert(query.alertId);
      const fields = await lakeTableFields(alert?.logTypes ?? []);
      if (alert && alert.sourceId === CORRELATION_SOURCE_ID && alert.type === 'ALERT') {
        const signals = matchedSignalsOf(alert.dedupString);
        if (signals.length) return correlationEvents(run, alert.logTypes, signals, query, fields);
      }
      const tableFields = fields.get(query.table);
      const rows = await run(alertEventsSql(query, selectOf(tableFields, query.database)));
      return {
        rows: rows.slice(0, query.limit).map((row) => eventOfRow(row, tableFields ?? [])),
        hasMore: rows.length > query.limit,
      };
    },
  };
}

async function correlationEvents(
  run: LakeRows,
  logTypes: readonly string[],
  signals: readonly MatchedSignal[],
  query: AlertEventsQuery,
  fields: ReadonlyMap<string, readonly FieldSpec[]>,
): Promise<AlertEventsPage> {
  const tables = [...new Set((logTypes.length ? logTypes : [query.table]).map((t) => (TABLE.test(t) ? t : tableName(t))))];
  const seen = new Set<string>();
  const rows: Row[] = [];
  for (const table of tables.sort()) {
    const sql = matchedSignalsSql(table, signals, query.from, query.to, selectOf(fields.get(table), SIGNALS_DATABASE));
    for (const row of await run(sql)) {
      const key = typeof row.p_row_id === 'string' ? row.p_row_id : `${table}#${rows.length}`;
      if (seen.has(key)) continue;
      seen.add(key);
      rows.push(eventOfRow(row, fields.get(table) ?? []));
    }
  }
  rows.sort(byEventTime);
  const offset = Math.max(0, Math.floor(query.offset));
  return { rows: rows.slice(offset, offset + query.limit), hasMore: rows.length > offset + query.limit };
}

/**
 * Typed rows of a lake query over one log type's signals table (correlation runs read signals with it):
 * `sqlOf(select)` is the query with `select` as its select list (the schema's columns, arrays and structs as
 * JSON), each row restored from the schema (null columns kept). Without a known schema, `*` and rows as answered.
 */
export async function typedSignalRows(logType: string, sqlOf: (select: string) => string, run: LakeRows): Promise<Row[]> {
  const fields = (await lakeTableFields([logType])).get(tableName(logType));
  const rows = await run(sqlOf(selectOf(fields, SIGNALS_DATABASE)));
  return fields ? rows.map((row) => restoreLakeEvent(fields, row)) : rows;
}

export function alertEventsEngine(): AlertEventsEngine {
  return searchAlertEvents();
}
