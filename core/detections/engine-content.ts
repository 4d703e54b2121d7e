// Repository items → the JSON content the Python detection engine loads (it reads no YAML itself).
import type { AnalysisItem } from './layout';

export interface EngineDetection {
  id: string;
  analysisType: 'rule' | 'scheduled_rule' | 'policy';
  severity: string;
  displayName?: string;
  createAlert?: boolean;
  logTypes: string[];
  /** Python as a file (locally) or as source text (`body`, on AWS); or a simple detection. */
  path?: string;
  body?: string;
  detection?: unknown[];
  inlineFilters?: unknown[];
  alertTitle?: string;
  alertContext?: unknown[];
  groupBy?: unknown[];
  dynamicSeverities?: unknown[];
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

/** The engine's view of a rule, scheduled rule or policy; `resolvePath` makes file paths absolute. */
export function engineDetection(item: AnalysisItem, resolvePath: (path: string) => string, base?: AnalysisItem): EngineDetection {
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
  };
  if (source.filePath) detection.path = resolvePath(source.filePath);
  else if (isList(source.spec.Detection)) detection.detection = source.spec.Detection;
  return JSON.parse(JSON.stringify(detection)) as EngineDetection;
}

/** Detections to test (rules, scheduled rules, policies; not correlation rules) with their tests. */
export function planDetections(
  items: readonly AnalysisItem[],
  selected: readonly AnalysisItem[],
  resolvePath: (path: string) => string,
): PlannedDetection[] {
  const byId = new Map(items.map((i) => [i.id, i]));
  const planned: PlannedDetection[] = [];
  for (const item of selected) {
    if (item.type !== 'rule' && item.type !== 'scheduled_rule' && item.type !== 'policy') continue;
    const baseId = item.spec.BaseDetection;
    const base = typeof baseId === 'string' ? byId.get(baseId) : undefined;
    if (typeof baseId === 'string' && !base) continue;
    const tests = (item.spec.Tests ?? base?.spec.Tests ?? []) as unknown[];
    planned.push({ item, engine: engineDetection(item, resolvePath, base), tests });
  }
  return planned;
}

/** Everything the engine loads: global helpers, enabled data models and the planned detections. */
export function engineContent(
  items: readonly AnalysisItem[],
  planned: readonly PlannedDetection[],
  resolvePath: (path: string) => string,
): EngineContent {
  return {
    globals: items
      .filter((i) => i.type === 'global' && i.filePath)
      .map((i) => ({ id: i.id, path: resolvePath(i.filePath as string) })),
    dataModels: items
      .filter((i) => i.type === 'datamodel' && i.spec.Enabled === true)
      .map((i) => ({
        id: i.id,
        logTypes: i.spec.LogTypes as string[],
        mappings: i.spec.Mappings as unknown[],
        ...(i.filePath ? { path: resolvePath(i.filePath) } : {}),
      })),
    detections: planned.map((p) => p.engine),
  };
}
