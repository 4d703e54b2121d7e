// The lake's tables: one per log type in each of the three databases (core/search/lake-tables, from the log
// type's schema), made in Glue (glue.ts; partition projection over the lake bucket, core/lake/glue-table) and
// known from the schemas: the managed log types' tables (made at deploy time by functions/lake-tables, at start by
// the local runtime) and the custom schemas' (made when a schema is saved). The catalog searches compile against
// is computed from the schemas, not read back from Glue on every search.
import { managedSchemas } from '../../../core/schemas/managed-schemas';
import type { SchemaSpec } from '../../../core/schemas/types';
import { LAKE_DATABASES } from '../../../core/search';
import { lakeTableSpecs, type LakeColumn, type LakeTableSpec } from '../../../core/search/lake-tables';
import { tableName, type LakeDatabase } from '../../../core/lake/layout';
import { deleteGlueTable, putGlueTable } from './glue';
import { lakeBucketName } from './bucket';

export interface EnsureLakeTableInput {
  readonly database: LakeDatabase;
  /** The log type (`AWS.CloudTrail`); the table is its lake name (`aws_cloudtrail`). */
  readonly logType: string;
  /** Hive-typed columns (core/search lakeColumns): the schema's fields plus the p_* columns. */
  readonly columns: readonly LakeColumn[];
}

/** A Hive type: a base type or array/struct/map of them (struct field names are the schema's, printable). */
const HIVE_TYPE = /^(string|bigint|int|double|boolean|timestamp|array<.*>|struct<.*>|map<.*>)$/;
const balanced = (type: string) => {
  let depth = 0;
  for (const ch of type) if ((depth += ch === '<' ? 1 : ch === '>' ? -1 : 0) < 0) return false;
  return depth === 0 && /^[\x20-\x7e]+$/.test(type);
};

/**
 * Creates or updates a lake table in Glue (partition projection on year/month/day/hour over the lake bucket,
 * LAKE_BUCKET), as the deploy-time tables are; the stand-in answers the same calls locally.
 * `force`: update an existing table even when its columns match (the deploy-time resource, after the table
 * definition of core/lake/glue-table or the lake bucket changed); `managedBy`: the deploy-time resource's stack,
 * marked as the table's owner (glue.ts putGlueTable).
 */
export async function ensureLakeTable(
  input: EnsureLakeTableInput,
  options: { readonly force?: boolean; readonly managedBy?: string } = {},
): Promise<'created' | 'updated' | 'unchanged'> {
  if (!LAKE_DATABASES.includes(input.database)) throw new Error(`not a lake database: ${String(input.database)}`);
  const name = tableName(String(input.logType ?? ''));
  if (!/^[a-z0-9_]{1,255}$/.test(name)) throw new Error(`not a lake table name: ${name}`);
  if (!input.columns.length) throw new Error(`${input.database}.${name}: a lake table needs columns`);
  const seen = new Set<string>();
  for (const c of input.columns) {
    if (!/^[^\s"`,:<>;]{1,255}$/.test(c.name) || seen.has(c.name.toLowerCase()))
      throw new Error(`${input.database}.${name}: column name ${JSON.stringify(c.name)} is not valid or repeated`);
    if (!HIVE_TYPE.test(c.type) || !balanced(c.type))
      throw new Error(`${input.database}.${name}: column ${c.name} has no Hive type`);
    seen.add(c.name.toLowerCase());
  }
  return putGlueTable(
    { database: input.database, name, logType: input.logType, columns: input.columns },
    lakeBucketName(),
    options.force,
    options.managedBy,
  );
}

const keyOf = (t: Pick<LakeTableSpec, 'database' | 'name'>) => `${t.database}.${t.name}`;

/**
 * The tables this process made from a schema (ensureLakeTables), newest columns: known to its searches at once,
 * before the schema store's list shows the schema (and where there is no store: the lake on its own).
 */
const madeHere = new Map<string, LakeTableSpec>();

/** A log type's tables in the three lake databases (logs, signals, rule errors), from its schema. */
export async function ensureLakeTables(schema: Pick<SchemaSpec, 'schema' | 'fields'>): Promise<void> {
  for (const t of lakeTableSpecs([schema])) {
    await ensureLakeTable({ database: t.database, logType: t.logType, columns: t.columns });
    madeHere.set(keyOf(t), t);
  }
}

/** Deletes a lake table from Glue (its data in S3 stays: the tables are external); false when there was none. */
export async function deleteLakeTable(database: string, name: string): Promise<boolean> {
  madeHere.delete(`${database}.${name}`);
  return deleteGlueTable(database, name);
}

let managed: readonly LakeTableSpec[] | undefined;

/** The managed log types' tables in the three lake databases (computed once; logs, then signals, then rule errors). */
export const managedLakeTables = (): readonly LakeTableSpec[] => (managed ??= lakeTableSpecs(managedSchemas()));

/**
 * The lake's tables as the schemas define them: the managed log types', those this process made from a schema,
 * and the custom schemas' given (the schemas' store, its current revisions winning over what was made here).
 */
export function lakeTables(custom: readonly Pick<SchemaSpec, 'schema' | 'fields'>[] = []): LakeTableSpec[] {
  const out = new Map<string, LakeTableSpec>();
  for (const t of managedLakeTables()) out.set(keyOf(t), t);
  for (const [key, t] of madeHere) if (!out.has(key)) out.set(key, t);
  for (const t of lakeTableSpecs(custom)) if (!managedKeys().has(keyOf(t))) out.set(keyOf(t), t);
  return [...out.values()];
}

let managedKeySet: Set<string> | undefined;
const managedKeys = () => (managedKeySet ??= new Set(managedLakeTables().map(keyOf)));
