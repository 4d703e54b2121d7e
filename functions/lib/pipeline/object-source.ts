// Which log source an object belongs to, and with which log types: a hand-off object of HTTP ingest or an
// SQS source (in the ingest bucket, under http/<sourceId>/ or sqs/<sourceId>/) belongs to that source; any
// other object to the S3 source whose prefix is the longest to match its key. Undefined when no enabled
// source claims it.
import type { LogSource } from '../../../core/log-sources/types';
import { getSource, sourceForObject } from '../log-sources';
import { handOffSource } from './handoff-objects';

export interface ObjectSource {
  readonly source: LogSource;
  readonly logTypes: readonly string[];
}

const TRANSPORTS = { http: 'http-ingest', sqs: 'aws-sqs' } as const;

export async function sourceOfObject(bucket: string, key: string, ingestBucket: string): Promise<ObjectSource | undefined> {
  const handOff = bucket === ingestBucket ? handOffSource(key) : undefined;
  if (handOff) {
    const source = await getSource(handOff.sourceId);
    if (!source || source.transport !== TRANSPORTS[handOff.transport] || !source.enabled) return undefined;
    return { source, logTypes: source.logTypes };
  }
  const match = await sourceForObject(bucket, key);
  return match ? { source: match.source, logTypes: match.logTypes } : undefined;
}
