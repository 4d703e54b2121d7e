// The deploy-time custom resource (infra/search) that makes the Glue tables of the managed log types in all three
// lake databases (panther_logs, panther_signals, panther_rule_errors) through the lake door's Glue calls
// (ensureLakeTable, over the one definition of core/lake/glue-table): one CloudFormation resource instead of one
// per table, which neither the stack's 500-resource limit nor CloudFormation's 1 MB template limit allows (345
// tables). Create and Update ensure every table (a table with the right columns is left alone); an Update whose
// `Definition` (digest of the table definition, infra/search) or `LakeBucket` changed rewrites every table, so a
// change of projection, location or serde reaches the tables already made. Every table the resource makes is
// marked with the stack's id (the `caracal.managedBy` parameter; its tables made before the mark, recognised by
// their `caracal.logType`, get it at the next update); an Update deletes the marked tables whose log type left the
// managed schemas (in Glue only: their data stays in S3), never a custom log type's table or a table the stack did
// not make. Delete leaves the tables (they describe data that stays in the lake; the databases go with the stack).
// The answer goes to CloudFormation's pre-signed ResponseURL.
import { LOGS_DATABASE, RULE_ERRORS_DATABASE, SIGNALS_DATABASE } from '../../core/lake/layout';
import { deleteLakeTable, ensureLakeTable, glueTables, managedLakeTables } from '../lib/lake';

export interface LakeTablesEvent {
  readonly RequestType: 'Create' | 'Update' | 'Delete';
  readonly ResponseURL: string;
  readonly StackId: string;
  readonly RequestId: string;
  readonly LogicalResourceId: string;
  readonly PhysicalResourceId?: string;
  readonly ResourceProperties?: LakeTablesProperties;
  readonly OldResourceProperties?: LakeTablesProperties;
}

/** What infra/search gives the resource: digests of the tables and of their definition, and the lake bucket. */
export interface LakeTablesProperties {
  readonly Digest?: string;
  readonly Definition?: string;
  readonly LakeBucket?: string;
}

const PHYSICAL_ID = 'caracal-detection-lake-tables';

/** The tables of the managed log types in the three lake databases (logs first). */
export const managedTableSpecs = () =>
  [...managedLakeTables()].sort((a, b) => Number(b.database === LOGS_DATABASE) - Number(a.database === LOGS_DATABASE));

/**
 * Ensures every managed table, marked as `managedBy`'s; `force`: updates the existing ones to the definition even
 * with the same columns.
 */
export async function ensureManagedTables(managedBy: string, force = false): Promise<Record<string, number>> {
  const counts: Record<string, number> = { created: 0, updated: 0, unchanged: 0 };
  for (const t of managedTableSpecs())
    counts[await ensureLakeTable({ database: t.database, logType: t.logType, columns: t.columns }, { force, managedBy })]++;
  return counts;
}

/**
 * Deletes the tables marked as `managedBy`'s that are no longer managed tables (a log type dropped from the
 * managed schemas), in the three lake databases; the names deleted, `database.table`.
 */
export async function deleteDroppedTables(managedBy: string): Promise<string[]> {
  const keep = new Set(managedTableSpecs().map((t) => `${t.database}.${t.name}`));
  const deleted: string[] = [];
  for (const t of await glueTables([LOGS_DATABASE, SIGNALS_DATABASE, RULE_ERRORS_DATABASE])) {
    const key = `${t.database}.${t.name}`;
    if (t.managedBy !== managedBy || keep.has(key)) continue;
    if (await deleteLakeTable(t.database, t.name)) deleted.push(key);
  }
  if (deleted.length) console.log(`deleted the Glue tables of log types no longer managed: ${deleted.join(', ')}`);
  return deleted;
}

/** An update whose table definition or lake bucket changed: every table is rewritten. */
const definitionChanged = (event: LakeTablesEvent): boolean =>
  event.RequestType === 'Update' &&
  (event.OldResourceProperties?.Definition !== event.ResourceProperties?.Definition ||
    event.OldResourceProperties?.LakeBucket !== event.ResourceProperties?.LakeBucket);

export async function handler(event: LakeTablesEvent): Promise<void> {
  let status: 'SUCCESS' | 'FAILED' = 'SUCCESS';
  let reason = 'done';
  let data: Record<string, number> = {};
  try {
    if (event.RequestType !== 'Delete') data = await ensureManagedTables(event.StackId, definitionChanged(event));
    if (event.RequestType === 'Update') data.deleted = (await deleteDroppedTables(event.StackId)).length;
  } catch (e) {
    status = 'FAILED';
    reason = `Glue tables not made: ${(e as Error).message}`.slice(0, 1000);
    console.error(reason);
  }
  const body = JSON.stringify({
    Status: status,
    Reason: reason,
    PhysicalResourceId: event.PhysicalResourceId ?? PHYSICAL_ID,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
    Data: data,
  });
  const res = await fetch(event.ResponseURL, { method: 'PUT', body, headers: { 'content-type': '' } });
  if (!res.ok) throw new Error(`CloudFormation response refused: ${res.status}`);
}
