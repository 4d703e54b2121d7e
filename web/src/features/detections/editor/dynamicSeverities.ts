// A simple detection's DynamicSeverities (the detection form's dynamic severities): entries of a severity to
// change to and the conditions under which it applies, the first matching entry winning (the engine's order),
// read from and written into the simple detection's YAML, keeping every other key as it is.
import { isMap, parseDocument } from 'yaml';
import { OPERATOR_LABELS, readExpressions, writeExpressions, type Group } from '../../../../../core/detections/simple';
import { SEVERITY_OPTIONS, type SeverityOption } from './detectionDocument';

export interface DynamicSeverity {
  readonly changeTo: SeverityOption;
  readonly conditions: Group;
}

export type DynamicSeveritiesReading =
  { readonly ok: true; readonly entries: readonly DynamicSeverity[] } | { readonly ok: false; readonly message: string };

export const DYNAMIC_SEVERITIES_YAML_ONLY = 'These dynamic severities cannot be shown here: edit them in the YAML';

const BY_UPPER = new Map(SEVERITY_OPTIONS.map((s) => [s.toUpperCase(), s]));
const STRINGIFY = { lineWidth: 0 } as const;

/** The entries of the YAML's DynamicSeverities; none when the key is absent or the text is not a document. */
export function readDynamicSeverities(text: string): DynamicSeveritiesReading {
  const document = parseDocument(text, { schema: 'core' });
  if (document.errors.length || !isMap(document.contents)) return { ok: true, entries: [] };
  const list: unknown = document.toJS()?.DynamicSeverities;
  if (list === undefined || list === null) return { ok: true, entries: [] };
  if (!Array.isArray(list)) return { ok: false, message: `${DYNAMIC_SEVERITIES_YAML_ONLY} (DynamicSeverities must be a list)` };
  const entries: DynamicSeverity[] = [];
  for (const [i, entry] of list.entries()) {
    const at = `DynamicSeverities[${i}]`;
    const record = entry && typeof entry === 'object' && !Array.isArray(entry) ? (entry as Record<string, unknown>) : null;
    const changeTo = typeof record?.ChangeTo === 'string' ? BY_UPPER.get(record.ChangeTo.toUpperCase()) : undefined;
    if (!record || !changeTo) return { ok: false, message: `${DYNAMIC_SEVERITIES_YAML_ONLY} (${at} needs ChangeTo, a severity)` };
    if (Object.keys(record).some((k) => k !== 'ChangeTo' && k !== 'Conditions'))
      return { ok: false, message: `${DYNAMIC_SEVERITIES_YAML_ONLY} (${at} has keys other than ChangeTo and Conditions)` };
    const reading = readExpressions(record.Conditions, `${at}.Conditions`);
    if (!reading.ok) return { ok: false, message: `${DYNAMIC_SEVERITIES_YAML_ONLY} (at ${reading.at})` };
    entries.push({ changeTo, conditions: reading.group });
  }
  return { ok: true, entries };
}

/** The YAML with DynamicSeverities replaced by these entries (removed when there are none). */
export function writeDynamicSeverities(text: string, entries: readonly DynamicSeverity[]): string {
  const document = parseDocument(text.trim() ? text : '{}', { schema: 'core' });
  if (document.errors.length || !isMap(document.contents)) throw new Error('There is an error in your syntax.');
  if (entries.length === 0) document.delete('DynamicSeverities');
  else
    document.set(
      'DynamicSeverities',
      document.createNode(
        entries.map((e) => ({ ChangeTo: e.changeTo.toUpperCase(), Conditions: writeExpressions(e.conditions) })),
      ),
    );
  return document.toString(STRINGIFY);
}

/** Conditions as one line of text (`eventName is "ConsoleLogin" and (a is empty or b > 3)`), for summaries. */
export function describeConditions(group: Group): string {
  const parts = group.items.map((item) =>
    item.kind === 'group'
      ? `(${describeConditions(item)})`
      : [item.target, OPERATOR_LABELS[item.operator], item.value === undefined ? '' : JSON.stringify(item.value)]
          .filter(Boolean)
          .join(' '),
  );
  return parts.length ? parts.join(` ${group.conjunction} `) : 'always';
}
