// The checks a validated draft must pass before it is saved, on one detection or a whole bulk upload: the
// rules of core/detections/save-checks.ts against the deployment's log types, and the engine's reading of
// the Python (syntax errors with their line, a rule without `def rule(...)`, a policy without
// `def policy(...)`, a data model without the methods its mappings name). Each problem is on its key (the
// Python's on `body`), as the API's other field errors are. References (a correlation rule's RuleIDs, a
// scheduled rule's ScheduledQueries) must name stored items or items saved with them (bulk upload).
import { saveProblems, type SaveProblem } from '../../../core/detections';
import { availableLogTypes } from '../log-sources';
import { getDetections } from './repository';
import type { CheckItem, Engine } from './engine';
import type { DetectionDraft, StoredType } from './model';

export interface SaveCheckContext {
  /** Managed and custom schemas, plus the log types the stored versions already name. */
  readonly knownLogTypes: ReadonlySet<string>;
  /** The type of each item the drafts reference (stored, or among the drafts). */
  readonly references: ReferenceLookup;
  readonly engine: Pick<Engine, 'check'>;
}

/** The types of the items `drafts` reference: those among the drafts, else the stored ones (one BatchGet). */
export async function referenceLookup(drafts: readonly DetectionDraft[]): Promise<ReferenceLookup> {
  const types = new Map<string, StoredType>(drafts.map((d) => [d.id, d.type]));
  const wanted = [...new Set(drafts.flatMap(referencedIds))].filter((id) => !types.has(id));
  for (const stored of wanted.length ? await getDetections(wanted) : []) types.set(stored.id, stored.type);
  return (id) => types.get(id);
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
  for (const draft of drafts) {
    add(draft.id, saveProblems(draft.type, draft.spec, context.knownLogTypes));
    add(draft.id, referenceProblems(draft, context.references));
  }
  const items = drafts.flatMap((d) => (d.body === null ? [] : [checkItem({ ...d, body: d.body })]));
  if (items.length)
    for (const result of await context.engine.check(items))
      add(
        result.id,
        result.errors.map((e) => ({ path: 'body', message: `${e.line === undefined ? '' : `line ${e.line}: `}${e.message}` })),
      );
  return problems;
}

/** What a referenced id is: the type of the stored item or of another item saved with it; undefined: none. */
export type ReferenceLookup = (id: string) => StoredType | undefined;

const names = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** The ids a draft references that must exist: a correlation rule's RuleIDs, a scheduled rule's ScheduledQueries. */
export function referencedIds(draft: DetectionDraft): string[] {
  if (draft.type === 'scheduled_rule') return names(draft.spec.ScheduledQueries);
  if (draft.type !== 'correlation_rule') return [];
  const body = Array.isArray(draft.spec.Detection) ? (draft.spec.Detection[0] as Record<string, unknown> | undefined) : undefined;
  const steps = [...(Array.isArray(body?.Sequence) ? body.Sequence : []), ...(Array.isArray(body?.Group) ? body.Group : [])];
  return [...new Set(steps.map((s) => (s && typeof s === 'object' ? (s as { RuleID?: unknown }).RuleID : undefined)))].filter(
    (id): id is string => typeof id === 'string',
  );
}

export const noScheduledQuery = (name: string) => `No scheduled query named ${name}`;
export const notAScheduledQuery = (name: string, type: StoredType) =>
  `${name} is a ${type.replace('_', ' ')}, not a scheduled query`;
export const noRuleFound = (id: string) => `No rule found: ${id}`;
export const cannotUsePolicies = (id: string) => `Cannot use policies: ${id}`;
export const notARule = (id: string, type: StoredType) =>
  `${id} is a ${type.replace('_', ' ')}: a correlation rule references rules, scheduled rules or correlation rules`;

/**
 * The reference problems of a draft (a correlation rule's RuleIDs name existing rules, correlation rules or
 * scheduled rules, never policies; a scheduled rule's ScheduledQueries name existing scheduled queries).
 */
export function referenceProblems(draft: DetectionDraft, lookup: ReferenceLookup): SaveProblem[] {
  const problems: SaveProblem[] = [];
  if (draft.type === 'scheduled_rule')
    for (const name of referencedIds(draft)) {
      const type = lookup(name);
      if (type === undefined) problems.push({ path: 'ScheduledQueries', message: noScheduledQuery(name) });
      else if (type !== 'scheduled_query') problems.push({ path: 'ScheduledQueries', message: notAScheduledQuery(name, type) });
    }
  if (draft.type === 'correlation_rule')
    for (const id of referencedIds(draft)) {
      const type = lookup(id);
      if (type === undefined) problems.push({ path: 'Detection', message: noRuleFound(id) });
      else if (type === 'policy') problems.push({ path: 'Detection', message: cannotUsePolicies(id) });
      else if (type !== 'rule' && type !== 'scheduled_rule' && type !== 'correlation_rule')
        problems.push({ path: 'Detection', message: notARule(id, type) });
    }
  return problems;
}
