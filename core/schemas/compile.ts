// compileSchema: a validated schema turned into a Parser that reads one log line into normalized events.
import { DecodeFailure, eventDecoder, type DecodeState } from './decode';
import { IndicatorSet } from './indicators';
import { SchemaInferrer } from './infer';
import { normalize, parseTimeOf, udmReader, type NormalizedEvent, type ParseContext } from './normalize';
import { lineParser } from './parsers/index';
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
  const reader = lineParser(spec.parser, (spec.fields ?? []).map((f) => f.rename?.from ?? f.name));
  const decode = eventDecoder(spec.fields ?? [], discovery);
  const inferrer = discovery ? new SchemaInferrer() : null;
  const udm = udmReader(spec.udm);

  return {
    logType,
    spec,
    parse(line: string, ctx: ParseContext = EMPTY_CONTEXT): ParseResult {
      if (typeof line !== 'string') return { ok: false, error: 'line is not text' };
      if (line.length > maxLineLength) {
        return { ok: false, error: `line is ${line.length} characters long, more than the limit of ${maxLineLength}` };
      }
      if (line.length === 0 || line.trim().length === 0) return { ok: false, error: 'empty line' };
      const record = reader.parse(line, { streamKey: `${ctx.sourceId ?? ''}\u0000${ctx.objectKey ?? ''}`, lineNumber: ctx.lineNumber });
      if (record === null) return { ok: true, events: [] };
      if (typeof record === 'string') return { ok: false, error: record };
      const parseTime = parseTimeOf(ctx);
      const st: DecodeState = {
        indicators: new IndicatorSet(),
        eventTime: null,
        eventTimeText: '',
        reference: parseTime.instant,
        discovered: inferrer ? [] : null,
      };
      let event: Record<string, unknown>;
      try {
        event = decode(record, st);
      } catch (err) {
        if (err instanceof DecodeFailure) return { ok: false, error: err.message };
        if (err instanceof RangeError) return { ok: false, error: `event is too large or too deeply nested: ${err.message}` };
        throw err;
      }
      if (inferrer && st.discovered) for (const d of st.discovered) inferrer.addAt(d.path, d.value);
      return { ok: true, events: [normalize(event, logType, st.eventTime ? st.eventTimeText : parseTime.text, parseTime.text, st.indicators, ctx, 0, udm)] };
    },
    discoveredFields(): FieldSpec[] {
      if (!inferrer) return [];
      return inferrer.fields().map(function mark(f): FieldSpec {
        return { ...f, isDiscovered: true, ...(f.fields ? { fields: f.fields.map(mark) } : {}) };
      });
    },
  };
}
