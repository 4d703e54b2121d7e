// Who may give a lookup table a source that reads data, and which S3 buckets a table may read: the rules the
// lookups door enforces (on every save that sets a source, and at every refresh for the user who set it) and
// the form shows (the options a user may not choose are disabled, with the reason). The permissions come from
// the permission map (core/permissions LOOKUP_SOURCE_ACCESS); the buckets from the deployment configuration
// (lookupBuckets, infra/config.ts).
import { LOOKUP_SOURCE_ACCESS, PERMISSION_INFO, meetsAccess, type OperationAccess, type Permission } from '../permissions';
import type { LookupSource, LookupSourceKind, Problem } from './model';

type GuardedKind = keyof typeof LOOKUP_SOURCE_ACCESS;

const WHAT: Record<GuardedKind, { name: string; reads: string }> = {
  QUERY: { name: 'scheduled query', reads: 'A scheduled query reads the data lake' },
  S3: { name: 'S3 object', reads: "An S3 object may hold another log source's raw data" },
};

/** The requirement of a source kind from the permission map; undefined when it needs nothing beyond LookupModify. */
export function sourceAccess(kind: LookupSourceKind): OperationAccess | undefined {
  return kind === 'QUERY' || kind === 'S3' ? LOOKUP_SOURCE_ACCESS[kind] : undefined;
}

/** The titles of the permissions a source kind needs, as roles show them ("Run Log Searches"). */
export function sourcePermissionTitle(kind: LookupSourceKind): string | undefined {
  const access = sourceAccess(kind);
  if (!access || 'signedIn' in access) return undefined;
  const list = 'anyOf' in access ? access.anyOf : access.allOf;
  return PERMISSION_INFO[list[0] as Permission].title;
}

/** Why a user holding `held` may not give a table a source of this kind (refused on `source.kind`), or undefined. */
export function sourcePermissionError(
  kind: LookupSourceKind,
  held: readonly Permission[] | null | undefined,
): string | undefined {
  const access = sourceAccess(kind);
  if (!access || meetsAccess(held, access)) return undefined;
  const what = WHAT[kind as GuardedKind];
  return `${what.reads}: it needs the ${sourcePermissionTitle(kind)} permission, which your role does not have`;
}

/** The bucket of an `s3://bucket/key` address. */
export function s3BucketOf(location: string | null | undefined): string | undefined {
  return /^s3:\/\/([^/]+)\//.exec(location ?? '')?.[1];
}

/** Why a table may not read this S3 object (refused on `source.location`), given the buckets the deployment allows. */
export function lookupBucketError(location: string | null | undefined, allowed: readonly string[]): string | undefined {
  const bucket = s3BucketOf(location);
  if (bucket === undefined || allowed.includes(bucket)) return undefined;
  if (!allowed.length)
    return 'This deployment allows lookup tables to read no S3 bucket (lookupBuckets in the deployment configuration)';
  return `Lookup tables may read only the S3 buckets this deployment allows (lookupBuckets in the deployment configuration): ${allowed.join(', ')}`;
}

/** Every problem of the source a user sets (kind and bucket), each on its field. */
export function sourceAccessProblems(
  source: Pick<LookupSource, 'kind' | 'location'>,
  held: readonly Permission[] | null | undefined,
  allowedBuckets: readonly string[],
): Problem[] {
  const refused = sourcePermissionError(source.kind, held);
  if (refused) return [{ path: 'source.kind', message: refused }];
  const bucket = source.kind === 'S3' ? lookupBucketError(source.location, allowedBuckets) : undefined;
  return bucket ? [{ path: 'source.location', message: bucket }] : [];
}

/** The user a table's source was set by, as read at a refresh: undefined when none is recorded, null when gone. */
export type SourceOwner = { readonly enabled: boolean; readonly permissions: readonly Permission[] } | null | undefined;

/** Why a refresh may not read a table's source on behalf of the user who set it, or undefined when it may. */
export function sourceOwnerError(kind: LookupSourceKind, owner: SourceOwner): string | undefined {
  const access = sourceAccess(kind);
  if (!access) return undefined;
  const what = WHAT[kind as GuardedKind];
  const fix = `save the table again as a user with the ${sourcePermissionTitle(kind)} permission`;
  if (owner === undefined) return `No user is recorded as having set this table's ${what.name}: ${fix}`;
  if (owner === null) return `The user who set this table's ${what.name} no longer exists: ${fix}`;
  if (!owner.enabled) return `The user who set this table's ${what.name} is deactivated: ${fix}`;
  if (!meetsAccess(owner.permissions, access))
    return `The user who set this table's ${what.name} no longer has the ${sourcePermissionTitle(kind)} permission: ${fix}`;
  return undefined;
}
