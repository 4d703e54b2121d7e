// The fields a condition can target: each log type's schema fields as key paths (arrays of objects through
// `[*]`), with the builder's type and the schema's description, and the standard p_* fields every log type has.
import { INDICATOR_FIELDS } from '../../schemas/indicators';
import type { FieldSpec, SchemaSpec, ValueSpec } from '../../schemas/types';
import { fieldTypeName, type FieldKind, type FieldType } from './operators';

export interface FilterField {
  /** The key path a condition targets. */
  readonly target: string;
  /** The builder's type, as text (`string`, `int`, `ip[]`, ...). */
  readonly type: string;
  readonly description: string;
  /** A standard p_* field (every log type has it). */
  readonly isPantherManaged: boolean;
  /** The log type the field comes from; null for the standard fields. */
  readonly logType: string | null;
}

/** Nesting levels of a schema that are listed. */
const MAX_DEPTH = 6;
/** A key path segment the builder can write (KeyPath reads `.` and `[` as structure). */
const PLAIN_NAME = /^[^.[\]]+$/;

const INDICATOR_DESCRIPTION = (field: string) =>
  `Every ${field.replace(/^p_any_/, '').replace(/_/g, ' ')} found in the event (collected from fields marked with indicators)`;

/** The standard fields the pipeline adds to every event. */
export const PANTHER_MANAGED_FIELDS: readonly FilterField[] = [
  ['p_log_type', 'string', 'The log type of the event'],
  ['p_event_time', 'timestamp', 'When the event happened (its time field, else when it was parsed)'],
  ['p_parse_time', 'timestamp', 'When the event was parsed'],
  ['p_row_id', 'string', 'The unique id of the event'],
  ['p_source_id', 'string', 'The id of the log source the event came from'],
  ['p_source_label', 'string', 'The label of the log source the event came from'],
  ['p_udm', 'object', 'The unified data model values of the event'],
  ...INDICATOR_FIELDS.map((f): [string, string, string] => [
    f,
    f === 'p_any_ip_addresses' ? 'ip[]' : 'string[]',
    INDICATOR_DESCRIPTION(f),
  ]),
].map(([target, type, description]) => ({ target, type, description, isPantherManaged: true, logType: null }));

function kindOf(value: ValueSpec): FieldKind {
  switch (value.type) {
    case 'string':
      return value.indicators?.includes('ip') ? 'ip' : 'string';
    case 'int':
    case 'smallint':
    case 'bigint':
      return 'int';
    case 'float':
      return 'float';
    case 'boolean':
      return 'bool';
    case 'timestamp':
      return 'timestamp';
    case 'json':
      return 'json';
    default:
      return 'object';
  }
}

function typeOf(value: ValueSpec): FieldType {
  if (value.type === 'array') return { kind: value.element ? kindOf(value.element) : 'json', array: true };
  return { kind: kindOf(value), array: false };
}

function collect(fields: readonly FieldSpec[], prefix: string, depth: number, logType: string, out: FilterField[]) {
  if (depth > MAX_DEPTH) return;
  for (const field of fields) {
    if (!PLAIN_NAME.test(field.name)) continue;
    const target = `${prefix}${field.name}`;
    out.push({
      target,
      type: fieldTypeName(typeOf(field)),
      description: field.description?.trim() ?? '',
      isPantherManaged: false,
      logType,
    });
    if (field.type === 'object' && field.fields) collect(field.fields, `${target}.`, depth + 1, logType, out);
    if (field.type === 'array' && field.element?.type === 'object' && field.element.fields)
      collect(field.element.fields, `${target}[*].`, depth + 1, logType, out);
  }
}

/** The fields of one log type's schema, in schema order. */
export function schemaFilterFields(logType: string, spec: Pick<SchemaSpec, 'fields'>): FilterField[] {
  const out: FilterField[] = [];
  collect(spec.fields ?? [], '', 1, logType, out);
  return out;
}

/** The fields every one of the log types has, with the same type (the first log type's description). */
export function sharedFilterFields(byLogType: readonly (readonly FilterField[])[]): FilterField[] {
  if (byLogType.length < 2) return [];
  const [first, ...rest] = byLogType;
  const typed = rest.map((fields) => new Map(fields.map((f) => [f.target, f.type])));
  return first.filter((f) => typed.every((m) => m.get(f.target) === f.type)).map((f) => ({ ...f, logType: null }));
}

/**
 * Field types the builder compares only as whole JSON values (objects, json, and arrays of them): 'unsafe' for
 * conditions, since a match depends on the exact shape of a structure. The filterFields query leaves them out
 * unless asked to show them (showUnsafeTypes: the builder's 'Show unsafe field types' switch).
 */
export const isUnsafeFieldType = (type: string): boolean => /^(object|json)(\[\])?$/.test(type);
