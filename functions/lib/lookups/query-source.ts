// The rows of a query-defined lookup table: its query runs through the same path as a scheduled query's
// (functions/lib/runs runQueryRows: the search door, read-only SQL, occurrence-time placeholders filled
// relative to the refresh time; without them the whole lake is read), within QUERY_WAIT_MS (a query still
// running then is cancelled and the refresh fails, keeping the last good data).
import { MAX_DATA_BYTES } from '../../../core/lookups/index';
import { runQueryRows, type QueryRunner } from '../runs';

/** The longest a lookup table's query may run. */
export const QUERY_WAIT_MS = 10 * 60 * 1000;
/** At most this many rows are read (about 200 bytes a row within the data limit). */
export const MAX_QUERY_ROWS = Math.floor(MAX_DATA_BYTES / 200);

/** The records of a lookup table's query at `now`: each row without its empty columns. */
export async function queryRecords(sql: string, now: Date, runner?: QueryRunner): Promise<Record<string, unknown>[]> {
  const rows = await runQueryRows(
    { language: 'SQL', text: sql, runAt: now.getTime(), deadline: Date.now() + QUERY_WAIT_MS, maxRows: MAX_QUERY_ROWS },
    runner,
  );
  return rows.map((row) => Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null && v !== undefined)));
}
