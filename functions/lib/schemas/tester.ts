// The schema tester: sample logs split by a stream type, parsed with a schema (the script parser through
// the detection engine), and every event or failure reported with its line number.
import type { StreamType } from '../../../core/log-sources/types';
import { compileSchema, dumpSchemaYaml, type Parser, type SchemaSpec } from '../../../core/schemas/index';
import { logRecords, type LogRecord } from '../../../core/pipeline/log-records';
import { ApiError } from '../errors';
import { runScriptParser, ScriptParserError, type EngineInvoker } from './script-parser';

/**
 * Samples are pasted or uploaded by a person: half a megabyte and a thousand records are plenty to test with,
 * and the request stays under the API's 1 MB body limit, so the limit is answered with this clear message.
 */
export const MAX_SAMPLE_BYTES = 512 * 1024;
export const MAX_SAMPLE_RECORDS = 1000;

export interface TestedEvent {
  readonly lineNumber: number;
  readonly event: Record<string, unknown>;
}

export interface TestFailure {
  readonly lineNumber: number;
  readonly message: string;
}

export interface SchemaTestReport {
  readonly events: TestedEvent[];
  readonly failures: TestFailure[];
  /** Records read from the samples. */
  readonly records: number;
  /** Fields found by field discovery (YAML), when the schema enables it and found any. */
  readonly discoveredSpec: string | null;
}

/** The records of sample text, refusing samples over the limits with a clear message. */
export async function sampleRecords(samples: string, streamType: StreamType): Promise<LogRecord[]> {
  const bytes = new TextEncoder().encode(samples);
  if (bytes.length > MAX_SAMPLE_BYTES)
    throw new ApiError(
      'InvalidInput',
      `Sample logs are limited to ${MAX_SAMPLE_BYTES / 1024} KB; these are ${Math.ceil(bytes.length / 1024)} KB. Test with fewer lines.`,
    );
  const records: LogRecord[] = [];
  for await (const batch of logRecords(
    (async function* () {
      yield bytes;
    })(),
    { streamType },
  ))
    records.push(...batch);
  if (records.length > MAX_SAMPLE_RECORDS)
    throw new ApiError(
      'InvalidInput',
      `Sample logs are limited to ${MAX_SAMPLE_RECORDS} records; these hold ${records.length}. Test with fewer lines.`,
    );
  return records;
}

/** The fields part of a script schema: what the script's dicts are decoded and normalized with. */
export function scriptFieldsParser(spec: SchemaSpec): Parser {
  const { parser: _script, ...rest } = spec;
  return compileSchema(rest as SchemaSpec);
}

export async function testSchema(
  spec: SchemaSpec,
  samples: string,
  streamType: StreamType,
  invoke?: EngineInvoker,
): Promise<SchemaTestReport> {
  const records = await sampleRecords(samples, streamType);
  const events: TestedEvent[] = [];
  const failures: TestFailure[] = [];
  const parseTime = new Date();
  const texts = records.filter((r): r is Extract<LogRecord, { text: string }> => 'text' in r);
  for (const r of records) if ('error' in r) failures.push({ lineNumber: r.lineNumber, message: r.error });
  const script = spec.parser?.script?.function;
  const parser = script !== undefined ? scriptFieldsParser(spec) : compileSchema(spec);
  if (script !== undefined) {
    let results;
    try {
      results = await runScriptParser(
        script,
        texts.map((r) => r.text),
        invoke,
      );
    } catch (err) {
      if (err instanceof ScriptParserError) throw new ApiError('InvalidLogSchema', `parser.script.function: ${err.message}`);
      throw err;
    }
    texts.forEach((record, i) => {
      const result = results[i];
      if ('error' in result) return void failures.push({ lineNumber: record.lineNumber, message: result.error });
      result.events.forEach((dict, eventIndex) => {
        const parsed = parser.parseRecord(dict, { lineNumber: record.lineNumber, eventIndex, parseTime });
        if (parsed.ok) events.push(...parsed.events.map((event) => ({ lineNumber: record.lineNumber, event })));
        else failures.push({ lineNumber: record.lineNumber, message: parsed.error });
      });
    });
  } else {
    for (const record of texts) {
      const parsed = parser.parse(record.text, { lineNumber: record.lineNumber, eventIndex: record.index, parseTime });
      if (parsed.ok) events.push(...parsed.events.map((event) => ({ lineNumber: record.lineNumber, event })));
      else failures.push({ lineNumber: record.lineNumber, message: parsed.error });
    }
  }
  failures.sort((a, b) => a.lineNumber - b.lineNumber);
  const discovered = parser.discoveredFields();
  return {
    events,
    failures,
    records: records.length,
    discoveredSpec: discovered.length ? dumpSchemaYaml({ fields: discovered } as SchemaSpec) : null,
  };
}
