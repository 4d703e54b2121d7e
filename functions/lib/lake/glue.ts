// Glue through the AWS SDK: the same calls reach AWS or the local runtime's stand-in (the endpoint comes from
// AWS_ENDPOINT_URL_GLUE). The lake door's table calls (tables.ts makes the tables of the schemas through them;
// the deploy-time resource, functions/lake-tables, lists and deletes its own).
import {
  CreateTableCommand,
  DeleteTableCommand,
  GetDatabasesCommand,
  GetTableCommand,
  GetTablesCommand,
  GlueClient,
  UpdateTableCommand,
  type TableInput,
} from '@aws-sdk/client-glue';
import { glueTableDefinition } from '../../../core/lake/glue-table';
import type { LakeTableSpec } from '../../../core/search/lake-tables';
import type { EngineColumn } from './athena';

let glueClient: GlueClient | undefined;
const glue = () => (glueClient ??= new GlueClient({}));

export interface GlueTable {
  readonly database: string;
  readonly name: string;
  readonly logType?: string;
  /** Who manages the table (its `caracal.managedBy` parameter): the stack whose lake-tables resource made it. */
  readonly managedBy?: string;
  readonly columns: EngineColumn[];
}

/**
 * The table parameter naming the owner of a managed log type's table: the stack id of the deploy-time resource
 * that made it (functions/lake-tables/handler.ts), which alone may delete it.
 */
export const MANAGED_BY_PARAMETER = 'caracal.managedBy';

/** Every table of the lake's databases, from Glue. */
export async function glueTables(databases: readonly string[]): Promise<GlueTable[]> {
  const known = new Set<string>();
  let NextToken: string | undefined;
  do {
    const out = await glue().send(new GetDatabasesCommand({ NextToken }));
    for (const d of out.DatabaseList ?? []) if (d.Name) known.add(d.Name);
    NextToken = out.NextToken;
  } while (NextToken);
  const tables: GlueTable[] = [];
  for (const database of databases.filter((d) => known.has(d))) {
    let token: string | undefined;
    do {
      const out = await glue().send(new GetTablesCommand({ DatabaseName: database, NextToken: token }));
      for (const t of out.TableList ?? [])
        tables.push({
          database,
          name: t.Name ?? '',
          logType: t.Parameters?.['caracal.logType'],
          managedBy: t.Parameters?.[MANAGED_BY_PARAMETER],
          columns: (t.StorageDescriptor?.Columns ?? []).map((c) => ({ name: c.Name ?? '', type: c.Type ?? 'string' })),
        });
      token = out.NextToken;
    } while (token);
  }
  return tables;
}

/** A Glue table over `<database>/<table>/year=/month=/day=/hour=/` with projected partitions (core/lake/glue-table, as infra/search's). */
export function glueTableInput(table: LakeTableSpec, bucketName: string): TableInput {
  const definition = glueTableDefinition(table, bucketName);
  return {
    ...definition,
    Parameters: { ...definition.Parameters },
    PartitionKeys: definition.PartitionKeys.map((c) => ({ ...c })),
    StorageDescriptor: {
      ...definition.StorageDescriptor,
      Columns: definition.StorageDescriptor.Columns.map((c) => ({ ...c })),
    },
  };
}

const sameColumns = (a: readonly { Name?: string; Type?: string }[], b: readonly { Name?: string; Type?: string }[]) =>
  a.length === b.length && a.every((c, i) => c.Name?.toLowerCase() === b[i]?.Name?.toLowerCase() && c.Type === b[i]?.Type);

/**
 * Creates the Glue table, or updates it when its columns differ (`force`: whatever it has, to the whole definition
 * of core/lake/glue-table, after that definition changed); 'created' | 'updated' | 'unchanged'.
 * `managedBy` (the deploy-time resource): the table is marked as that owner's when it makes it, or when it is
 * already the owner's or made by the same builder for the same log type (tables of the resource before the mark);
 * another table (made by hand) is brought to the definition but not marked. Without it, an existing owner's mark
 * is kept.
 */
export async function putGlueTable(
  table: LakeTableSpec,
  bucketName: string,
  force = false,
  managedBy?: string,
): Promise<'created' | 'updated' | 'unchanged'> {
  const input = glueTableInput(table, bucketName);
  let current;
  try {
    current = (await glue().send(new GetTableCommand({ DatabaseName: table.database, Name: table.name }))).Table;
  } catch (e) {
    if ((e as Error).name !== 'EntityNotFoundException') throw e;
  }
  if (!current) {
    try {
      await glue().send(new CreateTableCommand({ DatabaseName: table.database, TableInput: marked(input, managedBy) }));
      return 'created';
    } catch (e) {
      // made meanwhile by another caller: bring it to these columns
      if ((e as Error).name !== 'AlreadyExistsException') throw e;
    }
  }
  const mark = current?.Parameters?.[MANAGED_BY_PARAMETER];
  const owner =
    managedBy !== undefined &&
    (mark === managedBy || (mark === undefined && current?.Parameters?.['caracal.logType'] === table.logType))
      ? managedBy
      : mark;
  if (
    current &&
    !force &&
    sameColumns(current.StorageDescriptor?.Columns ?? [], input.StorageDescriptor?.Columns ?? []) &&
    current.Parameters?.['projection.enabled'] === 'true' &&
    mark === owner
  )
    return 'unchanged';
  await glue().send(new UpdateTableCommand({ DatabaseName: table.database, TableInput: marked(input, owner) }));
  return 'updated';
}

const marked = (input: TableInput, managedBy: string | undefined): TableInput =>
  managedBy === undefined ? input : { ...input, Parameters: { ...input.Parameters, [MANAGED_BY_PARAMETER]: managedBy } };

/** Deletes a Glue table (its data in S3 stays: the tables are external); false when there was none. */
export async function deleteGlueTable(database: string, name: string): Promise<boolean> {
  try {
    await glue().send(new DeleteTableCommand({ DatabaseName: database, Name: name }));
    return true;
  } catch (e) {
    if ((e as Error).name === 'EntityNotFoundException') return false;
    throw e;
  }
}
