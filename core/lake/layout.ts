// The data lake's layout, shared by everything that writes or reads it (the lake door, functions/lib/lake, through
// which the log processor, detections and scheduled runs write; alert events, the catalog on AWS, the query engines):
//   <database>/<table>/year=YYYY/month=MM/day=DD/hour=HH/<name>.json.gz
// Databases: panther_logs (normalized events), panther_signals (every detection match) and
// panther_rule_errors (detection errors); detection content of the field expects these names
// (`panther_logs.public.<table>`). <table> is the log type lowercased with dots as underscores, and the hour is
// the event's p_event_time hour (UTC).

import { hash128 } from '../schemas/rowid';

export const LOGS_DATABASE = 'panther_logs';
export const SIGNALS_DATABASE = 'panther_signals';
export const RULE_ERRORS_DATABASE = 'panther_rule_errors';

export type LakeDatabase = typeof LOGS_DATABASE | typeof SIGNALS_DATABASE | typeof RULE_ERRORS_DATABASE;
export type SignalsDatabase = typeof SIGNALS_DATABASE | typeof RULE_ERRORS_DATABASE;

/** `AWS.CloudTrail` → `aws_cloudtrail`. */
export const tableName = (logType: string) => logType.toLowerCase().replace(/\./g, '_');

const TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2})/;

/** The partition folder of an event time (lake text `YYYY-MM-DD HH:MM:SS.nnnnnnnnn` or ISO 8601). */
export function partitionPath(database: LakeDatabase, table: string, eventTime: string): string {
  const [, year, month, day, hour] = TIME.exec(eventTime) ?? ['', '1970', '01', '01', '00'];
  return `${database}/${table}/year=${year}/month=${month}/day=${day}/hour=${hour}`;
}

/** Every hour partition from `from` to `to` (ISO 8601), oldest first; at most `max` of them. */
export function partitionsBetween(database: LakeDatabase, table: string, from: string, to: string, max = 24 * 31): string[] {
  const start = Math.floor(Date.parse(from) / 3_600_000);
  const end = Math.floor(Date.parse(to) / 3_600_000);
  const out: string[] = [];
  for (let h = start; h <= end && out.length < max; h++)
    out.push(partitionPath(database, table, new Date(h * 3_600_000).toISOString()));
  return out;
}

/** A Date in the lake's timestamp text (`YYYY-MM-DD HH:MM:SS.nnnnnnnnn`, UTC), as p_event_time is written. */
export const lakeTime = (date: Date) => `${date.toISOString().slice(0, 23).replace('T', ' ')}000000`;

/** A lake timestamp text (or ISO 8601) as ISO 8601; undefined when it is not a time. */
export function isoTime(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?/.exec(value);
  if (!m) return undefined;
  const millis = (m[3] ?? '.000').slice(0, 4).padEnd(4, '0');
  return `${m[1]}T${m[2]}${millis}Z`;
}

/** The database holding an alert type's events: detection errors apart from signals. */
export const signalsDatabaseFor = (alertType: string): SignalsDatabase =>
  alertType === 'DETECTION_ERROR' ? RULE_ERRORS_DATABASE : SIGNALS_DATABASE;

// ------------------------------------------------------------------------------------------------ file names
// Deterministic, so writing the same rows again overwrites what was written before.

/** The object an input object came from: what makes the lake objects written for it deterministic. */
export interface InputObject {
  readonly sourceId: string;
  readonly bucket: string;
  readonly key: string;
  /** The S3 ETag (or any content version): a changed object writes new files, a reprocessed one overwrites. */
  readonly etag: string;
}

/** The name of the `part`th file of a log type's events from one input object, within one partition (panther_logs). */
export function lakeObjectName(input: InputObject, logType: string, part: number): string {
  const id = hash128(`${input.sourceId}\u0000${input.bucket}\u0000${input.key}\u0000${input.etag}\u0000${logType}`);
  return `${id}-${String(part).padStart(4, '0')}.json.gz`;
}

/** The name of the signals (or rule errors) file of an events object's matches: the events file's own name. */
export function signalsObjectName(eventsKey: string): string {
  const name = eventsKey.slice(eventsKey.lastIndexOf('/') + 1) || 'events.json.gz';
  return name.endsWith('.gz') ? name : `${name}.json.gz`;
}

/** The name of the signals (or rule errors) file of one run of a scheduled query. */
export const scheduledSignalsObjectName = (queryName: string, runAt: number) =>
  `scheduled-${tableName(queryName.replace(/[^A-Za-z0-9.]+/g, '_'))}-${runAt}.json.gz`;
