// One object through the pipeline's pure part: bytes → records (by stream type) → classified and normalized
// events → gzip NDJSON files in the lake. Lines no schema reads are counted, and the first of them kept with
// their reasons; they never stop the rest of the object.
import { classifier, type Parser } from '../../../core/schemas/index';
import { CorruptObjectError, decompressed } from './decompress';
import { LOGS_DATABASE, lakeObjectName, type InputObject } from '../../../core/lake/layout';
import { LakeWriter, type LakeSink, type LakeWriterOptions, type WrittenObject } from '../lake';
import { logRecords, type StreamFormat } from '../../../core/pipeline/log-records';
import { parseWithScripts, type ScriptLine, type ScriptRunner, type ScriptSchema } from './script-schemas';

/** A line no schema of the source reads. */
export interface ClassificationFailure {
  readonly lineNumber: number;
  readonly index: number;
  /** The start of the raw line (see RAW_LINE_LIMIT). */
  readonly line: string;
  readonly error: string;
  /** Each schema tried, with why it refused the line. */
  readonly attempts: readonly { readonly logType: string; readonly error: string }[];
}

/** Characters of a failed line kept for the user to read. */
export const RAW_LINE_LIMIT = 1000;
/** Failures kept (with their lines) per object; all are counted. */
export const KEPT_FAILURES = 50;
/** Lines held for the script schemas before a batch goes to the detection engine. */
const SCRIPT_BATCH_LINES = 1000;

export interface ProcessObjectInput {
  readonly input: InputObject;
  readonly sourceLabel: string;
  readonly format: StreamFormat;
  /** The compiled schemas of the source's log types. */
  readonly parsers: readonly Parser[];
  /** Custom schemas with a Python script parser, tried on the lines no parser reads. */
  readonly scripts?: readonly ScriptSchema[];
  /** Runs the script parsers (the detection engine); required with `scripts`. */
  readonly runScript?: ScriptRunner;
  readonly body: AsyncIterable<Uint8Array>;
  /** p_parse_time of every event of the object. */
  readonly parseTime: Date;
  /** Adds `p_enrichment` from lookup tables to an event before it is written (../lookups). */
  readonly enrich?: (logType: string, event: Record<string, unknown>) => void;
}

export interface ProcessObjectResult {
  readonly written: WrittenObject[];
  readonly events: number;
  /** Bytes read (after gzip). */
  readonly bytes: number;
  readonly classificationFailures: number;
  readonly failures: ClassificationFailure[];
  /** Set when the object could not be read to its end (corrupt gzip): the events before it are kept. */
  readonly corrupt: string | null;
}

async function* counted(body: AsyncIterable<Uint8Array>, count: { bytes: number }): AsyncGenerator<Uint8Array> {
  for await (const chunk of body) {
    count.bytes += chunk.length;
    yield chunk;
  }
}

export async function processObject(
  request: ProcessObjectInput,
  sink: LakeSink,
  options: LakeWriterOptions = {},
): Promise<ProcessObjectResult> {
  const { input, parsers, parseTime } = request;
  const scripts = request.scripts ?? [];
  const classify = classifier([...parsers]);
  const context = { sourceId: input.sourceId, sourceLabel: request.sourceLabel, objectKey: input.key, parseTime };
  const lake = new LakeWriter(
    { database: LOGS_DATABASE, name: (logType, part) => lakeObjectName(input, logType, part) },
    sink,
    options,
  );
  const enrich = request.enrich;
  const writer = enrich
    ? {
        add: (logType: string, event: Record<string, unknown>) => {
          enrich(logType, event);
          lake.add(logType, event);
        },
        drain: () => lake.drain(),
        finish: () => lake.finish(),
      }
    : lake;
  const count = { bytes: 0 };
  const failures: ClassificationFailure[] = [];
  let failed = 0;
  let events = 0;
  let corrupt: string | null = null;
  const fail = (failure: ClassificationFailure) => {
    failed++;
    if (failures.length < KEPT_FAILURES) failures.push(failure);
  };
  let forScripts: ScriptLine[] = [];
  const runScripts = async () => {
    if (!forScripts.length) return;
    const lines = forScripts;
    forScripts = [];
    for (const outcome of await parseWithScripts(lines, scripts, request.runScript!, context)) {
      const { line } = outcome;
      if (outcome.ok) {
        for (const event of outcome.events) writer.add(outcome.logType, event);
        events += outcome.events.length;
        continue;
      }
      const first = line.attempts[0];
      fail({
        lineNumber: line.lineNumber,
        index: line.index,
        line: line.text.slice(0, RAW_LINE_LIMIT),
        error:
          line.attempts.length === 1
            ? first.error
            : `no schema matched the line (${line.attempts.length} tried; ${first.logType}: ${first.error})`,
        attempts: line.attempts,
      });
    }
  };
  try {
    for await (const records of logRecords(counted(decompressed(request.body), count), request.format)) {
      for (const record of records) {
        if ('error' in record) {
          fail({ lineNumber: record.lineNumber, index: record.index, line: '', error: record.error, attempts: [] });
          continue;
        }
        if (!parsers.length && scripts.length) {
          forScripts.push({ ...record, attempts: [] });
          continue;
        }
        const result = classify.classify(record.text, { ...context, lineNumber: record.lineNumber, eventIndex: record.index });
        if (!result.ok && scripts.length) {
          forScripts.push({ ...record, attempts: [...result.attempts] });
          continue;
        }
        if (!result.ok) {
          fail({
            lineNumber: record.lineNumber,
            index: record.index,
            line: record.text.slice(0, RAW_LINE_LIMIT),
            error: result.error,
            attempts: result.attempts,
          });
          continue;
        }
        for (const event of result.events) writer.add(result.logType, event);
        events += result.events.length;
      }
      if (forScripts.length >= SCRIPT_BATCH_LINES) await runScripts();
      await writer.drain();
    }
  } catch (err) {
    if (!(err instanceof CorruptObjectError)) throw err;
    corrupt = err.message;
  }
  await runScripts();
  const written = await writer.finish();
  return { written, events, bytes: count.bytes, classificationFailures: failed, failures, corrupt };
}
