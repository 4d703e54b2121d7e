// Splits an object's bytes into log records by the source's stream type:
//   Lines           one record per line
//   JSON            a stream of JSON documents (one per line, concatenated or pretty-printed)
//   JsonArray       the elements of a root array, or of the array in one root field (the envelope)
//   CloudWatchLogs  CloudWatch Logs subscription messages: each logEvents[].message of a DATA_MESSAGE
//   Auto            a JSON array, CloudTrail's Records envelope, CloudWatch Logs, JSON documents spread over
//                   lines (pretty-printed) or lines, judged from the first lines of the object (detectStreamFormat);
//                   then the envelopes of AWS services (EventBridge, CloudTrail, CloudWatch Logs) are opened
//                   record by record (unwrapEnvelope)
// A record's position (line number, index within it) makes its p_row_id, so it must not depend on chunking.
import { DEFAULT_MAX_LINE_BYTES, LineDecoder, type DecodedLine } from '../schemas/lines';
import type { StreamType } from '../log-sources/types';
import { JsonScanner, type ScanTarget, type ScannedValue } from './json-scanner';
import { quoteUnsafeIntegers } from '../schemas/parsers/json';

export type LogRecord =
  | { readonly lineNumber: number; readonly index: number; readonly text: string }
  | { readonly lineNumber: number; readonly index: number; readonly error: string };

export interface StreamFormat {
  readonly streamType: StreamType;
  /** JsonArray: the root-level field holding the array; absent when the array is the document. */
  readonly envelopeField?: string;
}

/** How much of the start of an object Auto looks at: enough for several lines of long JSON logs. */
const SNIFF_BYTES = 64 * 1024;
/** Lines after the first that Auto judges. */
const SNIFF_LINES = 50;
const CLOUDWATCH_START = /^\s*\{\s*"(messageType|owner|logGroup|logStream|subscriptionFilters|logEvents)"\s*:/;
/** CloudTrail (and CloudTrail Insights) objects: `{"Records":[ ...events ]}`, one document per object. */
const RECORDS_START = /^\s*\{\s*"Records"\s*:\s*\[/;

/**
 * The stream format Auto takes for an object starting with `head`. Envelopes AWS services write are told by
 * their start: a root array, CloudTrail's `{"Records":[`, CloudWatch Logs subscription messages. Otherwise
 * the complete lines of the head decide between one JSON value per line and pretty-printed JSON: a document
 * whose first line is not a whole JSON value is pretty-printed only when no later line is a whole JSON
 * object either (the lines of a pretty-printed object are indented members and closing braces), so one
 * malformed first line does not turn the whole object into one broken document.
 */
export function detectStreamFormat(head: string): StreamFormat & { streamType: Exclude<StreamType, 'Auto'> } {
  const text = head.replace(/^\ufeff/, '');
  if (/^\s*\[/.test(text)) return { streamType: 'JsonArray' };
  if (RECORDS_START.test(text)) return { streamType: 'JsonArray', envelopeField: 'Records' };
  if (CLOUDWATCH_START.test(text) && text.includes('"logEvents"')) return { streamType: 'CloudWatchLogs' };
  const newline = text.indexOf('\n');
  if (!/^\s*\{/.test(text) || newline < 0 || isJson(text.slice(0, newline))) return { streamType: 'Lines' };
  // Complete lines after the first (the last line of the head may be cut short).
  const later = text
    .slice(newline + 1)
    .split('\n')
    .slice(0, -1)
    .slice(0, SNIFF_LINES);
  const objectLines = later.filter((line) => /^\{/.test(line) && isJson(line)).length;
  return { streamType: objectLines > 0 ? 'Lines' : 'JSON' };
}

/** The stream type Auto takes for an object starting with `head`. */
export function detectStreamType(head: string): Exclude<StreamType, 'Auto'> {
  return detectStreamFormat(head).streamType;
}

const isBlank = (text: string) => text.trim().length === 0;

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Log records of an object, in batches (one per chunk read). Blank lines are not records. */
export async function* logRecords(
  chunks: AsyncIterable<Uint8Array>,
  format: StreamFormat,
  maxRecordBytes = DEFAULT_MAX_LINE_BYTES,
): AsyncGenerator<LogRecord[]> {
  let type = format.streamType;
  let envelopeField = format.envelopeField;
  const auto = type === 'Auto';
  const iterator = chunks[Symbol.asyncIterator]();
  const buffered: Uint8Array[] = [];
  if (type === 'Auto') {
    let size = 0;
    while (size < SNIFF_BYTES) {
      const next = await iterator.next();
      if (next.done) break;
      buffered.push(next.value);
      size += next.value.length;
    }
    ({ streamType: type, envelopeField } = detectStreamFormat(
      new TextDecoder().decode(Buffer.concat(buffered).subarray(0, SNIFF_BYTES)),
    ));
  }
  const all = (async function* () {
    yield* buffered;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  })();
  if (type === 'CloudWatchLogs') yield* cloudWatchMessages(all, maxRecordBytes);
  else {
    const split = recordsOf(type as 'Lines' | 'JSON' | 'JsonArray', all, envelopeField, maxRecordBytes);
    if (!auto) yield* split;
    else if (type !== 'JSON') for await (const batch of split) yield batch.flatMap(unwrapEnvelope);
    else for await (const batch of split) yield batch.flatMap(linesOfBroken).flatMap(unwrapEnvelope);
  }
}

/** Lines, JSON or JsonArray records of a stream. */
async function* recordsOf(
  type: 'Lines' | 'JSON' | 'JsonArray',
  all: AsyncIterable<Uint8Array>,
  envelopeField: string | undefined,
  maxRecordBytes: number,
): AsyncGenerator<LogRecord[]> {
  if (type === 'Lines') yield* lines(all, maxRecordBytes);
  else {
    const target: ScanTarget =
      type === 'JSON' ? { kind: 'values' } : envelopeField ? { kind: 'envelope', field: envelopeField } : { kind: 'array' };
    let ordinal = 0;
    for await (const values of jsonValues(all, target, maxRecordBytes)) {
      yield values.map((v) => ({ lineNumber: ++ordinal, index: 0, ...v }));
    }
  }
}

async function* lines(chunks: AsyncIterable<Uint8Array>, maxBytes: number): AsyncGenerator<LogRecord[]> {
  const decoder = new LineDecoder(maxBytes);
  const records = (decoded: DecodedLine[]): LogRecord[] =>
    decoded.filter((d) => !('text' in d) || !isBlank(d.text)).map((d) => ({ ...d, index: 0 }));
  for await (const chunk of chunks) yield records(decoder.push(chunk));
  yield records(decoder.end());
}

async function* jsonValues(
  chunks: AsyncIterable<Uint8Array>,
  target: ScanTarget,
  maxLength: number,
): AsyncGenerator<ScannedValue[]> {
  const decoder = new TextDecoder('utf-8');
  const scanner = new JsonScanner(target, maxLength);
  for await (const chunk of chunks) yield scanner.push(decoder.decode(chunk, { stream: true }));
  yield [...scanner.push(decoder.decode()), ...scanner.end()];
}

interface CloudWatchMessage {
  messageType?: unknown;
  logEvents?: unknown;
}

/**
 * Auto, JSON documents: a document that does not parse and spans lines is read line by line (its records
 * indexed by line), so a document cut short (an unclosed string swallows everything after it) costs its own
 * lines, not the rest of the object.
 */
function linesOfBroken(record: LogRecord): LogRecord[] {
  if (!('text' in record) || !record.text.includes('\n') || isJson(record.text)) return [record];
  return record.text
    .split('\n')
    .map((text, index) => ({ lineNumber: record.lineNumber, index, text: text.replace(/\r$/, '') }))
    .filter((r) => !isBlank(r.text));
}

/**
 * Auto, record by record: the envelopes AWS services wrap their logs in, opened so the managed schemas read
 * the logs themselves. A record that is
 *   - an EventBridge event of an AWS service (`source` "aws.*", `detail-type`, `detail`): its `detail`
 *     (GuardDuty findings, CloudTrail "AWS API Call via CloudTrail", ...), or for Security Hub
 *     ("aws.securityhub", `detail.findings`) each finding;
 *   - a CloudTrail document (`{"Records":[...]}`, one per line when objects are concatenated): each event;
 *   - a CloudWatch Logs subscription message (DATA_MESSAGE): each log event's message; a CONTROL_MESSAGE is
 *     no record.
 * Anything else is the record as it is. Inner records keep the outer line number and are indexed in order.
 */
export function unwrapEnvelope(record: LogRecord): LogRecord[] {
  if (!('text' in record) || record.index !== 0) return [record];
  const { text, lineNumber } = record;
  const maybe =
    (text.includes('"detail-type"') && text.includes('"detail"')) ||
    RECORDS_START.test(text) ||
    (text.includes('"logEvents"') && text.includes('"messageType"'));
  if (!maybe) return [record];
  let value: unknown;
  try {
    value = parseExact(text);
  } catch {
    return [record];
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [record];
  const doc = value as Record<string, unknown>;
  const inner = (items: unknown[]): LogRecord[] =>
    items.map((item, index) =>
      item && typeof item === 'object' && !Array.isArray(item)
        ? { lineNumber, index, text: JSON.stringify(item) }
        : { lineNumber, index, error: `${typeof item} in an AWS envelope where a log object was expected` },
    );
  if (
    typeof doc.source === 'string' &&
    doc.source.startsWith('aws.') &&
    !doc.source.startsWith('aws.partner/') &&
    typeof doc['detail-type'] === 'string' &&
    doc.detail &&
    typeof doc.detail === 'object' &&
    !Array.isArray(doc.detail)
  ) {
    const detail = doc.detail as Record<string, unknown>;
    if (doc.source === 'aws.securityhub' && Array.isArray(detail.findings)) return inner(detail.findings);
    return [{ lineNumber, index: 0, text: JSON.stringify(detail) }];
  }
  if (Array.isArray(doc.Records) && RECORDS_START.test(text)) return inner(doc.Records);
  if (doc.messageType === 'CONTROL_MESSAGE' && Array.isArray(doc.logEvents)) return [];
  if (doc.messageType === 'DATA_MESSAGE' && Array.isArray(doc.logEvents)) {
    const out: LogRecord[] = [];
    doc.logEvents.forEach((event: unknown, index) => {
      const message = (event as { message?: unknown } | null)?.message;
      if (typeof message !== 'string') out.push({ lineNumber, index, error: 'CloudWatch Logs event without a message' });
      else if (!isBlank(message)) out.push({ lineNumber, index, text: message });
    });
    return out;
  }
  return [record];
}

/** A run of digits long enough that an integer in it may not fit a double (2^53 has 16 digits). */
const LONG_DIGITS = /\d{16}/;

/**
 * JSON.parse of an envelope whose integers beyond 2^53 are kept as their exact decimal text (as the JSON line
 * parser reads them), so a record re-written from the parsed envelope keeps every digit.
 */
function parseExact(text: string): unknown {
  return JSON.parse(LONG_DIGITS.test(text) ? quoteUnsafeIntegers(text) : text);
}

/** Each DATA_MESSAGE's log events become records (line = the message's ordinal, index = the event's). */
async function* cloudWatchMessages(chunks: AsyncIterable<Uint8Array>, maxLength: number): AsyncGenerator<LogRecord[]> {
  let ordinal = 0;
  for await (const values of jsonValues(chunks, { kind: 'values' }, maxLength * 16)) {
    const out: LogRecord[] = [];
    for (const value of values) {
      const lineNumber = ++ordinal;
      if ('error' in value) {
        out.push({ lineNumber, index: 0, error: value.error });
        continue;
      }
      let message: CloudWatchMessage;
      try {
        message = parseExact(value.text) as CloudWatchMessage;
      } catch (err) {
        out.push({ lineNumber, index: 0, error: `invalid CloudWatch Logs message: ${(err as Error).message}` });
        continue;
      }
      if (message?.messageType === 'CONTROL_MESSAGE') continue;
      if (message?.messageType !== 'DATA_MESSAGE' || !Array.isArray(message.logEvents)) {
        out.push({ lineNumber, index: 0, error: 'not a CloudWatch Logs subscription message (DATA_MESSAGE with logEvents)' });
        continue;
      }
      message.logEvents.forEach((event: unknown, index) => {
        const text = (event as { message?: unknown } | null)?.message;
        if (typeof text !== 'string') out.push({ lineNumber, index, error: 'CloudWatch Logs event without a message' });
        else if (!isBlank(text)) out.push({ lineNumber, index, text });
      });
    }
    yield out;
  }
}
