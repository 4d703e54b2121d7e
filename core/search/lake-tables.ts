// The lake's tables as Glue sees them: a log type's schema → columns typed in Hive notation (what Glue stores
// and Athena reads), with the p_* columns every event has; panther_signals and panther_rule_errors tables
// have the same columns plus the detection's p_* columns. Used by infra (Glue tables at synth time), the
// schemas' save (custom log types) and the local Athena stand-in.
import type { FieldSpec, SchemaSpec, ValueSpec } from '../schemas/types';
import { INDICATOR_FIELDS } from '../schemas/indicators';
import { T, type Field, type FlowType } from '../pantherflow/types';
import { LOGS_DATABASE, RULE_ERRORS_DATABASE, SIGNALS_DATABASE, tableName, type LakeDatabase } from '../lake/layout';

export interface LakeColumn {
  readonly name: string;
  /** Hive type text: string, bigint, double, boolean, timestamp, array<...>, struct<name:type,...>. */
  readonly type: string;
  readonly comment?: string;
}

export interface LakeTableSpec {
  readonly database: LakeDatabase;
  readonly name: string;
  readonly logType: string;
  readonly columns: readonly LakeColumn[];
}

export const PARTITION_KEYS: readonly LakeColumn[] = ['year', 'month', 'day', 'hour'].map((name) => ({ name, type: 'int' }));

/** Columns the pipeline writes on every event. */
export const EVENT_COLUMNS: readonly LakeColumn[] = [
  { name: 'p_event_time', type: 'timestamp' },
  { name: 'p_parse_time', type: 'timestamp' },
  { name: 'p_log_type', type: 'string' },
  { name: 'p_row_id', type: 'string' },
  { name: 'p_source_id', type: 'string' },
  { name: 'p_source_label', type: 'string' },
  ...INDICATOR_FIELDS.map((name) => ({ name, type: 'array<string>' })),
  { name: 'p_udm', type: 'string' },
  // Lookup-table enrichment (core/lookups/enrich.ts): `{<table>: {<selector>: row}}`, as JSON text as json
  // fields are; absent on events no table enriched.
  { name: 'p_enrichment', type: 'string' },
];

/** Columns a detection adds to the events it matched (signals) or failed on (rule errors). */
export const DETECTION_COLUMNS: readonly LakeColumn[] = [
  { name: 'p_alert_id', type: 'string' },
  { name: 'p_alert_creation_time', type: 'timestamp' },
  { name: 'p_alert_update_time', type: 'timestamp' },
  { name: 'p_alert_context', type: 'string' },
  { name: 'p_rule_id', type: 'string' },
  { name: 'p_rule_severity', type: 'string' },
  { name: 'p_rule_tags', type: 'array<string>' },
  { name: 'p_rule_reports', type: 'string' },
  { name: 'p_rule_error', type: 'string' },
];

/** A schema value's Hive type; objects without fields and JSON are stored as JSON text (string). */
export function hiveType(value: ValueSpec): string {
  switch (value.type) {
    case 'string':
    case 'json':
      return 'string';
    case 'int':
    case 'smallint':
    case 'bigint':
      return 'bigint';
    case 'float':
      return 'double';
    case 'boolean':
      return 'boolean';
    case 'timestamp':
      return 'timestamp';
    case 'array':
      return `array<${value.element ? hiveType(value.element) : 'string'}>`;
    case 'object':
      return value.fields?.length
        ? `struct<${foldFields(value.fields)
            .map((f) => `${f.name}:${hiveType(f)}`)
            .join(',')}>`
        : 'string';
  }
}

/**
 * Keys that differ only by case (CloudTrail's principalId and principalID): Athena and DuckDB fold names to
 * lower case, so two such fields would be one column twice ("Duplicate name principalid"). The rule
 * (docs/search.md): the first spelling in the schema keeps its name, each later one is suffixed `_2`, `_3`, ...
 * (in the order the schema lists them), lower-cased. The lake's JSON keeps the original keys; the stand-in and
 * the Glue tables map the suffixed column to the original key.
 */
export function foldFields<T extends { name: string }>(fields: readonly T[]): (T & { key: string })[] {
  const seen = new Map<string, number>();
  return fields.map((f) => {
    const lower = f.name.toLowerCase();
    const n = (seen.get(lower) ?? 0) + 1;
    seen.set(lower, n);
    return { ...f, key: f.name, name: n === 1 ? f.name : `${lower}_${n}` };
  });
}

const byName = (columns: LakeColumn[]) => {
  const out = new Map<string, LakeColumn>();
  for (const c of columns) if (!out.has(c.name.toLowerCase())) out.set(c.name.toLowerCase(), c);
  return [...out.values()];
};

/** The columns of a log type's table in a lake database. */
export function lakeColumns(schema: Pick<SchemaSpec, 'fields'>, database: LakeDatabase = LOGS_DATABASE): LakeColumn[] {
  const fields = foldFields((schema.fields ?? []) as FieldSpec[]).map((f) => ({
    name: f.name,
    type: hiveType(f),
    comment: f.description?.slice(0, 255),
  }));
  return byName([...fields, ...EVENT_COLUMNS, ...(database === LOGS_DATABASE ? [] : DETECTION_COLUMNS)]);
}

/** Every lake table of the schemas: one per log type in each of the three databases. */
export function lakeTableSpecs(schemas: readonly Pick<SchemaSpec, 'schema' | 'fields'>[]): LakeTableSpec[] {
  const out: LakeTableSpec[] = [];
  for (const database of [LOGS_DATABASE, SIGNALS_DATABASE, RULE_ERRORS_DATABASE] as const)
    for (const schema of schemas)
      out.push({ database, name: tableName(schema.schema), logType: schema.schema, columns: lakeColumns(schema, database) });
  return out;
}

/** A Hive (Glue) type → PantherFlow type, for compiling PantherFlow over the catalog. */
export function flowTypeOfHive(type: string): FlowType {
  const t = type.trim();
  const lower = t.toLowerCase();
  if (lower.startsWith('array<') && t.endsWith('>')) return T.array(flowTypeOfHive(t.slice(6, -1)));
  if (lower.startsWith('struct<') && t.endsWith('>')) {
    const fields: Field[] = [];
    let depth = 0;
    let start = 0;
    const body = t.slice(7, -1);
    // A field name may hold ':' (`aws:SourceIp`): the type starts after the last ':' outside <...>.
    const push = (part: string) => {
      let at = -1;
      let level = 0;
      for (let i = 0; i < part.length; i++) {
        if (part[i] === '<') level++;
        if (part[i] === '>') level--;
        if (part[i] === ':' && level === 0) at = i;
      }
      if (at > 0) fields.push({ name: part.slice(0, at).trim(), type: flowTypeOfHive(part.slice(at + 1)) });
    };
    for (let i = 0; i < body.length; i++) {
      if (body[i] === '<') depth++;
      if (body[i] === '>') depth--;
      if (body[i] === ',' && depth === 0) {
        push(body.slice(start, i));
        start = i + 1;
      }
    }
    push(body.slice(start));
    return T.object(fields);
  }
  if (/^(tinyint|smallint|int|integer|bigint)$/.test(lower)) return T.int;
  if (/^(float|double|real)$/.test(lower) || lower.startsWith('decimal')) return T.float;
  if (lower === 'boolean') return T.bool;
  if (lower === 'timestamp' || lower === 'date') return T.timestamp;
  return T.string;
}
