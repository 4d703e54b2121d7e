// Who stands behind a lookup table's source (core/lookups/access.ts): a scheduled query needs the Run Log
// Searches permission and an S3 object the View Raw Log Data permission of the user who sets it, and an S3
// object must lie in a bucket the deployment allows (LOOKUP_BUCKETS, from lookupBuckets in infra/config.ts).
// Checked for the acting user when a save sets the source, and for the user who set it at every refresh (their
// role read afresh through the users door, as the API's guard reads it on every request).
import {
  lookupBucketError,
  sourceAccess,
  sourceAccessProblems,
  sourceOwnerError,
  type LookupSource,
  type LookupTable,
  type Problem,
} from '../../../core/lookups/index';
import type { Caller } from '../auth';
import { ENV, optionalEnv } from '../env';
import { invalidInput } from '../errors';
import { userAccess } from '../users';

/** The buckets lookup tables may read (LOOKUP_BUCKETS, comma-separated); none when unset. */
export function allowedLookupBuckets(): string[] {
  return (optionalEnv(ENV.lookupBuckets) ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

/** Whether a save changes what the source reads (a new table, another kind, query, object or role). */
export function setsSource(source: LookupSource, before?: LookupSource): boolean {
  return (
    !before ||
    before.kind !== source.kind ||
    (before.query ?? null) !== (source.query ?? null) ||
    (before.location ?? null) !== (source.location ?? null) ||
    (before.roleArn ?? null) !== (source.roleArn ?? null)
  );
}

/**
 * Refuses a save whose source the acting user may not set (on `source.kind`) or whose S3 object lies outside
 * the allowed buckets (on `source.location`). A save that keeps the stored source as it is needs no permission
 * of the saver (the source stays the one its setter answered for); its bucket is checked all the same.
 */
export function checkSourceOnSave(source: LookupSource, caller: Caller, before?: LookupSource): void {
  if (!sourceAccess(source.kind)) return;
  const allowed = allowedLookupBuckets();
  let problems: Problem[] = [];
  if (setsSource(source, before)) problems = sourceAccessProblems(source, caller.permissions, allowed);
  else if (source.kind === 'S3') {
    const bucket = lookupBucketError(source.location, allowed);
    if (bucket) problems = [{ path: 'source.location', message: bucket }];
  }
  if (problems.length) throw invalidInput(problems);
}

/**
 * Throws (with the reason a refresh records) when a table's source may not be read now: the user who set it no
 * longer exists, is deactivated or no longer holds the permission it needs, or its S3 bucket is no longer allowed.
 */
export async function checkSourceAtRefresh(table: LookupTable): Promise<void> {
  const { source } = table;
  if (!sourceAccess(source.kind)) return;
  const owner = table.sourceSetBy ? await userAccess(table.sourceSetBy) : undefined;
  const refused = sourceOwnerError(source.kind, owner);
  if (refused) throw new Error(refused);
  if (source.kind === 'S3') {
    const bucket = lookupBucketError(source.location, allowedLookupBuckets());
    if (bucket) throw new Error(bucket);
  }
}
