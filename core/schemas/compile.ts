// compileSchema: a validated schema turned into a Parser that reads one log line into normalized events.
import { eventDecoder, FAIL, type DecodeState } from './decode';
import { IndicatorSet } from './indicators';
import { SchemaInferrer } from './infer';
import { normalize, parseTimeOf, udmReader, type NormalizedEvent, type ParseContext } from './normalize';
import { lineParser } from './parsers/index';
import { isShallowJson } from './parsers/json';
import type { FieldSpec, SchemaSpec } from './types';
import { validateSchema, type SchemaProblem } from './validate';

export type ParseResult = { ok: true; events: NormalizedEvent[] } | { ok: false; error: string };

export interface ParserOptions {
  /** Longer lines are refused (default 1 MiB of text). */
  maxLineLength?: number;
}

export interface Parser {
  readonly logType: string;
  readonly spec: SchemaSpec;
  parse(line: string, ctx?: ParseContext): ParseResult;
  /** True for JSON schemas: their lines are JSON objects, so `parseRecord` can take one already parsed. */
  readonly readsJson: boolean;
  /** Decodes and normalizes a record that is already read (a parsed JSON object, an element of a JSON array). */
  parseRecord(record: Record<string, unknown>, ctx?: ParseContext): ParseResult;
  /** Fields found in the data but not in the schema, as a spec (only with isFieldDiscoveryEnabled). */
  discoveredFields(): FieldSpec[];
}

export const DEFAULT_MAX_LINE_LENGTH = 1024 * 1024;

export class SchemaCompileError extends Error {
  constructor(
    readonly schema: string,
    readonly problems: SchemaProblem[],
  ) {
    super(`schema ${schema || '(unnamed)'} is invalid: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
  }
}

const EMPTY_CONTEXT: ParseContext = {};
/** Any character trim() would keep (\s is the same set of blanks). */
const NOT_BLANK = /\S/;

/** Why a line cannot be parsed by any schema (not text, too long, empty), or null. */
export function lineProblem(line: unknown, maxLineLength = DEFAULT_MAX_LINE_LENGTH): string | null {
  if (typeof line !== 'string') return 'line is not text';
  if (line.length > maxLineLength) return `line is ${line.length} characters long, more than the limit of ${maxLineLength}`;
  // A search for the first non-blank character (trim() would copy every line); a printable ASCII first
  // character (the usual case: '{' or a letter) settles it without the search.
  const first = line.charCodeAt(0);
  if (!(first > 32 && first < 127) && !NOT_BLANK.test(line)) return 'empty line';
  return null;
}

export function compileSchema(spec: SchemaSpec, options: ParserOptions = {}): Parser {
  const problems = validateSchema(spec).filter((p) => p.level === 'error');
  if (problems.length > 0) throw new SchemaCompileError(spec.schema, problems);
  if (spec.parser?.script) {
    throw new SchemaCompileError(spec.schema, [
      { level: 'error', path: 'parser.script', message: 'The script parser runs in the ingestion pipeline, not in this library' },
    ]);
  }
  const logType = spec.schema;
  const maxLineLength = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
  const discovery = spec.isFieldDiscoveryEnabled === true;
  const reader = lineParser(
    spec.parser,
    (spec.fields ?? []).map((f) => f.rename?.from ?? f.name),
  );
  const decode = eventDecoder(spec.fields ?? [], discovery);
  const inferrer = discovery ? new SchemaInferrer() : null;
  const udm = udmReader(spec.udm);

  // One decode state for the parser, reset for each record (parsing is synchronous: a record is done, its
  // indicator arrays written onto its event, before the next starts).
  const st: DecodeState = {
    indicators: new IndicatorSet(),
    eventTime: null,
    eventTimeText: '',
    reference: { s: 0, ns: 0 },
    discovered: null,
    error: '',
    shallow: false,
    jsonRecord: false,
  };

  const parseRecord = (record: Record<string, unknown>, ctx: ParseContext): ParseResult => {
    const parseTime = parseTimeOf(ctx);
    st.indicators.clear();
    st.eventTime = null;
    st.eventTimeText = '';
    st.reference = parseTime.instant;
    st.discovered = inferrer ? [] : null;
    st.error = '';
    st.shallow = st.jsonRecord = isShallowJson(record);
    let event: Record<string, unknown> | typeof FAIL;
    try {
      event = decode(record, st);
    } catch (err) {
      if (err instanceof RangeError) return { ok: false, error: `event is too large or too deeply nested: ${err.message}` };
      throw err;
    }
    if (event === FAIL) return { ok: false, error: st.error };
    if (inferrer && st.discovered) for (const d of st.discovered) inferrer.addAt(d.path, d.value);
    const eventTime = st.eventTime ? st.eventTimeText : parseTime.text;
    return { ok: true, events: [normalize(event, logType, eventTime, parseTime.text, st.indicators, ctx, udm)] };
  };

  // The stream key of the last line's object (a batch's lines share it): made again only when it changes.
  let streamSource: string | undefined;
  let streamObject: string | undefined;
  let streamKey = '\u0000';

  return {
    logType,
    spec,
    readsJson: !spec.parser || !(spec.parser.csv || spec.parser.fastmatch || spec.parser.regex),
    parse(line: string, ctx: ParseContext = EMPTY_CONTEXT): ParseResult {
      const problem = lineProblem(line, maxLineLength);
      if (problem) return { ok: false, error: problem };
      if (ctx.sourceId !== streamSource || ctx.objectKey !== streamObject) {
        streamSource = ctx.sourceId;
        streamObject = ctx.objectKey;
        streamKey = `${streamSource ?? ''}\u0000${streamObject ?? ''}`;
      }
      const record = reader.parse(line, { streamKey, lineNumber: ctx.lineNumber });
      if (record === null) return { ok: true, events: [] };
      if (typeof record === 'string') return { ok: false, error: record };
      return parseRecord(record, ctx);
    },
    parseRecord(record: Record<string, unknown>, ctx: ParseContext = EMPTY_CONTEXT): ParseResult {
      if (record === null || typeof record !== 'object' || Array.isArray(record))
        return { ok: false, error: 'expected an object' };
      return parseRecord(record, ctx);
    },
    discoveredFields(): FieldSpec[] {
      if (!inferrer) return [];
      return inferrer.fields().map(function mark(f): FieldSpec {
        return { ...f, isDiscovered: true, ...(f.fields ? { fields: f.fields.map(mark) } : {}) };
      });
    },
  };
}
