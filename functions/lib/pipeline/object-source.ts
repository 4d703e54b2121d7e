// Which log source an object belongs to, and with which log types: an HTTP ingest object (in the ingest
// bucket, under http/<sourceId>/) belongs to its HTTP source; any other object to the S3 source whose
// prefix is the longest to match its key. Undefined when no enabled source claims it.
import type { LogSource } from '../../../core/log-sources/types';
import { getSource, sourceForObject } from '../log-sources/repository';
import { httpObjectSource } from './http-objects';

export interface ObjectSource {
  readonly source: LogSource;
  readonly logTypes: readonly string[];
}

export async function sourceOfObject(bucket: string, key: string, ingestBucket: string): Promise<ObjectSource | undefined> {
  const httpSourceId = bucket === ingestBucket ? httpObjectSource(key) : undefined;
  if (httpSourceId) {
    const source = await getSource(httpSourceId);
    if (!source || source.transport !== 'http-ingest' || !source.enabled) return undefined;
    return { source, logTypes: source.logTypes };
  }
  const match = await sourceForObject(bucket, key);
  return match ? { source: match.source, logTypes: match.logTypes } : undefined;
}
