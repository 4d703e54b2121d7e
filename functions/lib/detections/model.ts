// The stored detection: one item of the panther-analysis layout (its YAML document, parsed, and its Python
// source), as the engine and core/detections understand it, plus what the store adds (version, audit fields).
import { runsAtAll, type AnalysisType } from '../../../core/detections';

/**
 * The analysis types the detections store keeps (packs and lookup tables are stored elsewhere). Saved and
 * scheduled queries are kept under their QueryName: scheduled rules name them in ScheduledQueries.
 */
export const STORED_TYPES = [
  'rule',
  'scheduled_rule',
  'policy',
  'correlation_rule',
  'global',
  'datamodel',
  'saved_query',
  'scheduled_query',
] as const;
export type StoredType = (typeof STORED_TYPES)[number] & AnalysisType;

export const isStoredType = (value: unknown): value is StoredType =>
  typeof value === 'string' && (STORED_TYPES as readonly string[]).includes(value);

/** Which permission pair guards a type: policies have their own; everything else (queries too) is a rule-like item. */
export const permissionArea = (type: StoredType): 'Policy' | 'Rule' => (type === 'policy' ? 'Policy' : 'Rule');

export interface StoredDetection {
  readonly id: string;
  readonly type: StoredType;
  /** The YAML document as written (kept for display and export). */
  readonly yaml: string;
  /** The YAML document parsed (YAML 1.2 core schema). */
  readonly spec: Record<string, unknown>;
  /** The Python source the document's `Filename` names, when it has one. */
  readonly body: string | null;
  readonly enabled: boolean;
  /** LogTypes (rules), ResourceTypes (policies), ScheduledQueries (scheduled rules), LogTypes (data models). */
  readonly logTypes: readonly string[];
  readonly version: number;
  readonly createdAt: string;
  readonly createdBy: string;
  readonly lastModified: string;
  readonly lastModifiedBy: string;
}

/** What a create or update writes: the validated item, before the store numbers it. */
export interface DetectionDraft {
  readonly id: string;
  readonly type: StoredType;
  readonly yaml: string;
  readonly spec: Record<string, unknown>;
  readonly body: string | null;
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** The log types (or resource types, or scheduled queries) a document is indexed under. */
export function indexedTypes(spec: Record<string, unknown>): string[] {
  return [...new Set([...strings(spec.LogTypes), ...strings(spec.ResourceTypes), ...strings(spec.ScheduledQueries)])];
}

/** Whether a document is switched on (global helpers are always on; a `Status: Deprecated` detection
 * never is, whatever its Enabled says: docs/content-format.md). */
export function isEnabled(type: StoredType, spec: Record<string, unknown>): boolean {
  return type === 'global' ? true : spec.Enabled === true && runsAtAll(spec);
}

/** Saved and scheduled queries: content that scheduled rules read, not detections themselves. */
export const isQueryType = (type: StoredType): type is 'saved_query' | 'scheduled_query' =>
  type === 'saved_query' || type === 'scheduled_query';

/** A simple detection: a rule written as match expressions (`Detection`) instead of Python. */
export const isSimpleDetection = (d: Pick<StoredDetection, 'type' | 'spec'>) =>
  (d.type === 'rule' || d.type === 'scheduled_rule') && Array.isArray(d.spec.Detection);

/** Default dedup period of the reference runtime, in minutes. */
export const DEFAULT_DEDUP_MINUTES = 60;
/** Smallest dedup period honoured (a smaller one is treated as this). */
export const MIN_DEDUP_MINUTES = 5;

export function dedupMinutes(spec: Record<string, unknown>): number {
  const value = spec.DedupPeriodMinutes;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return DEFAULT_DEDUP_MINUTES;
  return Math.max(MIN_DEDUP_MINUTES, Math.floor(value));
}

export function threshold(spec: Record<string, unknown>): number {
  const value = spec.Threshold;
  return typeof value === 'number' && Number.isInteger(value) && value > 1 ? value : 1;
}
