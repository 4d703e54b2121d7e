// Repository items → the JSON content the Python detection engine loads (it reads no YAML itself). One builder
// for every caller: the command line gives the engine files to read, the platform the stored source text.
import type { AnalysisItem } from './layout';

/** An item's Python as the engine takes it: a file its host reads (`path`), or the source text (`body`). */
export type ItemCode = { readonly path: string } | { readonly body: string };

/** Where each item's Python comes from; undefined for an item without Python (a simple detection). */
export type CodeOf = (item: AnalysisItem) => ItemCode | undefined;

/** Python in files: each item's `Filename` as a path `resolvePath` makes absolute. */
export const codeInFiles =
  (resolvePath: (path: string) => string): CodeOf =>
  (item) =>
    item.filePath ? { path: resolvePath(item.filePath) } : undefined;

export interface EngineDetection {
  id: string;
  analysisType: 'rule' | 'scheduled_rule' | 'policy';
  severity: string;
  displayName?: string;
  createAlert?: boolean;
  logTypes: string[];
  /** Python as a file the engine's host reads, or as source text; or a simple detection. */
  path?: string;
  body?: string;
  detection?: unknown[];
  inlineFilters?: unknown[];
  alertTitle?: string;
  alertContext?: unknown[];
  groupBy?: unknown[];
  dynamicSeverities?: unknown[];
  /** `Experimental` or `Deprecated` (the content's Status); a Deprecated detection runs only when named. */
  status?: string;
}

export interface EngineContent {
  globals: { id: string; path?: string; body?: string }[];
  dataModels: { id: string; logTypes: string[]; mappings: unknown[]; path?: string; body?: string }[];
  detections: EngineDetection[];
  timeLimitSeconds?: number;
}

/** A detection item with its unit tests, ready for the engine (derived rules resolved to their base). */
export interface PlannedDetection {
  item: AnalysisItem;
  engine: EngineDetection;
  tests: unknown[];
}

const optional = <T>(value: unknown, keep: (v: unknown) => v is T): T | undefined => (keep(value) ? value : undefined);
const isString = (v: unknown): v is string => typeof v === 'string';
const isList = (v: unknown): v is unknown[] => Array.isArray(v);

/** The engine's view of a rule, scheduled rule or policy; a derived rule runs its base's code. */
export function engineDetection(item: AnalysisItem, codeOf: CodeOf, base?: AnalysisItem): EngineDetection {
  const spec = { ...(base?.spec ?? {}), ...item.spec };
  const source = base ?? item;
  const type = (base ? base.type : item.type) as EngineDetection['analysisType'];
  const detection: EngineDetection = {
    id: item.id,
    analysisType: type,
    severity: String(spec.Severity ?? 'Info'),
    logTypes: (spec.LogTypes ?? spec.ResourceTypes ?? spec.ScheduledQueries ?? []) as string[],
    displayName: optional(spec.DisplayName, isString),
    createAlert: spec.CreateAlert === false ? false : undefined,
    inlineFilters: optional(item.spec.InlineFilters ?? base?.spec.InlineFilters, isList),
    alertTitle: optional(spec.AlertTitle, isString),
    alertContext: optional(spec.AlertContext, isList),
    groupBy: optional(spec.GroupBy, isList),
    dynamicSeverities: optional(spec.DynamicSeverities, isList),
    status: optional(item.spec.Status, isString),
  };
  const code = codeOf(source);
  if (code) Object.assign(detection, code);
  else if (isList(source.spec.Detection)) detection.detection = source.spec.Detection;
  return JSON.parse(JSON.stringify(detection)) as EngineDetection;
}

/**
 * Detections to run (rules, scheduled rules, policies; not correlation rules) with their tests. `items` holds
 * the bases of derived rules; a derived rule whose base is missing is left out.
 */
export function planDetections(
  items: readonly AnalysisItem[],
  selected: readonly AnalysisItem[],
  codeOf: CodeOf,
): PlannedDetection[] {
  const byId = new Map(items.map((i) => [i.id, i]));
  const planned: PlannedDetection[] = [];
  for (const item of selected) {
    if (item.type !== 'rule' && item.type !== 'scheduled_rule' && item.type !== 'policy') continue;
    const baseId = item.spec.BaseDetection;
    const base = typeof baseId === 'string' ? byId.get(baseId) : undefined;
    if (typeof baseId === 'string' && !base) continue;
    const tests = (item.spec.Tests ?? base?.spec.Tests ?? []) as unknown[];
    planned.push({ item, engine: engineDetection(item, codeOf, base), tests });
  }
  return planned;
}

/** Everything the engine loads: the global helpers and enabled data models of `items`, and the planned detections. */
export function engineContent(
  items: readonly AnalysisItem[],
  planned: readonly Pick<PlannedDetection, 'engine'>[],
  codeOf: CodeOf,
): EngineContent {
  return {
    globals: items.flatMap((i) => {
      const code = i.type === 'global' ? codeOf(i) : undefined;
      return code ? [{ id: i.id, ...code }] : [];
    }),
    dataModels: items
      .filter((i) => i.type === 'datamodel' && i.spec.Enabled === true)
      .map((i) => ({
        id: i.id,
        logTypes: i.spec.LogTypes as string[],
        mappings: (i.spec.Mappings ?? []) as unknown[],
        ...codeOf(i),
      })),
    detections: planned.map((p) => p.engine),
  };
}
