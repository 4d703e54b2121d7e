// Athena through the AWS SDK: the same calls reach AWS or the local runtime's stand-in (the endpoint comes from
// AWS_ENDPOINT_URL_ATHENA). The lake door's query calls: users' searches (functions/lib/search) start, poll, page
// and stop them through the door, and platform queries (query.ts) are built on them.
import {
  AthenaClient,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  GetQueryRuntimeStatisticsCommand,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
} from '@aws-sdk/client-athena';
import { ENV, requireEnv } from '../env';

let athenaClient: AthenaClient | undefined;
// cacheMiddleware: the client resolves each command's middleware stack once, not on every call (nothing here
// changes its middleware after the first call); a search makes four or more calls, each a few hundred µs less.
const athena = () => (athenaClient ??= new AthenaClient({ cacheMiddleware: true }));

export type EngineState = 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';

export interface EngineStatus {
  readonly state: EngineState;
  readonly reason?: string;
  readonly bytesScanned?: number;
  readonly elapsedMs?: number;
  readonly finishedAt?: string;
}

export interface EngineColumn {
  readonly name: string;
  readonly type: string;
}

export interface EnginePage {
  readonly columns: EngineColumn[];
  /** Values as Athena gives them (text, or null). */
  readonly rows: (string | null)[][];
  readonly nextToken?: string;
}

export async function startQuery(sql: string, requestToken: string): Promise<string> {
  const out = await athena().send(
    new StartQueryExecutionCommand({
      QueryString: sql,
      WorkGroup: requireEnv(ENV.athenaWorkgroup),
      ClientRequestToken: requestToken,
    }),
  );
  if (!out.QueryExecutionId) throw new Error('Athena gave no query execution id');
  return out.QueryExecutionId;
}

export async function queryStatus(id: string): Promise<EngineStatus> {
  const out = await athena().send(new GetQueryExecutionCommand({ QueryExecutionId: id }));
  const q = out.QueryExecution;
  return {
    state: (q?.Status?.State ?? 'RUNNING') as EngineState,
    reason: q?.Status?.StateChangeReason ?? q?.Status?.AthenaError?.ErrorMessage,
    bytesScanned: q?.Statistics?.DataScannedInBytes,
    elapsedMs: q?.Statistics?.TotalExecutionTimeInMillis ?? q?.Statistics?.EngineExecutionTimeInMillis,
    finishedAt: q?.Status?.CompletionDateTime?.toISOString(),
  };
}

/** The first pause between two status polls of a running query, and the longest (the pauses double between). */
export const POLL_FIRST_MS = 10;
export const POLL_MAX_MS = 250;

const finished = (s: EngineStatus) => s.state !== 'RUNNING' && s.state !== 'QUEUED';

/**
 * Polls a query's status until it has finished or `budgetMs` has passed (then the last status, still running):
 * at once, then after 10 ms, 20 ms, 40 ms... up to 250 ms between polls, so a short query is seen done soon after
 * it is, and a long one costs a few polls a second. 0: one poll.
 */
export async function awaitQuery(id: string, budgetMs: number): Promise<EngineStatus> {
  const until = Date.now() + budgetMs;
  for (let wait = POLL_FIRST_MS; ; wait = Math.min(wait * 2, POLL_MAX_MS)) {
    const status = await queryStatus(id);
    const left = until - Date.now();
    if (finished(status) || left <= 0) return status;
    await new Promise((r) => setTimeout(r, Math.min(wait, left)));
  }
}

/** The rows a finished query gave (GetQueryRuntimeStatistics' output rows); undefined when not reported. */
export async function queryRowCount(id: string): Promise<number | undefined> {
  const out = await athena().send(new GetQueryRuntimeStatisticsCommand({ QueryExecutionId: id }));
  return out.QueryRuntimeStatistics?.Rows?.OutputRows;
}

export async function stopQuery(id: string): Promise<void> {
  await athena().send(new StopQueryExecutionCommand({ QueryExecutionId: id }));
}

/** How many rows the first read of a finished query asks for: the page's first page (web PAGE_SIZE). */
export const SHAPE_ROWS = 100;

export interface QueryShape {
  readonly columns: EngineColumn[];
  /** The rows the query gave; undefined when the engine did not report it. */
  readonly rowCount: number | undefined;
}

/**
 * A succeeded query's columns and row count, in one call when its rows fit a first page: GetQueryResults' first page
 * carries the columns (ResultSetMetadata) and, without a NextToken, all the rows; only a larger result asks
 * GetQueryRuntimeStatistics for its count (GetQueryExecution's statistics have none).
 */
export async function queryShape(id: string): Promise<QueryShape> {
  const page = await queryResults(id, SHAPE_ROWS);
  keepFirstPage(id, SHAPE_ROWS, page);
  return {
    columns: page.columns,
    rowCount: page.nextToken ? await queryRowCount(id) : page.rows.length,
  };
}

/**
 * First pages read by queryShape, by query execution id (the newest KEEP_FIRST_PAGES): a succeeded query's
 * results never change, so the read of its first page that follows (the page asks it as soon as the search has
 * succeeded, in the same process locally and in a warm function on AWS) is answered from here, one Athena call
 * fewer. Pages over FIRST_PAGE_MAX_CHARS of values are not kept.
 */
const firstPages = new Map<string, { readonly maxResults: number; readonly page: EnginePage }>();
const KEEP_FIRST_PAGES = 16;
const FIRST_PAGE_MAX_CHARS = 500_000;

function keepFirstPage(id: string, maxResults: number, page: EnginePage): void {
  let chars = 0;
  for (const row of page.rows) for (const v of row) chars += v?.length ?? 0;
  if (chars > FIRST_PAGE_MAX_CHARS) return;
  firstPages.delete(id);
  firstPages.set(id, { maxResults, page });
  while (firstPages.size > KEEP_FIRST_PAGES) firstPages.delete(firstPages.keys().next().value!);
}

/** The kept first page when it is the one asked for: as many rows, or every row when they all fit. */
function keptFirstPage(id: string, maxResults: number): EnginePage | undefined {
  const kept = firstPages.get(id);
  if (!kept) return undefined;
  if (kept.maxResults === maxResults || (!kept.page.nextToken && maxResults >= kept.page.rows.length)) return kept.page;
  return undefined;
}

/** One page; the first page's header row (Athena repeats the column names as row one) is dropped. */
export async function queryResults(id: string, maxResults: number, nextToken?: string): Promise<EnginePage> {
  const first = !nextToken;
  const kept = first ? keptFirstPage(id, maxResults) : undefined;
  if (kept) return kept;
  const out = await athena().send(
    new GetQueryResultsCommand({ QueryExecutionId: id, MaxResults: first ? maxResults + 1 : maxResults, NextToken: nextToken }),
  );
  const columns = (out.ResultSet?.ResultSetMetadata?.ColumnInfo ?? []).map((c) => ({
    name: c.Name ?? '',
    type: c.Type ?? 'varchar',
  }));
  const rows = (out.ResultSet?.Rows ?? []).map((r) => (r.Data ?? []).map((d) => d.VarCharValue ?? null));
  return { columns, rows: first ? rows.slice(1) : rows, nextToken: out.NextToken };
}
