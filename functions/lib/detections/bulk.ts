// Bulk upload: a zip in the panther-analysis layout, read whole in memory within fixed limits, validated with
// core/detections' repository model (every file on its own, then the cross-checks), checked as a single save
// is (the deployment's log types, the engine's reading of the Python), compared with the store and, unless
// only validating, saved item by item. Every item gets a status and its reasons. Packs are stored after the
// items they hold, and only when every one of those the zip carries was saved.
import { unzipSync, type UnzipFileInfo } from 'fflate';
import {
  isAnalysisFile,
  isIgnoredDirectory,
  loadRepository,
  problemLine,
  type AnalysisItem,
  type SourceFile,
} from '../../../core/detections';
import { getPack, savePack } from './pack-repository';
import { getDetections, saveDetection } from './repository';
import { isStoredType, type DetectionDraft, type StoredDetection, type StoredType } from './model';
import type { Engine } from './engine';
import { checkDrafts, knownLogTypes, referenceLookup } from './save-checks';
import { documentId, draftFromItem } from './validate';

/** Largest zip accepted (decoded). */
export const MAX_ZIP_BYTES = 5 * 1024 * 1024;
/** Largest total of the files inside (zip bombs stop here). */
export const MAX_UNZIPPED_BYTES = 50 * 1024 * 1024;
export const MAX_FILES = 5000;

export const BAD_ZIP = 'The file is not a valid zip archive';
export const ZIP_TOO_LARGE = `The zip file is larger than ${MAX_ZIP_BYTES / 1024 / 1024} MB`;
export const UNZIPPED_TOO_LARGE = `The zip file expands to more than ${MAX_UNZIPPED_BYTES / 1024 / 1024} MB`;
export const TOO_MANY_FILES = `The zip file holds more than ${MAX_FILES} files`;
export const NOTHING_TO_UPLOAD = 'The zip file holds no detections, global helpers or data models';

export class BulkUploadError extends Error {}

export type ItemStatus = 'COMPLETED' | 'FAILED' | 'NOT_PROCESSED';
export type ItemChange = 'NEW' | 'MODIFIED' | 'UNCHANGED';

/** What a bulk upload stores: detections, global helpers and data models, and packs. */
export type UploadedType = StoredType | 'pack';

export interface BulkItem {
  readonly id: string;
  readonly type: UploadedType;
  readonly path: string;
  status: ItemStatus;
  change: ItemChange;
  reasons: string[];
}

export interface BulkReport {
  readonly items: BulkItem[];
  readonly fileIssues: { path: string; message: string }[];
  readonly totals: { total: number; new: number; modified: number; unchanged: number; failed: number };
}

export interface BulkOptions {
  /** Only check: nothing is saved; COMPLETED means the item would be saved. */
  readonly validateOnly: boolean;
  /** Who saves (recorded on each version). */
  readonly user: string;
  /** The types the caller may modify; other items are NOT_PROCESSED (packs need the rules' Modify). */
  readonly mayModify: (type: StoredType) => boolean;
  /** Checks the Python of the items the caller may modify. */
  readonly engine: Pick<Engine, 'check'>;
}

const TEXT_FILE = /\.(ya?ml|py|jsonl?|csv)$/i;

/** The zip's text files (analysis YAML, Python, lookup data), with ignored folders left out. */
export function readZip(zip: Uint8Array): SourceFile[] {
  if (zip.byteLength > MAX_ZIP_BYTES) throw new BulkUploadError(ZIP_TOO_LARGE);
  let expanded = 0;
  let count = 0;
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(zip, {
      filter: (file: UnzipFileInfo) => {
        if (file.name.endsWith('/')) return false;
        if (++count > MAX_FILES) throw new BulkUploadError(TOO_MANY_FILES);
        const parts = file.name.split('/');
        if (parts.slice(0, -1).some(isIgnoredDirectory) || !TEXT_FILE.test(file.name)) return false;
        expanded += file.originalSize;
        if (expanded > MAX_UNZIPPED_BYTES) throw new BulkUploadError(UNZIPPED_TOO_LARGE);
        return true;
      },
    });
  } catch (err) {
    if (err instanceof BulkUploadError) throw err;
    throw new BulkUploadError(BAD_ZIP);
  }
  const decoder = new TextDecoder('utf-8', { fatal: false });
  let total = 0;
  const files: SourceFile[] = [];
  for (const [name, bytes] of Object.entries(entries)) {
    total += bytes.byteLength;
    if (total > MAX_UNZIPPED_BYTES) throw new BulkUploadError(UNZIPPED_TOO_LARGE);
    files.push({ path: name.replace(/^\/+/, ''), text: decoder.decode(bytes) });
  }
  return files;
}

const UNSUPPORTED: Record<string, string> = {
  lookup_table: 'lookup tables are not stored yet',
};

/** Validates (and unless `validateOnly`, saves) the items of a panther-analysis repository's files. */
export async function bulkUpload(files: readonly SourceFile[], options: BulkOptions): Promise<BulkReport> {
  const byPath = new Map(files.map((f) => [f.path, f.text]));
  // Only YAML files are analysis items; the Python and data files they name are found through `byPath`.
  const repository = loadRepository(
    files.filter((f) => isAnalysisFile(f.path)),
    (path) => byPath.has(path),
  );
  const items: BulkItem[] = [];
  const fileIssues: { path: string; message: string }[] = [];
  const failedPaths = new Map<string, string[]>();
  for (const issue of repository.issues) failedPaths.set(issue.path, [...(failedPaths.get(issue.path) ?? []), issue.message]);

  // Items that loaded but are named in an issue (duplicate ids, cross-checks) fail with it.
  const loaded = new Map<string, AnalysisItem>(repository.items.map((i) => [i.path, i]));
  for (const [path, reasons] of failedPaths) {
    const item = loaded.get(path);
    const yaml = byPath.get(path) ?? '';
    const id = item?.id ?? documentId(yaml);
    const type = item?.type ?? typeOfDocument(yaml);
    if (id && type && (isStoredType(type) || type === 'pack'))
      items.push({ id, type, path, status: 'FAILED', change: 'NEW', reasons });
    else fileIssues.push({ path, message: reasons.join('; ') });
  }

  const drafts: { item: BulkItem; draft: DetectionDraft }[] = [];
  const packs: { item: BulkItem; spec: AnalysisItem['spec'] }[] = [];
  for (const item of repository.items) {
    if (failedPaths.has(item.path)) continue;
    if (item.type === 'pack') {
      const entry: BulkItem = { id: item.id, type: 'pack', path: item.path, status: 'NOT_PROCESSED', change: 'NEW', reasons: [] };
      items.push(entry);
      packs.push({ item: entry, spec: item.spec });
      continue;
    }
    if (!isStoredType(item.type)) {
      fileIssues.push({ path: item.path, message: `${item.id}: ${UNSUPPORTED[item.type] ?? 'not stored'}; skipped` });
      continue;
    }
    const entry: BulkItem = {
      id: item.id,
      type: item.type,
      path: item.path,
      status: 'NOT_PROCESSED',
      change: 'NEW',
      reasons: [],
    };
    items.push(entry);
    const body = item.filePath !== undefined ? (byPath.get(item.filePath) ?? null) : null;
    const result = draftFromItem(item, byPath.get(item.path) ?? '', body);
    if (!result.ok) {
      entry.status = 'FAILED';
      entry.reasons.push(...result.problems);
      continue;
    }
    drafts.push({ item: entry, draft: result.draft });
  }
  if (!items.length) throw new BulkUploadError(NOTHING_TO_UPLOAD);

  const stored = new Map((await getDetections(drafts.map((d) => d.draft.id))).map((d) => [d.id, d]));
  const modifiable = drafts.filter(({ draft }) => options.mayModify(draft.type)).map((d) => d.draft);
  const problems = await checkDrafts(modifiable, {
    knownLogTypes: await knownLogTypes([...stored.values()].flatMap((d) => d.logTypes)),
    references: await referenceLookup(drafts.map((d) => d.draft)),
    engine: options.engine,
  });
  for (const { item, draft } of drafts) {
    const existing = stored.get(item.id);
    item.change = !existing ? 'NEW' : unchanged(existing, draft) ? 'UNCHANGED' : 'MODIFIED';
    if (existing && existing.type !== item.type) {
      item.status = 'FAILED';
      item.reasons.push(`${item.id} is already used by a ${existing.type.replace('_', ' ')}`);
      continue;
    }
    if (!options.mayModify(draft.type)) {
      item.reasons.push(`You do not have permission to modify ${draft.type === 'policy' ? 'policies' : 'rules'}`);
      continue;
    }
    const refused = problems.get(item.id);
    if (refused) {
      item.status = 'FAILED';
      item.reasons.push(...refused.map(problemLine));
      continue;
    }
    if (options.validateOnly || item.change === 'UNCHANGED') {
      item.status = 'COMPLETED';
      continue;
    }
    try {
      await saveDetection(draft, options.user, 'any');
      item.status = 'COMPLETED';
    } catch (err) {
      item.status = 'FAILED';
      item.reasons.push((err as Error).message);
    }
  }
  await uploadPacks(packs, items, byPath, options);
  items.sort((a, b) => a.path.localeCompare(b.path));
  return {
    items,
    fileIssues,
    totals: {
      total: items.length,
      new: items.filter((i) => i.change === 'NEW' && i.status !== 'FAILED').length,
      modified: items.filter((i) => i.change === 'MODIFIED' && i.status !== 'FAILED').length,
      unchanged: items.filter((i) => i.change === 'UNCHANGED' && i.status !== 'FAILED').length,
      failed: items.filter((i) => i.status === 'FAILED').length,
    },
  };
}

/** Compares (and unless only validating, saves) the packs, once the items they hold are through. */
async function uploadPacks(
  packs: readonly { item: BulkItem; spec: AnalysisItem['spec'] }[],
  items: readonly BulkItem[],
  byPath: ReadonlyMap<string, string>,
  options: BulkOptions,
): Promise<void> {
  const byId = new Map(items.filter((i) => i.type !== 'pack').map((i) => [i.id, i]));
  for (const { item, spec } of packs) {
    const yaml = byPath.get(item.path) ?? '';
    const existing = await getPack(item.id);
    item.change = !existing ? 'NEW' : existing.yaml === yaml ? 'UNCHANGED' : 'MODIFIED';
    if (!options.mayModify('rule')) {
      item.reasons.push('You do not have permission to modify rules');
      continue;
    }
    const ids = (spec.PackDefinition as { IDs: string[] }).IDs;
    const failed = ids.filter((id) => byId.get(id)?.status === 'FAILED');
    if (failed.length) {
      item.status = 'FAILED';
      item.reasons.push(`items of the pack failed: ${failed.join(', ')}`);
      continue;
    }
    if (options.validateOnly || item.change === 'UNCHANGED') {
      item.status = 'COMPLETED';
      continue;
    }
    const text = (key: string) => (typeof spec[key] === 'string' ? (spec[key] as string) : null);
    await savePack({ id: item.id, displayName: text('DisplayName'), description: text('Description'), ids, yaml }, options.user);
    item.status = 'COMPLETED';
  }
}

const unchanged = (stored: StoredDetection, draft: { yaml: string; body: string | null }) =>
  stored.yaml === draft.yaml && (stored.body ?? null) === (draft.body ?? null);

function typeOfDocument(yaml: string): string | undefined {
  const m = /^AnalysisType:\s*['"]?([a-z_]+)/m.exec(yaml);
  return m?.[1];
}
