// The detections services: list, read, create, update, enable/disable, delete, run unit tests, bulk upload.
// The permission map lets in anyone with a Rule or Policy permission; each service then checks the item's own
// area (policies: Policy*, everything else: Rule*), so neither side reaches the other's items. Input is
// checked here with core/detections' rules; refused input names each problem on its key.
import { withImpliedReads, type Permission } from '../../../core/permissions';
import { readYaml } from '../../../core/yaml';
import { actorName, type Caller } from '../auth';
import { ApiError, invalidInput } from '../errors';
import { bulkUpload, BulkUploadError, MAX_ZIP_BYTES, readZip, ZIP_TOO_LARGE, type BulkReport } from './bulk';
import { lambdaEngine } from './engine';
import { permissionArea, type DetectionDraft, type StoredDetection, type StoredType } from './model';
import { listPacks } from './pack-repository';
import * as store from './repository';
import { checkDrafts, knownLogTypes, referenceLookup } from './save-checks';
import { validateDetection } from './validate';
import { refuseDeleteInUse } from './usage';

export const DETECTION_NOT_FOUND = 'Detection not found';
/** Largest tests document a run takes. */
const MAX_TESTS_YAML = 512 * 1024;
/** Longest log type or search text a list takes. */
const MAX_FILTER_TEXT = 200;

const permissionsOf = (caller: Caller) => new Set<Permission>(withImpliedReads(caller.permissions));
const mayRead = (caller: Caller, type: StoredType) => permissionsOf(caller).has(`${permissionArea(type)}Read` as Permission);
const mayModify = (caller: Caller, type: StoredType) => permissionsOf(caller).has(`${permissionArea(type)}Modify` as Permission);
/** Who a save is recorded as made by. */

export function requireModify(caller: Caller, type: StoredType) {
  if (!mayModify(caller, type))
    throw new ApiError('Unauthorized', `You do not have permission to modify ${type === 'policy' ? 'policies' : 'rules'}`);
}

/** A detection the caller may read, or NotFound (an unreadable item is not acknowledged). */
export async function readable(caller: Caller, id: string, version?: number): Promise<StoredDetection> {
  const found = version === undefined ? await store.getDetection(id) : await store.getDetectionVersion(id, version);
  if (!found || !mayRead(caller, found.type)) throw new ApiError('NotFound', DETECTION_NOT_FOUND);
  return found;
}

/** A store conflict as the API's error. */
export function conflictError(err: unknown): never {
  if (err instanceof store.DetectionConflict) {
    if (err.reason === 'exists') throw new ApiError('AlreadyExists', err.message);
    if (err.reason === 'missing') throw new ApiError('NotFound', DETECTION_NOT_FOUND);
    throw new ApiError('RevisionConflict', err.message);
  }
  throw err;
}

export interface DetectionsQuery {
  /** Only these types; the caller sees only those they may read. */
  readonly types: readonly StoredType[];
  readonly enabled?: boolean | null;
  readonly logType?: string | null;
  readonly search?: string | null;
}

/** One page of the detections the caller may read, ordered by id, after the id `after`. */
export async function listDetections(
  caller: Caller,
  query: DetectionsQuery,
  page: { readonly pageSize: number; readonly after?: string },
): Promise<store.DetectionPage> {
  const allowed = query.types.filter((t) => mayRead(caller, t));
  if (query.enabled !== undefined && query.enabled !== null && typeof query.enabled !== 'boolean')
    throw new ApiError('InvalidInput', 'enabled must be true or false');
  for (const field of ['logType', 'search'] as const) {
    const value = query[field];
    if (value !== undefined && value !== null && (typeof value !== 'string' || value.length > MAX_FILTER_TEXT))
      throw new ApiError('InvalidInput', `${field} must be text of at most ${MAX_FILTER_TEXT} characters`);
  }
  if (!allowed.length) return { items: [], next: null };
  return store.listDetections(
    {
      types: allowed,
      enabled: typeof query.enabled === 'boolean' ? query.enabled : undefined,
      logType: typeof query.logType === 'string' ? query.logType : undefined,
      search: typeof query.search === 'string' ? query.search : undefined,
    },
    page.pageSize,
    page.after,
  );
}

/** The current version of a detection (or one saved `version`), or null when the caller may not read it. */
export async function getDetection(caller: Caller, id: string, version?: number): Promise<StoredDetection | null> {
  if (version !== undefined && (typeof version !== 'number' || !Number.isInteger(version) || version < 1))
    throw new ApiError('InvalidInput', 'version must be a whole number from 1');
  try {
    return await readable(caller, id, version);
  } catch (err) {
    if (err instanceof ApiError && err.errorType === 'NotFound') return null;
    throw err;
  }
}

/** A detection as submitted: its YAML document and, when the document names a `Filename`, its Python. */
/** A detection's YAML and, for a Python one, its source (checked by validated). */
export interface DetectionSource {
  readonly yaml: string;
  readonly body?: string | null;
}

export function validated(source: DetectionSource): DetectionDraft {
  if (typeof source.yaml !== 'string') throw new ApiError('InvalidInput', 'yaml is required');
  if (source.body !== undefined && source.body !== null && typeof source.body !== 'string')
    throw new ApiError('InvalidInput', 'body must be text');
  const result = validateDetection(source.yaml, source.body);
  if (!result.ok) throw invalidInput(result.problems.map((message) => ({ path: '', message })));
  return result.draft;
}

/** Refuses a draft that fails the save checks; `current` is the stored version an update replaces. */
export async function refuseUnsaveable(draft: DetectionDraft, current: StoredDetection | null) {
  const context = {
    knownLogTypes: await knownLogTypes(current?.logTypes),
    references: await referenceLookup([draft]),
    engine: lambdaEngine,
  };
  const problems = (await checkDrafts([draft], context)).get(draft.id);
  if (problems) throw invalidInput(problems);
}

export const MANAGED_READ_ONLY = 'Managed detections are read-only: use Clone & edit to change a copy';

/** JSON with object keys sorted, to compare documents whatever order their keys were written in. */
const stable = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );

/** Whether `draft` changes `current` only in its inline filters (the tuning a managed detection allows). */
function onlyInlineFilters(current: StoredDetection, draft: DetectionDraft): boolean {
  const { InlineFilters: _was, ...before } = current.spec;
  const { InlineFilters: _now, ...after } = draft.spec;
  return current.body === draft.body && stable(before) === stable(after);
}

/**
 * Refuses a change to a detection a pack holds (a managed one), except a change of its inline filters alone;
 * packs change through bulk upload. Without `draft`, any change is refused.
 */
export async function refuseManaged(current: StoredDetection, draft?: DetectionDraft): Promise<void> {
  if (!(await listPacks()).some((pack) => pack.ids.includes(current.id))) return;
  if (draft && onlyInlineFilters(current, draft)) return;
  throw new ApiError('InvalidUpdate', MANAGED_READ_ONLY);
}

/** Saves a new detection, recorded as made by the caller. */
export async function createDetection(caller: Caller, source: DetectionSource): Promise<StoredDetection> {
  const draft = validated(source);
  requireModify(caller, draft.type);
  await refuseUnsaveable(draft, null);
  try {
    return await store.saveDetection(draft, actorName(caller), 0);
  } catch (err) {
    conflictError(err);
  }
}

/** Saves a new version of a detection; with `versionId`, only if it is still the current version. */
export async function updateDetection(
  caller: Caller,
  source: DetectionSource & { readonly versionId?: number | null },
): Promise<StoredDetection> {
  const draft = validated(source);
  requireModify(caller, draft.type);
  const current = await store.getDetection(draft.id);
  if (!current || !mayRead(caller, current.type)) throw new ApiError('NotFound', DETECTION_NOT_FOUND);
  requireModify(caller, current.type);
  await refuseManaged(current, draft);
  await refuseUnsaveable(draft, current);
  const version = source.versionId;
  if (version !== undefined && version !== null && (typeof version !== 'number' || !Number.isInteger(version)))
    throw new ApiError('InvalidInput', 'versionId must be a whole number');
  try {
    return await store.saveDetection(draft, actorName(caller), typeof version === 'number' ? version : current.version);
  } catch (err) {
    conflictError(err);
  }
}

/** Switches a detection on or off (a new version). */
export async function setDetectionEnabled(caller: Caller, id: string, enabled: boolean): Promise<StoredDetection> {
  const current = await readable(caller, id);
  if (typeof enabled !== 'boolean') throw new ApiError('InvalidInput', 'enabled must be true or false');
  requireModify(caller, current.type);
  try {
    return await store.setDetectionEnabled(current.id, enabled, actorName(caller));
  } catch (err) {
    conflictError(err);
  }
}

/** Deletes a detection with every saved version; a global helper or data model in use is refused (InUse). */
export async function deleteDetection(caller: Caller, id: string): Promise<{ id: string }> {
  const current = await readable(caller, id);
  requireModify(caller, current.type);
  await refuseDeleteInUse(current);
  await store.deleteDetection(current.id);
  return { id: current.id };
}

/** The tests of a YAML document: a list of named tests, names unique. */
export function testsOf(testsYaml: unknown): unknown[] {
  if (typeof testsYaml !== 'string' || testsYaml.length > MAX_TESTS_YAML)
    throw new ApiError('InvalidInput', 'testsYaml must be YAML text of at most 512 KB');
  let parsed: unknown;
  try {
    parsed = readYaml(testsYaml);
  } catch (err) {
    throw new ApiError('InvalidInput', `Invalid test: ${(err as Error).message.split('\n')[0]}`);
  }
  if (!Array.isArray(parsed)) throw new ApiError('InvalidInput', 'Invalid test: expected a YAML list of tests');
  const names = parsed.map((t) => (t && typeof t === 'object' ? (t as Record<string, unknown>).Name : undefined));
  if (names.some((n) => typeof n !== 'string' || !n.trim()))
    throw new ApiError('InvalidInput', 'Invalid test: every test needs a Name');
  if (new Set(names).size !== names.length) throw new ApiError('InvalidInput', 'No duplicate test names');
  return parsed;
}

/** The zip of a bulk upload, from its base64 text (a `data:` URL prefix and line breaks allowed). */
function zipOf(data: unknown): Uint8Array {
  if (typeof data !== 'string' || !data) throw new ApiError('InvalidInput', 'data is required (the zip file, base64 encoded)');
  if (data.length > Math.ceil((MAX_ZIP_BYTES * 4) / 3) + 4) throw new ApiError('InvalidInput', ZIP_TOO_LARGE);
  const compact = data.replace(/^data:[^,]*,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1)
    throw new ApiError('InvalidInput', 'data is not valid base64');
  return Buffer.from(compact, 'base64');
}

async function upload(zip: Uint8Array, options: Omit<Parameters<typeof bulkUpload>[1], 'engine'>): Promise<BulkReport> {
  try {
    return await bulkUpload(readZip(zip), { ...options, engine: lambdaEngine });
  } catch (err) {
    if (err instanceof BulkUploadError) throw new ApiError('InvalidInput', err.message);
    throw err;
  }
}

/**
 * Checks (and unless `validateOnly`, saves) every item of a zip in the panther-analysis layout, base64
 * encoded; the caller's items of a kind they may not modify are reported, not saved.
 */
export function uploadDetections(
  caller: Caller,
  /** The zip, base64 encoded. */
  data: string,
  options: { readonly validateOnly: boolean },
): Promise<BulkReport> {
  const zip = zipOf(data);
  return upload(zip, {
    validateOnly: options.validateOnly,
    user: actorName(caller),
    mayModify: (type) => mayModify(caller, type),
  });
}

/** Saves every item of a zip on Caracal's own behalf (the demo's detections), recorded as made by `user`. */
export function seedDetections(zip: Uint8Array, user: string): Promise<BulkReport> {
  return upload(zip, { validateOnly: false, user, mayModify: () => true });
}
