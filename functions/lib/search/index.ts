// Search: users' searches and saved searches. A search is compiled here (SQL from users is read-only,
// core/search, and every query carries the partition filter of its time range; PantherFlow compiles against the
// lake's catalog, the tables of the schemas), started on Athena through the lake door (the local runtime's
// stand-in answers the same calls), recorded in the caller's history (30 days, TTL), polled for its status and
// statistics, paged through with a cursor and cancelled. The compile of a query the platform runs for its owner
// (serviceQuerySql) goes through the same guard; the lake door runs it.
import { randomUUID } from 'node:crypto';
import {
  BuilderError,
  HISTORY_DAYS,
  LAKE_DATABASES,
  TimeRangeError,
  builderSql,
  checkReadOnlySql,
  eventTimeFilter,
  flowTypeOfHive,
  isPreset,
  lakeSql,
  partitionFilter,
  resolveTimeRange,
  type ResolvedRange,
  type TimeRangeInput,
} from '../../../core/search';
import { quoteName, quoteString } from '../../../core/lake/sql-text';
import { INDICATOR_FIELDS } from '../../../core/schemas/indicators';
import { compile, staticCatalog, type TableInfo } from '../../../core/pantherflow';
import type { Group } from '../../../core/detections/simple/model';
import { ApiError, invalidInput } from '../errors';
import type { LakeTableSpec } from '../../../core/search/lake-tables';
import { assembleSchemaSpec } from '../../../core/schemas/custom-schema';
import { ENV, optionalEnv } from '../env';
import {
  awaitQuery,
  cellValue,
  lakeTables,
  queryResults,
  queryShape,
  queryStatus,
  startQuery,
  stopQuery,
  type EngineColumn,
} from '../lake';
import { listSchemas } from '../schemas';
import {
  allSavedSearches,
  deleteSavedSearchItem,
  finishSearch,
  getSavedSearch,
  getSearch as getStoredSearch,
  putSavedSearch,
  putSearch,
  searchesOf,
  type Mode,
  type StoredSavedSearch,
  type StoredSearch,
} from './repository';

export type { Mode, Status, StoredSearch, StoredSavedSearch } from './repository';

const MODES: readonly Mode[] = ['BUILDER', 'SQL', 'PANTHERFLOW'];
export const QUERY_MAX_LENGTH = 100_000;
export const SEARCH_NOT_FOUND = 'There is no such search';
export const SAVED_SEARCH_NOT_FOUND = 'There is no such saved search';
export const RESULTS_NOT_READY = 'The search has no results: it has not succeeded';

export interface RunSearchInput {
  readonly mode: Mode;
  readonly query?: string | null;
  readonly builder?: {
    readonly logTypes: readonly string[];
    readonly conditions?: unknown;
    readonly fields?: readonly string[] | null;
    readonly limit?: number | null;
  } | null;
  readonly timeRange: TimeRangeInput;
}

export interface SearchView {
  readonly id: string;
  readonly mode: Mode;
  readonly query: string;
  readonly sql: string;
  readonly status: StoredSearch['status'];
  readonly error: string | null;
  readonly createdAt: string;
  readonly finishedAt: string | null;
  readonly timeRangeFrom: string | null;
  readonly timeRangeTo: string | null;
  readonly rowCount: number | null;
  readonly bytesScanned: number | null;
  readonly elapsedMs: number | null;
  readonly columns: { name: string; type: string }[];
  readonly visualization: string | null;
}

const view = (s: StoredSearch): SearchView => ({
  id: s.id,
  mode: s.mode,
  query: s.query,
  sql: s.sql,
  status: s.status,
  error: s.error ?? null,
  createdAt: s.createdAt,
  finishedAt: s.finishedAt ?? null,
  timeRangeFrom: s.timeRangeFrom ?? null,
  timeRangeTo: s.timeRangeTo ?? null,
  rowCount: s.rowCount ?? null,
  bytesScanned: s.bytesScanned ?? null,
  elapsedMs: s.elapsedMs ?? null,
  columns: s.columns ?? [],
  visualization: s.visualization ?? null,
});

// ------------------------------------------------------------------------------------------------ catalog

export interface LakeCatalogTable {
  readonly name: string;
  readonly logType: string | null;
  readonly columns: EngineColumn[];
}

/**
 * The custom schemas' specs (archived ones too: their tables and data stay), from the schemas' store; none where
 * the function has no store (the lake on its own). A stored schema that no longer reads is left out.
 */
async function customSchemas() {
  if (!optionalEnv(ENV.entityTable)) return [];
  const specs = [];
  for (const schema of await listSchemas({ includeArchived: true })) {
    if (schema.isManaged) continue;
    try {
      specs.push(assembleSchemaSpec(schema));
    } catch {
      // validated when saved; an unreadable one has no table to offer
    }
  }
  return specs;
}

/** The lake's tables (the lake door's, from the managed and custom schemas), by database and name. */
async function catalogTables(): Promise<LakeTableSpec[]> {
  return lakeTables(await customSchemas());
}

/** The lake's databases, tables and columns. */
export async function lakeCatalog(): Promise<{ name: string; tables: LakeCatalogTable[] }[]> {
  const tables = await catalogTables();
  return LAKE_DATABASES.map((name) => ({
    name,
    tables: tables
      .filter((t) => t.database === name)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((t) => ({
        name: t.name,
        logType: t.logType ?? null,
        columns: t.columns.map((c) => ({ name: c.name, type: c.type })),
      })),
  }));
}

async function flowCatalog() {
  const tables = await catalogTables();
  return staticCatalog(
    tables.map((t): TableInfo => ({
      database: t.database,
      name: t.name,
      timePartitioned: true,
      columns: t.columns.map((c) => ({ name: c.name, type: flowTypeOfHive(c.type) })),
    })),
  );
}

// ------------------------------------------------------------------------------------------------ compile

/**
 * The SQL that runs for a user's query: the checked tree written back, each lake table it reads replaced by
 * `(SELECT * FROM "db"."table" WHERE <partitions> AND <time>)`, a filter built from the tree for every lake
 * table it references (core/search/sql/guard.ts).
 */
export function rangedSql(sql: string, range: ResolvedRange): string {
  const check = checkReadOnlySql(sql);
  if (!check.ok) throw invalidInput({ query: check.error });
  const where = [partitionFilter(range), eventTimeFilter(range)].filter((w) => w !== 'TRUE').join(' AND ');
  return lakeSql(
    check,
    (database, table) => `SELECT * FROM ${quoteName(database)}.${quoteName(table)}${where ? ` WHERE ${where}` : ''}`,
  );
}

interface Compiled {
  readonly query: string;
  readonly sql: string;
  readonly visualization?: string;
}

async function compileSearch(input: RunSearchInput, range: ResolvedRange, now: Date): Promise<Compiled> {
  if (input.mode === 'SQL') {
    const query = text(input.query);
    return { query, sql: rangedSql(query, range) };
  }
  if (input.mode === 'PANTHERFLOW') {
    const query = text(input.query);
    const result = compile(query, {
      catalog: await flowCatalog(),
      dialect: 'athena',
      now,
      timeRange: { from: range.from ?? '1970-01-01T00:00:00.000Z', to: range.to },
    });
    if (!result.ok) {
      const first = result.diagnostics.find((d) => d.severity === 'error') ?? result.diagnostics[0];
      throw invalidInput({ query: first?.message ?? 'The query does not compile' });
    }
    return {
      query,
      sql: result.query.sql,
      visualization: result.query.visualization ? JSON.stringify(result.query.visualization) : undefined,
    };
  }
  const b = input.builder;
  if (!b) throw invalidInput({ builder: 'builder is required in BUILDER mode' });
  // AWSJSON arrives as JSON text (AppSync) or already parsed.
  let conditions = b.conditions ?? null;
  if (typeof conditions === 'string') {
    try {
      conditions = JSON.parse(conditions);
    } catch {
      throw invalidInput({ 'builder.conditions': 'conditions must be JSON' });
    }
  }
  if (conditions !== null && (typeof conditions !== 'object' || (conditions as { kind?: unknown }).kind !== 'group'))
    throw invalidInput({ 'builder.conditions': 'conditions must be a group of conditions (kind: group)' });
  try {
    const sql = builderSql(
      { logTypes: b.logTypes, conditions: conditions as Group | null, fields: b.fields, limit: b.limit },
      range,
    );
    return { query: JSON.stringify({ ...b, conditions }), sql };
  } catch (e) {
    if (e instanceof BuilderError) throw invalidInput({ builder: e.message });
    throw e;
  }
}

function text(query: string | null | undefined): string {
  if (typeof query !== 'string' || !query.trim()) throw invalidInput({ query: 'Write a query to run' });
  if (query.length > QUERY_MAX_LENGTH) throw invalidInput({ query: `The query is longer than ${QUERY_MAX_LENGTH} characters` });
  return query;
}

function rangeOf(input: TimeRangeInput, now: Date): ResolvedRange {
  try {
    return resolveTimeRange(input ?? {}, now);
  } catch (e) {
    if (e instanceof TimeRangeError) throw invalidInput({ timeRange: e.message });
    throw e;
  }
}

// ------------------------------------------------------------------------------------------------ run

/**
 * How long runSearch waits for its query before answering RUNNING (a short query answers SUCCEEDED with its
 * columns and row count, so the page reads the first page at once), and how long search(id) waits for a
 * running one to finish (a long poll: the page's next poll is not what delays the results).
 */
export const START_WAIT_MS = 1000;
export const STATUS_WAIT_MS = 2000;

const expiry = (now: Date) => Math.floor(now.getTime() / 1000) + HISTORY_DAYS * 86_400;

/** Starts a search; a query that cannot start (bad SQL on the engine) is recorded FAILED with the engine's words. */
export async function runSearch(input: RunSearchInput, userId: string, now = new Date()): Promise<SearchView> {
  if (!input || !MODES.includes(input.mode)) throw invalidInput({ mode: `mode must be one of ${MODES.join(', ')}` });
  const range = rangeOf(input.timeRange, now);
  const compiled = await compileSearch(input, range, now);
  return start(compiled, input.mode, range, userId, now);
}

async function start(compiled: Compiled, mode: Mode, range: ResolvedRange, userId: string, now: Date): Promise<SearchView> {
  const id = randomUUID();
  let search: StoredSearch = {
    id,
    userId,
    mode,
    query: compiled.query,
    sql: compiled.sql,
    status: 'RUNNING',
    createdAt: now.toISOString(),
    timeRangeFrom: range.from ?? null,
    timeRangeTo: range.to,
    columns: [],
    visualization: compiled.visualization ?? null,
    expiresAt: expiry(now),
  };
  try {
    search = { ...search, executionId: await startQuery(compiled.sql, id) };
  } catch (e) {
    const err = e as Error & { $metadata?: { httpStatusCode?: number } };
    if (!err.$metadata || (err.$metadata.httpStatusCode ?? 500) >= 500) throw e;
    search = { ...search, status: 'FAILED', error: err.message, finishedAt: new Date().toISOString() };
  }
  await putSearch(search);
  return view(await refreshed(search, START_WAIT_MS));
}

/** The search's state (polling the engine while it runs); undefined when there is none or it is another user's. */
export async function getSearch(id: string, userId: string): Promise<SearchView | undefined> {
  const stored = await getStoredSearch(id);
  if (!stored || stored.userId !== userId) return undefined;
  return view(await refreshed(stored, STATUS_WAIT_MS));
}

/** The stored search brought up to date with the engine; a running one is waited for up to `waitMs`. */
async function refreshed(stored: StoredSearch, waitMs = 0): Promise<StoredSearch> {
  if (stored.status !== 'RUNNING' || !stored.executionId) return stored;
  const status = waitMs > 0 ? await awaitQuery(stored.executionId, waitMs) : await queryStatus(stored.executionId);
  if (status.state === 'RUNNING' || status.state === 'QUEUED') {
    return { ...stored, bytesScanned: status.bytesScanned ?? null, elapsedMs: status.elapsedMs ?? null };
  }
  let changes: Partial<StoredSearch> = {
    status: status.state,
    finishedAt: status.finishedAt ?? new Date().toISOString(),
    bytesScanned: status.bytesScanned ?? 0,
    elapsedMs: status.elapsedMs ?? Date.now() - Date.parse(stored.createdAt),
  };
  if (status.state === 'FAILED') changes = { ...changes, error: status.reason ?? 'The query failed' };
  if (status.state === 'SUCCEEDED') {
    const shape = await queryShape(stored.executionId);
    changes = { ...changes, columns: shape.columns, rowCount: shape.rowCount ?? null };
  }
  // Another call may have finished it first (a cancel): then the stored search is the truth.
  if (await finishSearch(stored.id, changes)) return { ...stored, ...changes };
  return (await getStoredSearch(stored.id)) ?? { ...stored, ...changes };
}

/** Cancels a running search (a finished one is answered as it is). */
export async function cancelSearch(id: string, userId: string): Promise<SearchView> {
  const stored = await getStoredSearch(id);
  if (!stored || stored.userId !== userId) throw new ApiError('NotFound', SEARCH_NOT_FOUND);
  const current = await refreshed(stored);
  if (current.status !== 'RUNNING') return view(current);
  if (current.executionId) await stopQuery(current.executionId);
  await finishSearch(id, {
    status: 'CANCELLED',
    finishedAt: new Date().toISOString(),
    elapsedMs: Date.now() - Date.parse(stored.createdAt),
  });
  return view((await getStoredSearch(id))!);
}

// ------------------------------------------------------------------------------------------------ results

export interface ResultsPage {
  readonly columns: EngineColumn[];
  /** Each row a JSON array text, in column order. */
  readonly rows: string[];
  readonly cursor: string | null;
}

/** One page of a succeeded search's rows; the cursor is the engine's next token. */
export async function searchResults(searchId: string, userId: string, pageSize: number, cursor?: string): Promise<ResultsPage> {
  const stored = await getStoredSearch(searchId);
  if (!stored || stored.userId !== userId) throw new ApiError('NotFound', SEARCH_NOT_FOUND);
  const current = await refreshed(stored);
  if (current.status !== 'SUCCEEDED' || !current.executionId) throw new ApiError('InvalidInput', RESULTS_NOT_READY);
  const page = await queryResults(current.executionId, pageSize, cursor);
  return {
    columns: page.columns,
    rows: page.rows.map((r) => JSON.stringify(r.map((v, i) => cellValue(v, page.columns[i]?.type ?? 'varchar')))),
    cursor: page.nextToken ?? null,
  };
}

// ------------------------------------------------------------------------------------------------ history

/** The user's searches of the past 30 days, newest first; `after` is the position of the last one seen. */
export async function searchHistory(userId: string, pageSize: number, after?: string, now = new Date()) {
  const since = new Date(now.getTime() - HISTORY_DAYS * 86_400_000).toISOString();
  const items = await searchesOf(userId, since, pageSize, after);
  const page = items.slice(0, pageSize);
  return {
    items: page.map((i) => ({ node: view(i), position: `${i.createdAt}#${i.id}` })),
    hasNextPage: items.length > pageSize,
  };
}

// ------------------------------------------------------------------------------------------------ indicators

export const INDICATOR_MAX_LENGTH = 2048;

/** Counts per log type of an indicator across every logs table's p_any_* columns over a range. */
export async function indicatorSearch(
  indicator: string,
  timeRange: TimeRangeInput,
  userId: string,
  now = new Date(),
): Promise<SearchView> {
  if (typeof indicator !== 'string' || !indicator.trim())
    throw invalidInput({ indicator: 'Enter an IP, domain, hash, email or ARN' });
  if (indicator.length > INDICATOR_MAX_LENGTH)
    throw invalidInput({ indicator: `The indicator is longer than ${INDICATOR_MAX_LENGTH} characters` });
  const value = indicator.trim();
  const range = rangeOf(timeRange, now);
  const tables = (await catalogTables())
    .filter((t) => t.database === LAKE_DATABASES[0] && t.columns.some((c) => c.name.startsWith('p_any_')))
    .sort((a, b) => a.name.localeCompare(b.name));
  if (!tables.length) throw invalidInput({ indicator: 'The lake has no tables to search yet' });
  const literal = quoteString(value);
  const where = [partitionFilter(range), eventTimeFilter(range)].filter((w) => w !== 'TRUE');
  const parts = tables.map((t) => {
    const columns = t.columns.filter((c) => (INDICATOR_FIELDS as readonly string[]).includes(c.name));
    const match = columns.map((c) => `contains("${c.name}", ${literal})`).join(' OR ') || 'FALSE';
    return `SELECT '${t.logType ?? t.name}' AS "log_type", count(*) AS "matches" FROM "${t.database}"."${t.name}" WHERE ${[...where, `(${match})`].join(' AND ')}`;
  });
  const sql = `SELECT * FROM (${parts.join(' UNION ALL ')}) WHERE "matches" > 0 ORDER BY "matches" DESC`;
  return start({ query: value, sql }, 'SQL', range, userId, now);
}

// ------------------------------------------------------------------------------------------------ saved searches

/** A saved search as received (the API's input): every field is checked by checkedSaved. */
export interface SavedSearchInput {
  readonly name: string;
  readonly description?: string | null;
  readonly tags?: readonly string[] | null;
  readonly mode: Mode;
  readonly query?: string | null;
  /** The builder's state as JSON text (AWSJSON); required in BUILDER mode. */
  readonly builder?: unknown;
  /** A time range preset. */
  readonly defaultTimeRange?: string | null;
}

export const SAVED_NAME_MAX = 200;

function checkedSaved(input: SavedSearchInput) {
  const errors: Record<string, string> = {};
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (!name) errors.name = 'Name is required';
  else if (name.length > SAVED_NAME_MAX) errors.name = `Name must be at most ${SAVED_NAME_MAX} characters`;
  const description = input.description ?? null;
  if (description !== null && (typeof description !== 'string' || description.length > 5000))
    errors.description = 'Description must be text of at most 5000 characters';
  const tags = input.tags ?? [];
  if (!Array.isArray(tags) || tags.length > 50 || tags.some((t) => typeof t !== 'string' || !t.trim() || t.length > 100))
    errors.tags = 'Tags must be at most 50 texts of 1 to 100 characters';
  if (!MODES.includes(input.mode)) errors.mode = `mode must be one of ${MODES.join(', ')}`;
  const query = input.query ?? null;
  if (query !== null && (typeof query !== 'string' || query.length > QUERY_MAX_LENGTH)) errors.query = 'The query is too long';
  if (input.mode !== 'BUILDER' && (typeof query !== 'string' || !query.trim())) errors.query = 'Write a query to save';
  if (input.mode === 'SQL' && typeof query === 'string' && query.trim()) {
    const check = checkReadOnlySql(query);
    if (!check.ok) errors.query = check.error;
  }
  const builder = input.builder ?? null;
  if (input.mode === 'BUILDER' && (typeof builder !== 'string' || !builder))
    errors.builder = 'builder is required in BUILDER mode';
  if (typeof builder === 'string')
    try {
      JSON.parse(builder);
    } catch {
      errors.builder = 'builder must be JSON';
    }
  const defaultTimeRange = input.defaultTimeRange ?? null;
  if (defaultTimeRange !== null && !isPreset(defaultTimeRange))
    errors.defaultTimeRange = 'defaultTimeRange must be a time range preset';
  if (Object.keys(errors).length) throw invalidInput(errors);
  return {
    name,
    description,
    tags: [...new Set(tags.map((t) => t.trim()))],
    mode: input.mode,
    query,
    // JSON text in BUILDER mode; another mode's builder is kept as given.
    builder: builder as string | null,
    defaultTimeRange,
  };
}

export async function saveSearch(input: SavedSearchInput, userId: string, now = new Date()): Promise<StoredSavedSearch> {
  const fields = checkedSaved(input);
  const saved: StoredSavedSearch = {
    id: randomUUID(),
    ...fields,
    createdBy: userId,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    revision: 1,
  };
  await putSavedSearch(saved);
  return saved;
}

export async function updateSavedSearch(
  id: string,
  revision: number,
  input: SavedSearchInput,
  now = new Date(),
): Promise<StoredSavedSearch> {
  const fields = checkedSaved(input);
  const current = await getSavedSearch(id);
  if (!current) throw new ApiError('NotFound', SAVED_SEARCH_NOT_FOUND);
  if (current.revision !== revision)
    throw new ApiError(
      'RevisionConflict',
      `This saved search was changed by someone else (revision ${current.revision}); reload it`,
    );
  const saved: StoredSavedSearch = { ...current, ...fields, updatedAt: now.toISOString(), revision: revision + 1 };
  try {
    await putSavedSearch(saved, revision);
  } catch (e) {
    if ((e as Error).name === 'ConditionalCheckFailedException')
      throw new ApiError('RevisionConflict', 'This saved search was changed by someone else; reload it');
    throw e;
  }
  return saved;
}

export async function deleteSavedSearch(id: string): Promise<{ id: string }> {
  if (!(await deleteSavedSearchItem(id))) throw new ApiError('NotFound', SAVED_SEARCH_NOT_FOUND);
  return { id };
}

export const savedSearch = (id: string) => getSavedSearch(id);

/** Saved searches by name, filtered by a text in the name, description or tags; `after` is the last position seen. */
export async function savedSearches(search: string | undefined, pageSize: number, after?: string) {
  const needle = search?.trim().toLowerCase();
  const all = (await allSavedSearches()).filter(
    (s) =>
      !needle ||
      s.name.toLowerCase().includes(needle) ||
      (s.description ?? '').toLowerCase().includes(needle) ||
      s.tags.some((t) => t.toLowerCase().includes(needle)),
  );
  const from = after ? all.findIndex((s) => s.gsi1sk > after) : 0;
  const rest = from < 0 ? [] : all.slice(from);
  return {
    items: rest.slice(0, pageSize).map(({ gsi1sk, ...node }) => ({ node, position: gsi1sk })),
    hasNextPage: rest.length > pageSize,
  };
}

// ------------------------------------------------------------------------------------------------ service queries

/**
 * The engine SQL of a query the platform runs for its owner (a scheduled query, a query lookup table): SQL
 * checked read-only with each lake table read through `range`, or PantherFlow compiled over `range` with
 * `now` as its clock. A query that cannot compile throws an Error with the reason.
 */
export async function serviceQuerySql(
  mode: 'SQL' | 'PANTHERFLOW',
  query: string,
  range: ResolvedRange,
  now: Date,
): Promise<string> {
  try {
    return (await compileSearch({ mode, query, timeRange: {} }, range, now)).sql;
  } catch (e) {
    if (e instanceof ApiError) throw new Error(e.fieldErrors.map((f) => f.message).join('; ') || e.message);
    throw e;
  }
}
