// Splits an object's bytes into log records by the source's stream type:
//   Lines           one record per line
//   JSON            a stream of JSON documents (one per line, concatenated or pretty-printed)
//   JsonArray       the elements of a root array, or of the array in one root field (the envelope)
//   CloudWatchLogs  CloudWatch Logs subscription messages: each logEvents[].message of a DATA_MESSAGE
//   Auto            a JSON array, CloudWatch Logs, JSON documents spread over lines (pretty-printed) or lines,
//                   judged from the start of the object
// A record's position (line number, index within it) makes its p_row_id, so it must not depend on chunking.
import { DEFAULT_MAX_LINE_BYTES, LineDecoder, type DecodedLine } from '../schemas/lines';
import type { StreamType } from '../log-sources/types';
import { JsonScanner, type ScanTarget, type ScannedValue } from './json-scanner';

export type LogRecord =
  | { readonly lineNumber: number; readonly index: number; readonly text: string }
  | { readonly lineNumber: number; readonly index: number; readonly error: string };

export interface StreamFormat {
  readonly streamType: StreamType;
  /** JsonArray: the root-level field holding the array; absent when the array is the document. */
  readonly envelopeField?: string;
}

/** How much of the start of an object Auto looks at. */
const SNIFF_BYTES = 4096;
const CLOUDWATCH_START = /^\s*\{\s*"(messageType|owner|logGroup|logStream|subscriptionFilters|logEvents)"\s*:/;

/** The stream type Auto takes for an object starting with `head`. */
export function detectStreamType(head: string): Exclude<StreamType, 'Auto'> {
  const text = head.replace(/^\ufeff/, '');
  if (/^\s*\[/.test(text)) return 'JsonArray';
  if (CLOUDWATCH_START.test(text) && text.includes('"logEvents"')) return 'CloudWatchLogs';
  // A document whose first line is not a whole JSON value is pretty-printed JSON, not one object per line.
  const newline = text.indexOf('\n');
  if (/^\s*\{/.test(text) && newline >= 0 && !isJson(text.slice(0, newline))) return 'JSON';
  return 'Lines';
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
    type = detectStreamType(new TextDecoder().decode(Buffer.concat(buffered).subarray(0, SNIFF_BYTES)));
  }
  const all = (async function* () {
    yield* buffered;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  })();
  if (type === 'Lines') yield* lines(all, maxRecordBytes);
  else if (type === 'CloudWatchLogs') yield* cloudWatchMessages(all, maxRecordBytes);
  else {
    const target: ScanTarget =
      type === 'JSON'
        ? { kind: 'values' }
        : format.envelopeField
          ? { kind: 'envelope', field: format.envelopeField }
          : { kind: 'array' };
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
        message = JSON.parse(value.text) as CloudWatchMessage;
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
