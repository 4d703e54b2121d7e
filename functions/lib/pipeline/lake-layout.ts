// The names of the lake files the log processor writes; the layout they go into is core/lake/layout.ts.
import { hash128 } from '../../../core/schemas/rowid';

/** The object an input object came from: what makes the lake objects written for it deterministic. */
export interface InputObject {
  readonly sourceId: string;
  readonly bucket: string;
  readonly key: string;
  /** The S3 ETag (or any content version): a changed object writes new files, a reprocessed one overwrites. */
  readonly etag: string;
}

/** The name of the `part`th file of a log type's events from one input object, within one partition. */
export function lakeObjectName(input: InputObject, logType: string, part: number): string {
  const id = hash128(`${input.sourceId}\u0000${input.bucket}\u0000${input.key}\u0000${input.etag}\u0000${logType}`);
  return `${id}-${String(part).padStart(4, '0')}.json.gz`;
}
