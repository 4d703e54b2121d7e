// Stored detections → the content the Python engine loads, with core's builder: Python as source text, never
// as files. The enabled rules of a log type and their content are cached in the container and dropped
// whenever the store's revision counter moves (one GetItem per call to check it).
import { engineContent, planDetections, type AnalysisItem, type CodeOf, type EngineContent } from '../../../core/detections';
import type { VersionedContent } from './engine';
import type { StoredDetection } from './model';
import { allOfType, detectionsRevision, enabledForLogType, getDetections } from './repository';

const asItem = (d: StoredDetection): AnalysisItem => ({ type: d.type, id: d.id, path: `${d.id}.yml`, spec: d.spec });

/**
 * The engine's content for `detections` (rules, scheduled rules and policies run; correlation rules are
 * evaluated elsewhere) with the global helpers and data models of `helpers`; `bases` holds the base of each
 * derived rule, which runs its base's code (a derived rule whose base is missing is left out).
 */
export function storedEngineContent(
  detections: readonly StoredDetection[],
  helpers: readonly StoredDetection[],
  bases: ReadonlyMap<string, StoredDetection> = new Map(),
): EngineContent {
  const bodies = new Map([...helpers, ...bases.values(), ...detections].map((d) => [d.id, d.body]));
  const codeOf: CodeOf = (item) => {
    const body = bodies.get(item.id);
    return typeof body === 'string' ? { body } : undefined;
  };
  const selected = detections.map(asItem);
  const planned = planDetections([...selected, ...[...bases.values()].map(asItem)], selected, codeOf);
  return engineContent(helpers.map(asItem), planned, codeOf);
}

/** The rules that run on one log type's events, and the engine's content for them. */
export interface LogTypeDetections {
  /** The rules, by id. */
  readonly detections: ReadonlyMap<string, StoredDetection>;
  readonly content: VersionedContent;
}

let revision: number | undefined;
const byLogType = new Map<string, Promise<LogTypeDetections>>();

/** The enabled rules of a log type with their content, from the container's cache while the store is unchanged. */
export async function detectionsFor(logType: string): Promise<LogTypeDetections> {
  const current = await detectionsRevision();
  if (current !== revision) {
    byLogType.clear();
    revision = current;
  }
  let entry = byLogType.get(logType);
  if (!entry) {
    entry = load(logType, current);
    byLogType.set(logType, entry);
    entry.catch(() => byLogType.delete(logType));
  }
  return entry;
}

async function load(logType: string, at: number): Promise<LogTypeDetections> {
  const [candidates, globals, dataModels] = await Promise.all([
    enabledForLogType(logType),
    allOfType('global'),
    allOfType('datamodel'),
  ]);
  // Rules run on log events; policies wait for resources and scheduled rules for their queries.
  const rules = candidates.filter((d) => d.type === 'rule');
  const baseIds = rules.map((r) => r.spec.BaseDetection).filter((id): id is string => typeof id === 'string');
  const bases = new Map((await getDetections(baseIds)).map((b) => [b.id, b]));
  const content = storedEngineContent(rules, [...globals, ...dataModels], bases);
  return {
    detections: new Map(rules.map((r) => [r.id, r])),
    content: { ...content, version: `${at}:${logType}` },
  };
}

/**
 * The enabled scheduled rules that name a scheduled query (ScheduledQueries), with the engine's content for
 * them (global helpers and data models included), read fresh for each run.
 */
export async function scheduledRulesFor(queryName: string): Promise<LogTypeDetections> {
  const [candidates, globals, dataModels, at] = await Promise.all([
    enabledForLogType(queryName),
    allOfType('global'),
    allOfType('datamodel'),
    detectionsRevision(),
  ]);
  const rules = candidates.filter((d) => d.type === 'scheduled_rule');
  const content = storedEngineContent(rules, [...globals, ...dataModels]);
  return { detections: new Map(rules.map((r) => [r.id, r])), content: { ...content, version: `${at}:query:${queryName}` } };
}
