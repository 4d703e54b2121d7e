// The checks a validated draft must pass before it is saved, on one detection or a whole bulk upload: the
// rules of core/detections/save-checks.ts against the deployment's log types, and the engine's reading of
// the Python (syntax errors with their line, a rule without `def rule(...)`, a policy without
// `def policy(...)`, a data model without the methods its mappings name). Each problem is on its key (the
// Python's on `body`), as the API's other field errors are.
import { saveProblems, type SaveProblem } from '../../../core/detections';
import { availableLogTypes } from '../log-sources';
import type { CheckItem, Engine } from './engine';
import type { DetectionDraft } from './model';

export interface SaveCheckContext {
  /** Managed and custom schemas, plus the log types the stored versions already name. */
  readonly knownLogTypes: ReadonlySet<string>;
  readonly engine: Pick<Engine, 'check'>;
}

/** The schemas that exist, with `current` (log types stored items already name, whose schema may be archived since). */
export async function knownLogTypes(current: Iterable<string> = []): Promise<Set<string>> {
  return new Set([...(await availableLogTypes()).map((t) => t.name), ...current]);
}

/** The methods a data model's mappings name (each must be defined in its Python). */
function mappingMethods(spec: Record<string, unknown>): string[] {
  const mappings = Array.isArray(spec.Mappings) ? (spec.Mappings as { Method?: unknown }[]) : [];
  return mappings.flatMap((m) => (typeof m?.Method === 'string' ? [m.Method] : []));
}

function checkItem(draft: DetectionDraft & { body: string }): CheckItem {
  if (draft.type === 'global') return { id: draft.id, kind: 'global', body: draft.body };
  if (draft.type === 'datamodel')
    return { id: draft.id, kind: 'dataModel', body: draft.body, methods: mappingMethods(draft.spec) };
  return { id: draft.id, kind: 'detection', analysisType: draft.type, body: draft.body };
}

/** The problems of each draft that has any, by id; the Python of every draft is checked in one engine call. */
export async function checkDrafts(
  drafts: readonly DetectionDraft[],
  context: SaveCheckContext,
): Promise<Map<string, SaveProblem[]>> {
  const problems = new Map<string, SaveProblem[]>();
  const add = (id: string, found: readonly SaveProblem[]) => {
    if (found.length) problems.set(id, [...(problems.get(id) ?? []), ...found]);
  };
  for (const draft of drafts) add(draft.id, saveProblems(draft.type, draft.spec, context.knownLogTypes));
  const items = drafts.flatMap((d) => (d.body === null ? [] : [checkItem({ ...d, body: d.body })]));
  if (items.length)
    for (const result of await context.engine.check(items))
      add(
        result.id,
        result.errors.map((e) => ({ path: 'body', message: `${e.line === undefined ? '' : `line ${e.line}: `}${e.message}` })),
      );
  return problems;
}
