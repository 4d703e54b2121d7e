// Which prefix of an S3 source an object belongs to: the longest prefix the key starts with, unless the key
// also starts with one of that prefix's excluded prefixes (then the next longest prefix is tried). The empty
// prefix matches every key. Pure: the pipeline and the "View bucket data" sidesheet both use it (the sidesheet
// lists only within the source's prefixes, and shows only the objects the source reads).
import type { S3PrefixLogTypes, S3SourceConfig } from './types';

export function matchPrefix(prefixes: readonly S3PrefixLogTypes[], key: string): S3PrefixLogTypes | undefined {
  let best: S3PrefixLogTypes | undefined;
  for (const entry of prefixes) {
    if (!key.startsWith(entry.prefix)) continue;
    if (entry.excludedPrefixes.some((excluded) => key.startsWith(excluded))) continue;
    if (!best || entry.prefix.length > best.prefix.length) best = entry;
  }
  return best;
}

/** Whether every key under `prefix` lies within one of the source's prefixes (it starts with one of them). */
export function withinPrefixes(prefixes: readonly S3PrefixLogTypes[], prefix: string): boolean {
  return prefixes.some((entry) => prefix.startsWith(entry.prefix));
}

export interface ObjectMatch<S> {
  readonly source: S;
  readonly prefix: S3PrefixLogTypes;
  readonly logTypes: readonly string[];
}

/**
 * The source and log types for an object among the S3 sources reading `bucket`: the longest matching prefix
 * over all of them (two sources may read different prefixes of one bucket).
 */
export function matchObject<S extends { readonly s3: S3SourceConfig }>(
  sources: readonly S[],
  bucket: string,
  key: string,
): ObjectMatch<S> | undefined {
  let best: ObjectMatch<S> | undefined;
  for (const source of sources) {
    if (source.s3.bucket !== bucket) continue;
    const prefix = matchPrefix(source.s3.prefixes, key);
    if (prefix && (!best || prefix.prefix.length > best.prefix.prefix.length)) {
      best = { source, prefix, logTypes: prefix.logTypes };
    }
  }
  return best;
}
