// The detections list (filtered, sorted and numbered pages), bulk enable, disable and delete with a result per
// item, and packs (list, details, enable or disable a whole pack). The list reads each readable type with one
// Query of its index partition (without YAML and Python), then filters, sorts and pages in the function: at
// thousands of detections that is one round of Queries (see bench/detections-list.bench.ts).
import {
  compareDetections,
  DEFAULT_DETECTION_PAGE_SIZE,
  DEFAULT_DETECTION_SORT,
  DEFAULT_SORT_DIRECTION,
  DETECTION_SORTS,
  matchesDetectionFilter,
  MAX_DETECTION_PAGE_SIZE,
  mitreEntries,
  pageOf,
  SEVERITIES,
  type DetectionListEntry,
  type DetectionSort,
  type DetectionSortDirection,
  type PageOf,
} from '../../../core/detections';
import { withImpliedReads, type Permission } from '../../../core/permissions';
import type { Caller } from '../auth';
import { ApiError } from '../errors';
import { permissionArea, STORED_TYPES, type StoredDetection, type StoredType } from './model';
import { getPack, listPacks as storedPacks, type StoredPack } from './pack-repository';
import { listSummaries } from './repository';
import { referencedIds } from './save-checks';
import { deleteDetection, setDetectionEnabled } from './service';

/** Longest text filter (log type, tag, search, MITRE ids). */
const MAX_FILTER_TEXT = 200;
/** Most items one bulk action takes. */
export const MAX_BULK_ITEMS = 1000;
/** Items a bulk action works on at once. */
const BULK_CONCURRENCY = 8;

const permissionsOf = (caller: Caller) => new Set<Permission>(withImpliedReads(caller.permissions));
const mayRead = (caller: Caller, type: StoredType) => permissionsOf(caller).has(`${permissionArea(type)}Read` as Permission);
const mayModify = (caller: Caller, type: StoredType) => permissionsOf(caller).has(`${permissionArea(type)}Modify` as Permission);

/** A listed detection: its stored summary (no YAML or Python) and the packs that hold it. */
export interface ListedDetection extends StoredDetection {
  readonly managed: boolean;
  readonly packs: readonly string[];
}

/** Pack ids by the ids of the items they hold. */
function packsByItem(packs: readonly StoredPack[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const pack of packs) for (const id of pack.ids) map.set(id, [...(map.get(id) ?? []), pack.id]);
  return map;
}

/** The packs holding one item: the editor shows a detection from a pack as managed. */
export async function packsOf(id: string): Promise<string[]> {
  return packsByItem(await storedPacks()).get(id) ?? [];
}

function entryOf(d: ListedDetection): DetectionListEntry {
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  const tags = Array.isArray(d.spec.Tags) ? d.spec.Tags.filter((t): t is string => typeof t === 'string') : [];
  const detects = d.type !== 'global' && d.type !== 'datamodel';
  return {
    id: d.id,
    type: d.type,
    displayName: text(d.spec.DisplayName),
    enabled: d.enabled,
    severity: detects ? text(d.spec.Severity) : null,
    logTypes: d.logTypes,
    tags,
    mitre: mitreEntries(d.spec),
    managed: d.managed,
    lastModified: d.lastModified,
  };
}

/**
 * Every item of the readable types among `types`, with their packs. A correlation rule has no log types of its
 * own: it lists those of the rules it references (when the caller may read rules), so the Log Types cell and the
 * log type filter treat it as the destinations' routing does.
 */
async function readableItems(caller: Caller, types: readonly StoredType[]): Promise<ListedDetection[]> {
  const allowed = types.filter((t) => mayRead(caller, t));
  const referenced = allowed.includes('correlation_rule') && !allowed.includes('rule') && mayRead(caller, 'rule');
  const [packs, rules, ...lists] = await Promise.all([
    storedPacks(),
    referenced ? listSummaries('rule') : [],
    ...allowed.map(listSummaries),
  ]);
  const byItem = packsByItem(packs);
  const items = lists.flat();
  const ruleLogTypes = new Map(
    [...rules, ...items].filter((d) => d.type === 'rule' && mayRead(caller, 'rule')).map((d) => [d.id, d.logTypes]),
  );
  return items.map((d) => {
    const held = byItem.get(d.id) ?? [];
    const logTypes =
      d.type === 'correlation_rule'
        ? [...new Set(referencedIds(d).flatMap((id) => ruleLogTypes.get(id) ?? []))].sort()
        : d.logTypes;
    return { ...d, logTypes, managed: held.length > 0, packs: held };
  });
}

/** A list's filters, order and page as asked (the API's input in the area's names); every field is checked here. */
export interface DetectionListQuery {
  /** Stored types (STORED_TYPES). */
  readonly types?: readonly string[] | null;
  /** Core's SEVERITIES. */
  readonly severities?: readonly string[] | null;
  readonly enabled?: boolean | null;
  readonly logType?: string | null;
  readonly tag?: string | null;
  readonly mitreTactic?: string | null;
  readonly mitreTechnique?: string | null;
  readonly managed?: boolean | null;
  readonly search?: string | null;
  /** One of DETECTION_SORTS. */
  readonly sortBy?: string | null;
  /** ascending or descending. */
  readonly sortDir?: string | null;
  readonly page?: number | null;
  readonly pageSize?: number | null;
}

const optionalText = (value: unknown, field: string): string | undefined => {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || value.length > MAX_FILTER_TEXT)
    throw new ApiError('InvalidInput', `${field} must be text of at most ${MAX_FILTER_TEXT} characters`);
  return value;
};
const optionalBoolean = (value: unknown, field: string): boolean | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new ApiError('InvalidInput', `${field} must be true or false`);
  return value;
};
const wholeNumber = (value: unknown, field: string, min: number, max: number, fallback: number): number => {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new ApiError('InvalidInput', `${field} must be a whole number from ${min} to ${max}`);
  return value;
};

/** One numbered page of the detections the caller may read, filtered and sorted. */
const isStoredType = (value: string): value is StoredType => (STORED_TYPES as readonly string[]).includes(value);
const isDetectionSort = (value: string): value is DetectionSort => (DETECTION_SORTS as readonly string[]).includes(value);
const isSortDirection = (value: string): value is DetectionSortDirection => value === 'ascending' || value === 'descending';

export async function listDetectionPage(caller: Caller, query: DetectionListQuery): Promise<PageOf<ListedDetection>> {
  const types = query.types?.length ? query.types : STORED_TYPES;
  if (!types.every(isStoredType)) throw new ApiError('InvalidInput', `types must be a list of ${STORED_TYPES.join(', ')}`);
  const severities = query.severities ?? undefined;
  if (severities?.some((s) => !(SEVERITIES as readonly string[]).includes(s)))
    throw new ApiError('InvalidInput', `severities must be a list of ${SEVERITIES.join(', ')}`);
  const sort = query.sortBy ?? DEFAULT_DETECTION_SORT;
  if (!isDetectionSort(sort)) throw new ApiError('InvalidInput', `sortBy must be one of ${DETECTION_SORTS.join(', ')}`);
  const direction = query.sortDir ?? DEFAULT_SORT_DIRECTION;
  if (!isSortDirection(direction)) throw new ApiError('InvalidInput', 'sortDir must be ascending or descending');
  const filter = {
    severities,
    enabled: optionalBoolean(query.enabled, 'enabled'),
    managed: optionalBoolean(query.managed, 'managed'),
    logType: optionalText(query.logType, 'logType'),
    tag: optionalText(query.tag, 'tag'),
    mitreTactic: optionalText(query.mitreTactic, 'mitreTactic'),
    mitreTechnique: optionalText(query.mitreTechnique, 'mitreTechnique'),
    search: optionalText(query.search, 'search'),
  };
  const page = wholeNumber(query.page, 'page', 1, 1_000_000, 1);
  const pageSize = wholeNumber(query.pageSize, 'pageSize', 1, MAX_DETECTION_PAGE_SIZE, DEFAULT_DETECTION_PAGE_SIZE);
  const items = await readableItems(caller, types);
  const compare = compareDetections(sort, direction);
  const kept = items
    .map((d) => ({ d, entry: entryOf(d) }))
    .filter(({ entry }) => matchesDetectionFilter(entry, filter))
    .sort((a, b) => compare(a.entry, b.entry))
    .map(({ d }) => d);
  return pageOf(kept, page, pageSize);
}

/**
 * What the list's filters offer: the log types and tags of the detections the caller may read (a scheduled rule's
 * names are of its scheduled queries, not log types).
 */
export async function detectionFacets(caller: Caller): Promise<{ logTypes: string[]; tags: string[] }> {
  const items = await readableItems(caller, STORED_TYPES);
  const sorted = (values: Iterable<string>) => [...new Set(values)].sort((a, b) => a.localeCompare(b));
  return {
    logTypes: sorted(items.filter((d) => d.type !== 'scheduled_rule').flatMap((d) => d.logTypes)),
    tags: sorted(items.flatMap((d) => entryOf(d).tags)),
  };
}

/** The outcome of a bulk action on one item: done, or the error that stopped it. */
export interface ItemResult {
  readonly id: string;
  readonly ok: boolean;
  readonly errorType: string | null;
  readonly message: string | null;
}

function idsOf(value: unknown): string[] {
  if (!Array.isArray(value) || !value.length || value.some((v) => typeof v !== 'string' || !v.trim() || v.length > 1000))
    throw new ApiError('InvalidInput', 'ids must be a list of detection ids');
  if (value.length > MAX_BULK_ITEMS) throw new ApiError('InvalidInput', `ids holds more than ${MAX_BULK_ITEMS} detections`);
  return [...new Set(value as string[])];
}

/** Runs `action` on each id, a few at a time, and answers one result per id, in the order given. */
async function eachItem(ids: readonly string[], action: (id: string) => Promise<unknown>): Promise<ItemResult[]> {
  const results: ItemResult[] = new Array(ids.length);
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const index = next++;
      const id = ids[index];
      try {
        await action(id);
        results[index] = { id, ok: true, errorType: null, message: null };
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        results[index] = { id, ok: false, errorType: err.errorType, message: err.message };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(BULK_CONCURRENCY, ids.length) }, worker));
  return results;
}

/** Switches each detection on or off (RuleModify or PolicyModify by the item's type), reported per item. */
export async function bulkSetEnabled(caller: Caller, ids: readonly string[], enabled: unknown): Promise<ItemResult[]> {
  const list = idsOf(ids);
  if (typeof enabled !== 'boolean') throw new ApiError('InvalidInput', 'enabled must be true or false');
  return eachItem(list, (id) => setDetectionEnabled(caller, id, enabled));
}

/** Deletes each detection (RuleModify or PolicyModify by the item's type), reported per item. */
export async function bulkDelete(caller: Caller, ids: readonly string[]): Promise<ItemResult[]> {
  return eachItem(idsOf(ids), (id) => deleteDetection(caller, id));
}

/** A pack with what it holds: each item's stored summary, or null for one not stored (a query, say). */
export interface PackDetails {
  readonly pack: StoredPack;
  readonly items: { readonly id: string; readonly item: StoredDetection | null }[];
}

export const PACK_NOT_FOUND = 'Pack not found';

const mayReadPacks = (caller: Caller) => STORED_TYPES.some((t) => mayRead(caller, t));

/** Every pack, with what it holds (the items the caller may read). */
export async function listPacks(caller: Caller): Promise<PackDetails[]> {
  if (!mayReadPacks(caller)) return [];
  const [packs, items] = await Promise.all([storedPacks(), readableItems(caller, STORED_TYPES)]);
  const byId = new Map(items.map((d) => [d.id, d]));
  return packs.map((pack) => ({ pack, items: pack.ids.map((id) => ({ id, item: byId.get(id) ?? null })) }));
}

/** One pack with what it holds, or NotFound. */
export async function packDetails(caller: Caller, id: string): Promise<PackDetails> {
  const pack = await getPack(id);
  if (!pack || !mayReadPacks(caller)) throw new ApiError('NotFound', PACK_NOT_FOUND);
  const items = await readableItems(caller, STORED_TYPES);
  const byId = new Map(items.map((d) => [d.id, d]));
  return { pack, items: pack.ids.map((itemId) => ({ id: itemId, item: byId.get(itemId) ?? null })) };
}

/**
 * Switches every detection and data model of a pack on or off (global helpers have no switch; items not
 * stored are left out), reported per item; an item the caller may not modify is refused on its own.
 */
export async function setPackEnabled(caller: Caller, id: string, enabled: boolean): Promise<ItemResult[]> {
  if (typeof enabled !== 'boolean') throw new ApiError('InvalidInput', 'enabled must be true or false');
  const details = await packDetails(caller, id);
  const switchable = details.items.filter(({ item }) => item && item.type !== 'global').map(({ id: itemId }) => itemId);
  if (
    switchable.length &&
    !switchable.some((itemId) => mayModify(caller, details.items.find((i) => i.id === itemId)!.item!.type))
  )
    throw new ApiError('Unauthorized', 'You do not have permission to modify the detections of this pack');
  return eachItem(switchable, (itemId) => setDetectionEnabled(caller, itemId, enabled));
}
