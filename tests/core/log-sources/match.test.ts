import { describe, expect, it } from 'vitest';
import { matchObject, matchPrefix, withinPrefixes } from '../../../core/log-sources/match';
import type { S3PrefixLogTypes } from '../../../core/log-sources/types';

const prefix = (p: string, logTypes: string[], excludedPrefixes: string[] = []): S3PrefixLogTypes => ({
  prefix: p,
  excludedPrefixes,
  logTypes,
});

describe('matchPrefix', () => {
  const prefixes = [
    prefix('', ['AWS.S3ServerAccess']),
    prefix('cloudtrail/', ['AWS.CloudTrail'], ['cloudtrail/digest/']),
    prefix('cloudtrail/org/', ['AWS.CloudTrail', 'AWS.GuardDuty']),
  ];

  it('picks the longest prefix the key starts with', () => {
    expect(matchPrefix(prefixes, 'cloudtrail/org/x.json.gz')?.prefix).toBe('cloudtrail/org/');
    expect(matchPrefix(prefixes, 'cloudtrail/a.json')?.prefix).toBe('cloudtrail/');
  });

  it('lets the empty prefix match every key', () => {
    expect(matchPrefix(prefixes, 'elsewhere/file.log')?.prefix).toBe('');
    expect(matchPrefix([prefix('', ['X'])], '')?.prefix).toBe('');
  });

  it('falls back to a shorter prefix when the key is excluded from the longer one', () => {
    expect(matchPrefix(prefixes, 'cloudtrail/digest/1.json')?.prefix).toBe('');
    expect(matchPrefix(prefixes.slice(1), 'cloudtrail/digest/1.json')).toBeUndefined();
  });

  it('matches nothing when no prefix fits', () => {
    expect(matchPrefix([prefix('logs/', ['X'])], 'other/file')).toBeUndefined();
    expect(matchPrefix([], 'any')).toBeUndefined();
  });
});

describe('matchObject', () => {
  const source = (id: string, bucket: string, prefixes: S3PrefixLogTypes[]) => ({ id, s3: { bucket, prefixes } });

  it('chooses among sources reading the bucket by the longest prefix', () => {
    const sources = [
      source('a', 'logs', [prefix('', ['A'])]),
      source('b', 'logs', [prefix('vpc/', ['B'])]),
      source('c', 'other', [prefix('vpc/flow/', ['C'])]),
    ];
    const match = matchObject(sources, 'logs', 'vpc/flow/1.gz');
    expect(match?.source.id).toBe('b');
    expect(match?.logTypes).toEqual(['B']);
    expect(matchObject(sources, 'logs', 'x')?.source.id).toBe('a');
    expect(matchObject(sources, 'nobody', 'x')).toBeUndefined();
  });
});

describe('withinPrefixes', () => {
  it('holds a listing prefix that starts with one of the source prefixes, and no other', () => {
    const prefixes = [prefix('cloudtrail/', ['AWS.CloudTrail']), prefix('vpc/flow/', ['AWS.VPCFlow'])];
    expect(withinPrefixes(prefixes, 'cloudtrail/')).toBe(true);
    expect(withinPrefixes(prefixes, 'vpc/flow/2026/')).toBe(true);
    for (const outside of ['', 'cloud', 'vpc/', 'elsewhere/', '../cloudtrail/'])
      expect(withinPrefixes(prefixes, outside)).toBe(false);
    expect(withinPrefixes([prefix('', ['AWS.S3ServerAccess'])], 'anything/')).toBe(true);
  });
});
