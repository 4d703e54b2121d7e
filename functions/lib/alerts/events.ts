// An alert's events: its rows in the signals (or detection-error) table of the lake, oldest first, paged.
// Two engines behind one interface, chosen by LAKE_QUERY_ENGINE:
// - `objects` (the default, on AWS and locally): reads the gzip NDJSON objects of the alert's hour
//   partitions through the S3 API (LAKE_BUCKET) and keeps the rows of the alert. An alert spans its dedup
//   window, so this reads a handful of small objects; it needs no catalog, and s3rver serves it locally the
//   same way (DuckDB's native addon cannot run inside a bundled Lambda, and s3rver's files are not named as
//   lake objects, so DuckDB does not read them in place).
// - `athena`: SQL over the Glue tables of the signals databases (ATHENA_WORKGROUP); needs those tables to
//   exist (partition projection), which the search capability creates with its catalog.
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import {
  AthenaClient,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
} from '@aws-sdk/client-athena';
import { s3 } from '../clients';
import { ENV, optionalEnv, requireEnv } from '../env';
import { partitionsBetween, type SignalsDatabase } from '../../../core/lake/layout';

const gunzipAsync = promisify(gunzip);

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

function checked(query: AlertEventsQuery): void {
  if (!TABLE.test(query.table)) throw new Error(`not a lake table name: ${query.table}`);
  if (!ALERT_ID.test(query.alertId)) throw new Error('not an alert id');
}

const eventTime = (row: Row) => String(row.p_event_time ?? '');
const byEventTime = (a: Row, b: Row) => (eventTime(a) < eventTime(b) ? -1 : eventTime(a) > eventTime(b) ? 1 : 0);

export const objectsAlertEvents: AlertEventsEngine = {
  async events(query) {
    checked(query);
    const bucket = requireEnv(ENV.lakeBucket);
    const rows: Row[] = [];
    for (const prefix of partitionsBetween(query.database, query.table, query.from, query.to)) {
      let ContinuationToken: string | undefined;
      do {
        const page = await s3().send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}/`, ContinuationToken }));
        for (const object of page.Contents ?? []) {
          if (!object.Key) continue;
          const out = await s3().send(new GetObjectCommand({ Bucket: bucket, Key: object.Key }));
          const raw = Buffer.from(await out.Body!.transformToByteArray());
          const text = (raw[0] === 0x1f && raw[1] === 0x8b ? await gunzipAsync(raw) : raw).toString('utf8');
          for (const line of text.split('\n')) {
            if (!line.includes(query.alertId)) continue;
            const row = JSON.parse(line) as Row;
            if (row.p_alert_id === query.alertId) rows.push(row);
          }
        }
        ContinuationToken = page.NextContinuationToken;
      } while (ContinuationToken);
    }
    rows.sort(byEventTime);
    return { rows: rows.slice(query.offset, query.offset + query.limit), hasMore: rows.length > query.offset + query.limit };
  },
};

let athena: AthenaClient | undefined;

/** Day partitions `(year, month, day)` the alert spans, as an SQL predicate. */
function dayPredicate(from: string, to: string): string {
  const days: string[] = [];
  for (let t = Date.parse(from.slice(0, 10)); t <= Date.parse(to.slice(0, 10)) && days.length < 62; t += 86_400_000) {
    const d = new Date(t);
    days.push(`(${d.getUTCFullYear()}, ${d.getUTCMonth() + 1}, ${d.getUTCDate()})`);
  }
  return `(year, month, day) IN (${days.join(', ')})`;
}

export const athenaAlertEvents: AlertEventsEngine = {
  async events(query) {
    checked(query);
    athena ??= new AthenaClient({});
    const sql =
      `SELECT * FROM "${query.database}"."${query.table}" WHERE p_alert_id = '${query.alertId}' AND ${dayPredicate(query.from, query.to)} ` +
      `ORDER BY p_event_time OFFSET ${Math.max(0, Math.floor(query.offset))} LIMIT ${Math.floor(query.limit) + 1}`;
    const started = await athena.send(
      new StartQueryExecutionCommand({ QueryString: sql, WorkGroup: requireEnv(ENV.athenaWorkgroup) }),
    );
    const id = started.QueryExecutionId!;
    for (let wait = 200; ; wait = Math.min(wait * 2, 2000)) {
      const state = (await athena.send(new GetQueryExecutionCommand({ QueryExecutionId: id }))).QueryExecution?.Status;
      if (state?.State === 'SUCCEEDED') break;
      if (state?.State === 'FAILED' || state?.State === 'CANCELLED')
        throw new Error(`alert events query ${state.State}: ${state.StateChangeReason ?? ''}`);
      await new Promise((r) => setTimeout(r, wait));
    }
    const rows: Row[] = [];
    let NextToken: string | undefined;
    let header: string[] | undefined;
    do {
      const page = await athena.send(new GetQueryResultsCommand({ QueryExecutionId: id, NextToken }));
      for (const result of page.ResultSet?.Rows ?? []) {
        const values = (result.Data ?? []).map((d) => d.VarCharValue ?? null);
        if (!header) header = values.map(String);
        else rows.push(Object.fromEntries(header.map((name, i) => [name, values[i]])));
      }
      NextToken = page.NextToken;
    } while (NextToken);
    return { rows: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
  },
};

export function alertEventsEngine(): AlertEventsEngine {
  return optionalEnv(ENV.lakeQueryEngine) === 'athena' ? athenaAlertEvents : objectsAlertEvents;
}
