// Stored detections → the content the Python engine loads (Python as source text, never as files).
import { engineDetection, type AnalysisItem, type EngineContent, type EngineDetection } from '../../../core/detections';
import type { StoredDetection } from './model';

const asItem = (d: StoredDetection): AnalysisItem => ({
  type: d.type,
  id: d.id,
  path: `${d.id}.yml`,
  spec: d.spec,
  ...(d.body !== null ? { filePath: `${d.id}.py` } : {}),
});

/** The engine's view of one rule, scheduled rule or policy (a derived rule runs its base's code). */
export function toEngineDetection(detection: StoredDetection, base?: StoredDetection): EngineDetection {
  const source = base ?? detection;
  const engine = engineDetection(asItem(detection), (p) => p, base ? asItem(base) : undefined);
  delete engine.path;
  if (source.body !== null) engine.body = source.body;
  return engine;
}

/** Rules, scheduled rules and policies (correlation rules are evaluated elsewhere). */
export const runsInEngine = (d: StoredDetection) => d.type === 'rule' || d.type === 'scheduled_rule' || d.type === 'policy';

export function engineContent(
  detections: readonly StoredDetection[],
  helpers: readonly StoredDetection[],
  bases: ReadonlyMap<string, StoredDetection> = new Map(),
): EngineContent {
  return {
    globals: helpers.filter((h) => h.type === 'global').map((h) => ({ id: h.id, body: h.body ?? '' })),
    dataModels: helpers
      .filter((h) => h.type === 'datamodel' && h.enabled)
      .map((h) => ({
        id: h.id,
        logTypes: h.logTypes as string[],
        mappings: (h.spec.Mappings ?? []) as unknown[],
        ...(h.body !== null ? { body: h.body } : {}),
      })),
    detections: detections.filter(runsInEngine).flatMap((d) => {
      const baseId = d.spec.BaseDetection;
      if (typeof baseId !== 'string') return [toEngineDetection(d)];
      const base = bases.get(baseId);
      return base ? [toEngineDetection(d, base)] : [];
    }),
  };
}
