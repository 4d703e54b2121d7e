// The detections list as the product's rules: what a list item holds of a detection, which items a filter
// keeps, the orders a list sorts by and its page-numbered paging, and which detections use a global helper
// or a data model (a helper or data model in use cannot be deleted).

/** The orders the detections list offers; the default is the last modified first. */
export const DETECTION_SORTS = ['lastModified', 'name', 'severity'] as const;
export type DetectionSort = (typeof DETECTION_SORTS)[number];
export type DetectionSortDirection = 'ascending' | 'descending';
export const DEFAULT_DETECTION_SORT: DetectionSort = 'lastModified';
export const DEFAULT_SORT_DIRECTION: DetectionSortDirection = 'descending';

/** The page sizes of the list (the specification's list constants); the list fetch uses 300 pages up to 10,000. */
export const DETECTION_PAGE_SIZES = [10, 25, 999] as const;
export const DEFAULT_DETECTION_PAGE_SIZE = 25;
export const MAX_DETECTION_PAGE_SIZE = 999;
export const DETECTION_ID_FETCH_PAGE = 300;
export const DETECTION_ID_FETCH_LIMIT = 10_000;

/** The report key of the MITRE ATT&CK framework mapping; each value is `TACTIC:TECHNIQUE` or a tactic alone. */
export const MITRE_REPORT_KEY = 'MITRE ATT&CK';

/** Severities from least to most severe (the list sorts by this rank; items without a severity rank lowest). */
const SEVERITY_RANK: Readonly<Record<string, number>> = { info: 1, low: 2, medium: 3, high: 4, critical: 5 };
export const severityRank = (severity: unknown): number =>
  typeof severity === 'string' ? (SEVERITY_RANK[severity.toLowerCase()] ?? 0) : 0;

/** What the list shows and filters on of one detection. */
export interface DetectionListEntry {
  readonly id: string;
  readonly type: string;
  readonly displayName: string | null;
  readonly enabled: boolean;
  /** Info, Low, Medium, High or Critical; null for global helpers and data models. */
  readonly severity: string | null;
  readonly logTypes: readonly string[];
  readonly tags: readonly string[];
  /** The MITRE ATT&CK mapping entries (`TA0001:T1078`). */
  readonly mitre: readonly string[];
  readonly managed: boolean;
  readonly lastModified: string;
}

export interface DetectionListFilter {
  readonly types?: readonly string[];
  readonly severities?: readonly string[];
  readonly enabled?: boolean;
  /** A log type, resource type or scheduled query the detection names (exactly). */
  readonly logType?: string;
  /** A tag, matched ignoring case. */
  readonly tag?: string;
  /** A tactic id (TA0001), matched against the mapping entries' tactic. */
  readonly mitreTactic?: string;
  /** A technique id (T1078, or T1078.001), matched against the entries' technique. */
  readonly mitreTechnique?: string;
  readonly managed?: boolean;
  /** Part of the id or display name, ignoring case. */
  readonly search?: string;
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** The MITRE ATT&CK entries of a document's Reports. */
export function mitreEntries(spec: Readonly<Record<string, unknown>>): string[] {
  const reports = spec.Reports;
  if (!reports || typeof reports !== 'object' || Array.isArray(reports)) return [];
  return strings((reports as Record<string, unknown>)[MITRE_REPORT_KEY]).map((v) => v.trim());
}

/** A mapping entry's tactic and technique (`TA0001:T1078` → TA0001, T1078; `TA0001` → TA0001, none). */
export function splitMitre(entry: string): { tactic: string; technique: string | null } {
  const [tactic, technique] = entry.split(':').map((p) => p.trim());
  return { tactic, technique: technique || null };
}

/** Whether an entry passes every filter given. */
export function matchesDetectionFilter(entry: DetectionListEntry, filter: DetectionListFilter): boolean {
  if (filter.types?.length && !filter.types.includes(entry.type)) return false;
  if (filter.severities?.length) {
    const wanted = filter.severities.map((s) => s.toLowerCase());
    if (!entry.severity || !wanted.includes(entry.severity.toLowerCase())) return false;
  }
  if (filter.enabled !== undefined && entry.enabled !== filter.enabled) return false;
  if (filter.managed !== undefined && entry.managed !== filter.managed) return false;
  if (filter.logType && !entry.logTypes.includes(filter.logType)) return false;
  if (filter.tag) {
    const tag = filter.tag.trim().toLowerCase();
    if (!entry.tags.some((t) => t.toLowerCase() === tag)) return false;
  }
  if (filter.mitreTactic || filter.mitreTechnique) {
    const tactic = filter.mitreTactic?.trim().toUpperCase();
    const technique = filter.mitreTechnique?.trim().toUpperCase();
    const found = entry.mitre.some((value) => {
      const parts = splitMitre(value.toUpperCase());
      if (tactic && parts.tactic !== tactic) return false;
      if (technique && parts.technique !== technique && !parts.technique?.startsWith(`${technique}.`)) return false;
      return true;
    });
    if (!found) return false;
  }
  if (filter.search?.trim()) {
    const text = filter.search.trim().toLowerCase();
    if (!entry.id.toLowerCase().includes(text) && !(entry.displayName ?? '').toLowerCase().includes(text)) return false;
  }
  return true;
}

/** The name a detection sorts and shows by: its display name, else its id. */
export const listName = (entry: Pick<DetectionListEntry, 'id' | 'displayName'>) => entry.displayName?.trim() || entry.id;

/** Compares two entries for a sort order (ties broken by id, so pages never overlap). */
export function compareDetections(sort: DetectionSort, direction: DetectionSortDirection) {
  const sign = direction === 'ascending' ? 1 : -1;
  const byId = (a: DetectionListEntry, b: DetectionListEntry) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return (a: DetectionListEntry, b: DetectionListEntry): number => {
    let order = 0;
    if (sort === 'lastModified') order = a.lastModified < b.lastModified ? -1 : a.lastModified > b.lastModified ? 1 : 0;
    else if (sort === 'name') order = listName(a).localeCompare(listName(b), 'en', { sensitivity: 'base' });
    else order = severityRank(a.severity) - severityRank(b.severity);
    return order !== 0 ? sign * order : byId(a, b);
  };
}

export interface PageOf<T> {
  readonly items: T[];
  readonly totalItems: number;
  readonly totalPages: number;
  /** The page answered (1-based; the last page when the one asked for is past the end). */
  readonly thisPage: number;
}

/** One numbered page of a sorted list. */
export function pageOf<T>(items: readonly T[], page: number, pageSize: number): PageOf<T> {
  const totalPages = Math.max(1, Math.ceil(items.length / pageSize));
  const thisPage = Math.min(Math.max(1, page), totalPages);
  const start = (thisPage - 1) * pageSize;
  return { items: items.slice(start, start + pageSize), totalItems: items.length, totalPages, thisPage };
}

/** Whether Python source imports a module (a global helper): `import x`, `import a, x as y`, `from x import ...`. */
export function importsModule(source: string, module: string): boolean {
  for (const line of source.replace(/#.*$/gm, '').split('\n')) {
    const from = /^\s*from\s+([\w.]+)\s+import\b/.exec(line);
    if (from && (from[1] === module || from[1].startsWith(`${module}.`))) return true;
    const plain = /^\s*import\s+(.+)$/.exec(line);
    const names = plain ? plain[1].split(',').map((part) => part.trim().split(/\s+/)[0]) : [];
    if (names.some((name) => name === module || name.startsWith(`${module}.`))) return true;
  }
  return false;
}

/** Whether Python source (or a simple detection) calls the data model: `udm(...)` or `event.udm(...)`. */
export function callsDataModel(source: string): boolean {
  return /\budm\s*\(/.test(source.replace(/#.*$/gm, ''));
}
