// The deploy-time custom resource (infra/search) that makes the Glue tables of the managed log types in all three
// lake databases (panther_logs, panther_signals, panther_rule_errors) through Glue calls (ensureLakeTable, over
// the one definition of core/lake/glue-table): one CloudFormation resource instead of one per table, which
// neither the stack's 500-resource limit nor CloudFormation's 1 MB template limit allows (345 tables). Create and
// Update ensure every table (a table with the right columns is left alone); an Update whose `Definition` (digest of
// the table definition, infra/search) or `LakeBucket` changed rewrites every table, so a change of projection,
// location or serde reaches the tables already made. Delete leaves the tables (they describe data that stays in
// the lake; the databases go with the stack). The answer goes to CloudFormation's pre-signed ResponseURL.
import { managedSchemas } from '../../../core/schemas/managed-schemas';
import { lakeTableSpecs } from '../../../core/search/lake-tables';
import { LOGS_DATABASE } from '../../../core/lake/layout';
import { ensureLakeTable } from './index';

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
  [...lakeTableSpecs(managedSchemas())].sort(
    (a, b) => Number(b.database === LOGS_DATABASE) - Number(a.database === LOGS_DATABASE),
  );

/** Ensures every managed table; `force`: updates the existing ones to the definition even with the same columns. */
export async function ensureManagedTables(force = false): Promise<Record<string, number>> {
  const counts: Record<string, number> = { created: 0, updated: 0, unchanged: 0 };
  for (const t of managedTableSpecs())
    counts[await ensureLakeTable({ database: t.database, logType: t.logType, columns: t.columns }, { force })]++;
  return counts;
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
    if (event.RequestType !== 'Delete') data = await ensureManagedTables(definitionChanged(event));
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
