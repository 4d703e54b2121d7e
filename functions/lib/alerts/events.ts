// An alert's events: its rows in the signals (or detection-error) table of the lake, oldest first, paged.
// Read through the search door (functions/lib/search): SQL over the Glue table of the alert's log type in
// panther_signals / panther_rule_errors, filtered by p_alert_id and the day partitions and event times the
// alert spans, its result pages read with the engine's cursor. The same calls reach Athena on AWS and the
// local runtime's Athena stand-in (which reads the lake bucket's objects). It replaces a reader that listed
// the S3 objects of the alert's hours (one listing page, so it lost events past 1,000 objects an hour).
import { lakeQueryRows } from '../search';
import { eventTimeFilter, partitionFilter } from '../../../core/search';
import type { SignalsDatabase } from '../../../core/lake/layout';

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

const TABLE = /^[a-z0-9_]{1,255}$/;
const ALERT_ID = /^[0-9a-f]{32}$/;
const DATABASES: readonly string[] = ['panther_signals', 'panther_rule_errors'];
/** The most rows one page of an alert's events may ask for. */
export const ALERT_EVENTS_MAX_PAGE = 10_000;

/** The alert's events query (exported for its test): whole seconds around the alert's times, its partitions. */
export function alertEventsSql(query: AlertEventsQuery): string {
  if (!DATABASES.includes(query.database)) throw new Error(`not a signals database: ${String(query.database)}`);
  if (!TABLE.test(query.table)) throw new Error(`not a lake table name: ${query.table}`);
  if (!ALERT_ID.test(query.alertId)) throw new Error('not an alert id');
  const from = Date.parse(query.from);
  const to = Date.parse(query.to);
  if (Number.isNaN(from) || Number.isNaN(to) || to < from) throw new Error('the alert has no valid time range');
  const offset = Math.floor(query.offset);
  const limit = Math.floor(query.limit);
  if (!(offset >= 0) || !(limit >= 1) || limit > ALERT_EVENTS_MAX_PAGE)
    throw new Error(`offset must be 0 or more and limit 1 to ${ALERT_EVENTS_MAX_PAGE}`);
  // Event times are written to the nanosecond; the alert keeps milliseconds: widen to whole seconds.
  const range = {
    from: new Date(Math.floor(from / 1000) * 1000).toISOString(),
    to: new Date(Math.floor(to / 1000) * 1000 + 999).toISOString(),
  };
  return (
    `SELECT * FROM "${query.database}"."${query.table}" ` +
    `WHERE ${partitionFilter(range)} AND ${eventTimeFilter(range)} AND p_alert_id = '${query.alertId}' ` +
    `ORDER BY p_event_time, p_row_id OFFSET ${offset} LIMIT ${limit + 1}`
  );
}

/** Reads the alert's rows through the search door's query path; partition columns are left out. */
export const searchAlertEvents: AlertEventsEngine = {
  async events(query) {
    const rows = await lakeQueryRows(alertEventsSql(query));
    for (const row of rows) for (const key of ['year', 'month', 'day', 'hour']) delete row[key];
    return { rows: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
  },
};

export function alertEventsEngine(): AlertEventsEngine {
  return searchAlertEvents;
}
