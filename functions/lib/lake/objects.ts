// Rows out of the lake's files, read directly (no query): one events object's lines (what the log processor
// announced to detection), and a log type's events over a span of hours (a detection tested against data).
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { LOGS_DATABASE, partitionsBetween, tableName } from '../../../core/lake/layout';
import { s3 } from '../clients';
import { lakeBucketName } from './bucket';

const gunzipAsync = promisify(gunzip);

type Row = Record<string, unknown>;

/** An object's text, gunzipped when it is gzip. */
async function objectText(bucket: string, key: string): Promise<string> {
  const out = await s3().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  const raw = Buffer.from(await out.Body!.transformToByteArray());
  return (raw[0] === 0x1f && raw[1] === 0x8b ? await gunzipAsync(raw) : raw).toString('utf8');
}

/** Where a line's JSON value starts: after the whitespace JSON allows before it. */
function valueStart(line: string): number {
  let i = 0;
  for (let c = line.charCodeAt(0); c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a; c = line.charCodeAt(++i));
  return i;
}

/**
 * An events object's events as their lines' JSON text, unparsed (a reader parses only the events it needs). A line
 * holds one event when it is a JSON object (it starts with `{`; whoever parses it refuses one that is not JSON);
 * blank lines and JSON values of other kinds are passed over, and any other line fails the object. An object that
 * is gone fails with S3's NoSuchKey.
 */
export async function objectEventLines(bucket: string, key: string): Promise<string[]> {
  const text = await objectText(bucket, key);
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    if (line.charCodeAt(valueStart(line)) === 0x7b /* { */) lines.push(line);
    else if (line.trim()) JSON.parse(line);
  }
  return lines;
}

/**
 * The events of one log type's hour partitions (panther_logs) from `from` to `to`, oldest partition first; events
 * of the first hour before `from` are left out, as are lines that are not JSON.
 */
export async function* logTypeEvents(logType: string, from: Date, to: Date): AsyncGenerator<Row> {
  const bucket = lakeBucketName();
  const partitions = partitionsBetween(LOGS_DATABASE, tableName(logType), from.toISOString(), to.toISOString());
  const since = from.getTime();
  for (const prefix of partitions) {
    let ContinuationToken: string | undefined;
    do {
      const page = await s3().send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}/`, ContinuationToken }));
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        const text = await objectText(bucket, object.Key);
        for (const line of text.split('\n')) {
          if (!line.trim()) continue;
          let row: Row;
          try {
            row = JSON.parse(line) as Row;
          } catch {
            continue;
          }
          const at = Date.parse(
            String(row.p_event_time ?? '')
              .replace(' ', 'T')
              .slice(0, 23) + 'Z',
          );
          if (Number.isFinite(at) && at < since) continue;
          yield row;
        }
      }
      ContinuationToken = page.NextContinuationToken;
    } while (ContinuationToken);
  }
}
