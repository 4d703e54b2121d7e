// Where events live in the lake: `panther_logs/<table>/year=YYYY/month=MM/day=DD/hour=HH/<name>.json.gz`,
// the table named after the log type (lowercased, dots to underscores), the hour taken from p_event_time.
import { hash128 } from '../../../core/schemas/rowid';

export const LOGS_DATABASE = 'panther_logs';

/** `AWS.CloudTrail` → `aws_cloudtrail`. */
export const tableName = (logType: string) => logType.toLowerCase().replace(/\./g, '_');

/** The partition folder for an event time in the lake's text form (`YYYY-MM-DD HH:MM:SS.nnnnnnnnn`, UTC). */
export function partitionOf(logType: string, eventTime: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2})/.exec(eventTime);
  const [, year, month, day, hour] = m ?? ['', '1970', '01', '01', '00'];
  return `${LOGS_DATABASE}/${tableName(logType)}/year=${year}/month=${month}/day=${day}/hour=${hour}`;
}

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
