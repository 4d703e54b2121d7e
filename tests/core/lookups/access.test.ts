// Who may give a lookup table a source that reads data (core/lookups/access.ts over the permission map's
// LOOKUP_SOURCE_ACCESS), which buckets an S3 source may name, and why a refresh refuses to read a source on
// behalf of the user who set it.
import { describe, expect, it } from 'vitest';
import {
  lookupBucketError,
  s3BucketOf,
  sourceAccessProblems,
  sourceOwnerError,
  sourcePermissionError,
  sourcePermissionTitle,
} from '../../../core/lookups/index';
import { LOOKUP_SOURCE_ACCESS, PERMISSIONS, meetsAccess, type Permission } from '../../../core/permissions';

const LOOKUP_ONLY: Permission[] = ['LookupRead', 'LookupModify'];

describe('the permission map for lookup sources', () => {
  it('asks a search permission for a scheduled query and the raw-data permission for an S3 object', () => {
    expect(LOOKUP_SOURCE_ACCESS).toEqual({
      QUERY: { anyOf: ['DataAnalyticsRead', 'DataAnalyticsModify'] },
      S3: { anyOf: ['LogSourceRawDataRead'] },
    });
    expect(meetsAccess(['DataAnalyticsModify'], LOOKUP_SOURCE_ACCESS.QUERY)).toBe(true);
    expect(meetsAccess(['LogSourceModify', 'LogSourceRead'], LOOKUP_SOURCE_ACCESS.S3)).toBe(false);
    expect(meetsAccess([], { signedIn: true })).toBe(true);
    expect(meetsAccess(['UserRead'], { allOf: ['UserRead', 'UserModify'] })).toBe(false);
  });
});

describe('sourcePermissionError', () => {
  it('refuses a scheduled query or an S3 object to a user with only the lookup permissions', () => {
    expect(sourcePermissionError('QUERY', LOOKUP_ONLY)).toBe(
      'A scheduled query reads the data lake: it needs the Run Log Searches permission, which your role does not have',
    );
    expect(sourcePermissionError('S3', LOOKUP_ONLY)).toBe(
      "An S3 object may hold another log source's raw data: it needs the View Raw Log Data permission, which your role does not have",
    );
    expect(sourcePermissionError('S3', ['LookupModify', 'DataAnalyticsRead'])).toBeDefined();
    expect(sourcePermissionError('QUERY', ['LookupModify', 'LogSourceRawDataRead'])).toBeDefined();
    expect(sourcePermissionError('QUERY', null)).toBeDefined();
  });

  it('allows them to the permissions the map names, and files and URLs to anyone', () => {
    expect(sourcePermissionError('QUERY', [...LOOKUP_ONLY, 'DataAnalyticsRead'])).toBeUndefined();
    expect(sourcePermissionError('S3', [...LOOKUP_ONLY, 'LogSourceRawDataRead'])).toBeUndefined();
    expect(sourcePermissionError('QUERY', PERMISSIONS)).toBeUndefined();
    expect(sourcePermissionError('FILE', LOOKUP_ONLY)).toBeUndefined();
    expect(sourcePermissionError('URL', [])).toBeUndefined();
    expect(sourcePermissionTitle('QUERY')).toBe('Run Log Searches');
    expect(sourcePermissionTitle('S3')).toBe('View Raw Log Data');
    expect(sourcePermissionTitle('FILE')).toBeUndefined();
  });
});

describe('the buckets an S3 source may name', () => {
  it('reads the bucket of an s3:// address', () => {
    expect(s3BucketOf('s3://reference-data/intel/ips.csv')).toBe('reference-data');
    expect(s3BucketOf('reference-data/ips.csv')).toBeUndefined();
    expect(s3BucketOf(null)).toBeUndefined();
  });

  it('allows only the configured buckets, and says which those are', () => {
    expect(lookupBucketError('s3://reference-data/ips.csv', ['reference-data'])).toBeUndefined();
    expect(lookupBucketError('s3://cloudtrail-raw/AWSLogs/1.json.gz', ['reference-data', 'intel'])).toBe(
      'Lookup tables may read only the S3 buckets this deployment allows (lookupBuckets in the deployment configuration): reference-data, intel',
    );
    expect(lookupBucketError('s3://reference-data/ips.csv', [])).toBe(
      'This deployment allows lookup tables to read no S3 bucket (lookupBuckets in the deployment configuration)',
    );
    // an address that is not one is the model's problem (source.location), not this rule's
    expect(lookupBucketError('not an address', [])).toBeUndefined();
  });
});

describe('sourceAccessProblems', () => {
  it('puts a missing permission on the source kind and a refused bucket on the object address', () => {
    expect(sourceAccessProblems({ kind: 'S3', location: 's3://raw/x.json' }, LOOKUP_ONLY, [])).toEqual([
      { path: 'source.kind', message: sourcePermissionError('S3', LOOKUP_ONLY) },
    ]);
    expect(sourceAccessProblems({ kind: 'S3', location: 's3://raw/x.json' }, ['LogSourceRawDataRead'], ['ref'])).toEqual([
      { path: 'source.location', message: lookupBucketError('s3://raw/x.json', ['ref']) },
    ]);
    expect(sourceAccessProblems({ kind: 'S3', location: 's3://ref/x.json' }, ['LogSourceRawDataRead'], ['ref'])).toEqual([]);
    expect(sourceAccessProblems({ kind: 'QUERY' }, ['DataAnalyticsRead'], [])).toEqual([]);
    expect(sourceAccessProblems({ kind: 'FILE' }, [], [])).toEqual([]);
  });
});

describe('sourceOwnerError (at each refresh)', () => {
  const analyst = { enabled: true, permissions: [...LOOKUP_ONLY, 'DataAnalyticsRead'] as Permission[] };

  it('reads the source while the user who set it still may', () => {
    expect(sourceOwnerError('QUERY', analyst)).toBeUndefined();
    expect(sourceOwnerError('S3', { enabled: true, permissions: ['LogSourceRawDataRead'] })).toBeUndefined();
    expect(sourceOwnerError('FILE', undefined)).toBeUndefined();
    expect(sourceOwnerError('URL', null)).toBeUndefined();
  });

  it('says why not when they lost the permission, were deactivated or deleted, or nobody is recorded', () => {
    const fix = 'save the table again as a user with the Run Log Searches permission';
    expect(sourceOwnerError('QUERY', { enabled: true, permissions: LOOKUP_ONLY })).toBe(
      `The user who set this table's scheduled query no longer has the Run Log Searches permission: ${fix}`,
    );
    expect(sourceOwnerError('QUERY', { ...analyst, enabled: false })).toBe(
      `The user who set this table's scheduled query is deactivated: ${fix}`,
    );
    expect(sourceOwnerError('QUERY', null)).toBe(`The user who set this table's scheduled query no longer exists: ${fix}`);
    expect(sourceOwnerError('QUERY', undefined)).toBe(`No user is recorded as having set this table's scheduled query: ${fix}`);
    expect(sourceOwnerError('S3', analyst)).toBe(
      "The user who set this table's S3 object no longer has the View Raw Log Data permission: save the table again as a user with the View Raw Log Data permission",
    );
  });
});
