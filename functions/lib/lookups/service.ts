// Lookup tables: the API's reads and saves, the data preview and "test a value", and refreshes (S3 objects,
// provider URLs and scheduled queries, on a schedule or on demand). A refresh that fails keeps the last good version and
// raises a LOOKUP_TABLE_REFRESH system alert; each good refresh writes a new version (older ones are kept).
import { randomUUID } from 'node:crypto';
import {
  LookupData,
  LookupDataError,
  MAX_DATA_BYTES,
  PROVIDERS,
  inferColumns,
  keyProblem,
  parseRecords,
  providerRecords,
  sourceAccess,
  validateLookupTable,
  type LookupTable,
  type LookupTableInput,
} from '../../../core/lookups/index';
import { createSystemAlert, type SystemAlertListener } from '../alerts';
import type { Caller } from '../auth';
import { ENV, optionalEnv } from '../env';
import { ApiError, invalidInput } from '../errors';
import { OutboundError, send } from '../net';
import { checkSourceAtRefresh, checkSourceOnSave, setsSource } from './access';
import { claimName, deleteTable, getTable, listTables, putTable, releaseName, type StoredLookupTable } from './repository';
import { queryRecords } from './query-source';
import { isUploadId, readObject, readUpload, readVersion, writeVersion } from './storage';

export const TABLE_NOT_FOUND = 'There is no such lookup table';
export const NAME_TAKEN = 'A lookup table with this name already exists';
export const UPLOAD_MISSING = 'The uploaded file was not found: upload it again';
export const FILE_ONLY = 'A table made from a bundled file has that file as its source';
const PREVIEW_ROWS = 20;
const KEPT_VERSIONS = 10;

export interface DataUpload {
  uploadId: string;
  fileName: string;
}

export interface DataPreview {
  columns: { name: string; type: string }[];
  rows: Record<string, unknown>[];
  rowCount: number;
  skippedCount: number;
  skipped: { row: number; reason: string }[];
}

function recordsOf(fileName: string, text: string, provider?: LookupTableInput['provider']): Record<string, unknown>[] {
  try {
    return (provider && providerRecords(provider, text)) || parseRecords(fileName, text);
  } catch (error) {
    if (error instanceof LookupDataError) throw invalidInput({ file: error.message });
    throw error;
  }
}

async function uploadedRecords(upload: DataUpload, provider?: LookupTableInput['provider']): Promise<Record<string, unknown>[]> {
  if (!isUploadId(upload.uploadId)) throw invalidInput({ file: UPLOAD_MISSING });
  let text: string | undefined;
  try {
    text = await readUpload(upload.uploadId, MAX_DATA_BYTES);
  } catch (error) {
    if (error instanceof RangeError) throw invalidInput({ file: error.message });
    throw error;
  }
  if (text === undefined) throw invalidInput({ file: UPLOAD_MISSING });
  return recordsOf(upload.fileName, text, provider);
}

function previewOf(
  records: Record<string, unknown>[],
  primaryKey?: string | null,
  keyType: 'STRING' | 'CIDR' = 'STRING',
): DataPreview {
  const columns = inferColumns(records);
  if (!primaryKey || !columns.some((c) => c.name === primaryKey))
    return { columns, rows: records.slice(0, PREVIEW_ROWS), rowCount: records.length, skippedCount: 0, skipped: [] };
  const load = LookupData.build(records, primaryKey, keyType);
  return {
    columns,
    rows: records.slice(0, PREVIEW_ROWS),
    rowCount: load.table.rowCount,
    skippedCount: load.skippedCount,
    skipped: load.skipped,
  };
}

/** The columns, first rows and key problems of an uploaded file, before it is saved. */
export async function previewUpload(
  upload: DataUpload,
  primaryKey?: string | null,
  keyType?: 'STRING' | 'CIDR',
  provider?: LookupTableInput['provider'],
): Promise<DataPreview> {
  return previewOf(await uploadedRecords(upload, provider), primaryKey, keyType);
}

export const listLookupTables = async (): Promise<LookupTable[]> => (await listTables()).map(strip);
export async function getLookupTable(id: string): Promise<LookupTable | undefined> {
  const stored = await getTable(id);
  return stored && strip(stored);
}

function strip(stored: StoredLookupTable): LookupTable {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { revision, ...table } = stored;
  return table;
}

function normalized(input: LookupTableInput): LookupTableInput {
  const provider = input.provider ? PROVIDERS[input.provider] : undefined;
  if (input.provider && !provider) throw invalidInput({ provider: `Unknown provider: ${String(input.provider).slice(0, 60)}` });
  return {
    name: (input.name ?? '').trim(),
    description: input.description?.trim() || null,
    primaryKey: (input.primaryKey ?? '').trim(),
    keyType: input.keyType === 'CIDR' ? 'CIDR' : 'STRING',
    enabled: input.enabled !== false,
    provider: input.provider ?? null,
    source: {
      kind: input.source?.kind ?? 'FILE',
      location: input.source?.location?.trim() || null,
      roleArn: input.source?.roleArn?.trim() || null,
      refreshMinutes: input.source?.refreshMinutes ?? null,
      query: input.source?.query?.trim() || null,
    },
    associations: (input.associations ?? []).map((a) => ({
      logType: a.logType.trim(),
      selectors: a.selectors.map((s) => s.trim()).filter(Boolean),
    })),
  };
}

async function withData(table: LookupTable, records: Record<string, unknown>[], now: Date): Promise<LookupTable> {
  const load = LookupData.build(records, table.primaryKey, table.keyType);
  if (!load.table.rowCount)
    throw invalidInput({
      file: load.skipped[0]
        ? `No row has a usable primary key (row ${load.skipped[0].row}: ${load.skipped[0].reason})`
        : 'The file has no rows',
    });
  const version = table.version + 1;
  // the version holds the rows only: records without a usable key were reported by the preview and stay out
  const rows = load.skippedCount ? records.filter((record) => !keyProblem(record, table.primaryKey, table.keyType)) : records;
  const { key, sizeBytes } = await writeVersion(table.id, version, rows);
  const at = now.toISOString();
  return {
    ...table,
    columns: inferColumns(rows),
    version,
    rowCount: load.table.rowCount,
    sizeBytes,
    status: 'READY',
    lastRefreshAt: at,
    lastError: null,
    versions: [{ version, objectKey: key, rowCount: load.table.rowCount, sizeBytes, loadedAt: at }, ...table.versions].slice(
      0,
      KEPT_VERSIONS,
    ),
  };
}

function check(input: LookupTableInput, columns?: string[]): void {
  const problems = validateLookupTable(input, columns);
  if (problems.length) throw invalidInput(problems);
}

/**
 * A new table for the acting caller. A scheduled query or an S3 object needs the caller's permission for it
 * (core/permissions LOOKUP_SOURCE_ACCESS) and an S3 object a bucket the deployment allows; the caller is
 * recorded as the source's setter, on whose behalf every refresh reads it.
 */
export async function createLookupTable(
  raw: LookupTableInput,
  upload: DataUpload | null,
  caller: Caller,
  now = new Date(),
  /** Told of a refresh alert opened by the first read of an S3, URL or query source. */
  onAlert?: SystemAlertListener,
): Promise<LookupTable> {
  checkSourceOnSave(normalized(raw).source, caller);
  const records = upload ? await uploadedRecords(upload, raw.provider) : undefined;
  return createWithRecords(raw, records, caller.id, now, onAlert);
}

/**
 * A lookup table whose data is a file's text given here rather than uploaded (the demo's bundled tables), read
 * as an upload of that name is (CSV, JSON, a provider's format); checked and versioned as every table.
 */
export async function createLookupTableFromText(
  raw: LookupTableInput,
  file: { fileName: string; text: string },
  actor: string | null,
  now = new Date(),
): Promise<LookupTable> {
  if (Buffer.byteLength(file.text) > MAX_DATA_BYTES) throw invalidInput({ file: 'The file is larger than the data limit' });
  // No user stands behind this table: it may not read the lake or S3 on anyone's behalf.
  if (normalized(raw).source.kind !== 'FILE') throw invalidInput({ 'source.kind': FILE_ONLY });
  return createWithRecords(raw, recordsOf(file.fileName, file.text, raw.provider ?? undefined), actor, now);
}

async function createWithRecords(
  raw: LookupTableInput,
  records: Record<string, unknown>[] | undefined,
  actor: string | null,
  now: Date,
  onAlert?: SystemAlertListener,
): Promise<LookupTable> {
  const input = normalized(raw);
  check(input, records && inferColumns(records).map((c) => c.name));
  if (input.source.kind === 'FILE' && !records) throw invalidInput({ file: 'Upload a CSV or JSON file' });
  const id = randomUUID();
  if (!(await claimName(input.name, id))) throw new ApiError('AlreadyExists', NAME_TAKEN);
  try {
    let table: LookupTable = {
      ...input,
      id,
      columns: [],
      status: input.source.kind === 'QUERY' ? 'WAITING_FOR_SEARCH' : 'EMPTY',
      rowCount: 0,
      sizeBytes: 0,
      version: 0,
      versions: [],
      lastRefreshAt: null,
      lastError: null,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      createdBy: actor,
      updatedBy: actor,
      sourceSetBy: sourceAccess(input.source.kind) ? actor : null,
    };
    if (records) table = await withData(table, records, now);
    const saved = await putTable(table, 0);
    if (!saved) throw new ApiError('AlreadyExists', NAME_TAKEN);
    if (!records && input.source.kind !== 'FILE') return (await refreshLookupTable(id, now, onAlert)) ?? table;
    return strip(saved);
  } catch (error) {
    await releaseName(input.name, id);
    throw error;
  }
}

/**
 * Saves a table for the acting caller. A save that sets a scheduled query or an S3 object (another kind, query,
 * object or role than the stored one) needs the caller's permission for it, and the caller becomes the source's
 * setter; a save that keeps the source keeps its setter. An S3 object must lie in an allowed bucket.
 */
export async function updateLookupTable(
  id: string,
  raw: LookupTableInput,
  upload: DataUpload | null,
  caller: Caller,
  now = new Date(),
): Promise<LookupTable> {
  const current = await getTable(id);
  if (!current) throw new ApiError('NotFound', TABLE_NOT_FOUND);
  const input = normalized(raw);
  checkSourceOnSave(input.source, caller, current.source);
  const records = upload ? await uploadedRecords(upload, input.provider) : undefined;
  const columns = records ? inferColumns(records).map((c) => c.name) : current.columns.map((c) => c.name);
  check(input, columns);
  if (input.name.toLowerCase() !== current.name.toLowerCase() && !(await claimName(input.name, id)))
    throw new ApiError('AlreadyExists', NAME_TAKEN);
  const guarded = Boolean(sourceAccess(input.source.kind));
  let table: LookupTable = {
    ...strip(current),
    ...input,
    updatedAt: now.toISOString(),
    updatedBy: caller.id,
    sourceSetBy: !guarded ? null : setsSource(input.source, current.source) ? caller.id : (current.sourceSetBy ?? null),
  };
  if (records) table = await withData(table, records, now);
  else if (table.version && (input.primaryKey !== current.primaryKey || input.keyType !== current.keyType)) {
    // the key changed: the current data is indexed again under the new key
    table = await withData(table, await readVersion(current.versions[0].objectKey), now);
  }
  const saved = await putTable(table, current.revision);
  if (!saved) throw new ApiError('RevisionConflict', 'The lookup table changed while you edited it: reload and try again');
  if (input.name.toLowerCase() !== current.name.toLowerCase()) await releaseName(current.name, id);
  return strip(saved);
}

export async function deleteLookupTable(id: string): Promise<boolean> {
  const current = await getTable(id);
  if (!current) return false;
  await deleteTable(id);
  await releaseName(current.name, id);
  return true;
}

/** Which row of a table a key matches (exact, or the longest CIDR prefix). */
export async function testLookupValue(
  id: string,
  key: string,
): Promise<{ matched: boolean; row: Record<string, unknown> | null }> {
  const current = await getTable(id);
  if (!current) throw new ApiError('NotFound', TABLE_NOT_FOUND);
  if (!current.version) return { matched: false, row: null };
  const data = await loadTableData(current);
  const row = data.lookup(key.trim());
  return { matched: Boolean(row), row: row ?? null };
}

/** The first rows of a saved table's current version. */
export async function tablePreview(id: string): Promise<DataPreview> {
  const current = await getTable(id);
  if (!current) throw new ApiError('NotFound', TABLE_NOT_FOUND);
  if (!current.version) return { columns: current.columns, rows: [], rowCount: 0, skippedCount: 0, skipped: [] };
  const records = await readVersion(current.versions[0].objectKey);
  return { ...previewOf(records), rowCount: current.rowCount };
}

export async function loadTableData(table: LookupTable): Promise<LookupData> {
  return LookupData.build(await readVersion(table.versions[0].objectKey), table.primaryKey, table.keyType).table;
}

/** How long a provider's data file may take to arrive. */
export const URL_FETCH_TIMEOUT_MS = 120_000;

/**
 * A provider's data file from its URL, through the guarded outbound client (link-local and metadata addresses
 * refused always, private networks unless LOOKUPS_ALLOW_PRIVATE_NETWORKS), at most MAX_DATA_BYTES (50 MB).
 */
export async function fetchUrl(url: string, options: { timeoutMs?: number; maxBytes?: number } = {}): Promise<string> {
  let answer;
  try {
    answer = await send(
      { url, method: 'GET' },
      {
        allowPrivateNetworks: optionalEnv(ENV.lookupsAllowPrivateNetworks) === 'true',
        maxBytes: options.maxBytes ?? MAX_DATA_BYTES,
        refuseLarger: true,
        timeoutMs: options.timeoutMs ?? URL_FETCH_TIMEOUT_MS,
        userAgent: 'Caracal-Lookup-Refresh',
      },
    );
  } catch (error) {
    if (error instanceof OutboundError) throw new Error(`Could not fetch ${url}: ${error.message}`);
    throw error;
  }
  if (answer.statusCode < 200 || answer.statusCode >= 300)
    throw new Error(`Could not fetch ${url}: HTTP ${answer.statusCode}${answer.text ? ` (${answer.text.slice(0, 200)})` : ''}`);
  return answer.body;
}

/**
 * Reads a table's source again (S3 object or scheduled query) and stores a new version. An S3 object or a query
 * is read on behalf of the user who set it: when they no longer exist, are deactivated or lack its permission
 * (or the bucket is no longer allowed), the refresh fails with that reason. On failure the last good version
 * stays, the table shows the error, and a LOOKUP_TABLE_REFRESH system alert is raised.
 */
export async function refreshLookupTable(
  id: string,
  now = new Date(),
  /** Told of a newly opened refresh alert (by default every user who may read alerts is notified). */
  onAlert?: SystemAlertListener,
): Promise<LookupTable | undefined> {
  const current = await getTable(id);
  if (!current) return undefined;
  const { source } = current;
  if (source.kind === 'FILE') return strip(current);
  let table: LookupTable;
  try {
    let records: Record<string, unknown>[];
    // on behalf of the user who set the source, as they are now (and from an allowed bucket)
    await checkSourceAtRefresh(current);
    if (source.kind === 'S3')
      records = recordsOf(source.location!, await readObject(source.location!, MAX_DATA_BYTES, source.roleArn), current.provider);
    else if (source.kind === 'QUERY') records = await queryRecords(source.query!, now);
    else records = recordsOf(source.location!, await fetchUrl(source.location!), current.provider);
    table = await withData(strip(current), records, now);
  } catch (error) {
    const message =
      error instanceof ApiError ? error.fieldErrors.map((e) => e.message).join('; ') || error.message : (error as Error).message;
    table = {
      ...strip(current),
      status: current.version ? 'REFRESH_FAILED' : 'REFRESH_FAILED',
      lastError: message.slice(0, 1000),
      lastRefreshAt: now.toISOString(),
    };
    await createSystemAlert(
      {
        kind: 'LOOKUP_TABLE_REFRESH',
        title: `Lookup table ${current.name} could not be refreshed`,
        description: `${message.slice(0, 900)}${current.version ? ` The table keeps version ${current.version} (${current.rowCount} rows).` : ' The table has no data yet.'}`,
        severity: 'MEDIUM',
        dedupKey: `LOOKUP_TABLE_REFRESH:${id}`,
      },
      { now, onCreated: onAlert },
    );
  }
  const saved = await putTable(table, current.revision);
  return saved ? strip(saved) : strip((await getTable(id))!);
}

/** Refreshes every table whose refresh period has passed (the scheduled lookup-refresh function). */
export async function refreshDueTables(
  now = new Date(),
  log: (line: string) => void = () => {},
  onAlert?: SystemAlertListener,
): Promise<number> {
  let refreshed = 0;
  for (const table of await listTables()) {
    if (!table.enabled || table.source.kind === 'FILE' || !table.source.refreshMinutes) continue;
    const last = table.lastRefreshAt ? Date.parse(table.lastRefreshAt) : 0;
    if (now.getTime() - last < table.source.refreshMinutes * 60_000) continue;
    const after = await refreshLookupTable(table.id, now, onAlert);
    log(`lookup table ${table.name}: ${after?.status ?? 'gone'}${after?.lastError ? ` (${after.lastError})` : ''}`);
    refreshed++;
  }
  return refreshed;
}
