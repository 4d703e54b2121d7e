// The enabled detections of a log type and the engine content built from them, cached in the container and
// dropped whenever the detections store's revision counter moves (one GetItem per message to check it).
import { allOfType, detectionsRevision, enabledForLogType, getDetections } from '../lib/detections/repository';
import { engineContent } from '../lib/detections/content';
import type { VersionedContent } from '../lib/detections/engine';
import type { StoredDetection } from '../lib/detections/model';

export interface LogTypeDetections {
  /** The rules that run on this log type's events, by id. */
  readonly detections: ReadonlyMap<string, StoredDetection>;
  readonly content: VersionedContent;
}

let revision: number | undefined;
const byLogType = new Map<string, Promise<LogTypeDetections>>();

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
  const content = engineContent(rules, [...globals, ...dataModels], bases);
  return {
    detections: new Map(rules.map((r) => [r.id, r])),
    content: { ...content, version: `${at}:${logType}` },
  };
}
