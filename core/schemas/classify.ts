// Classification: among the candidate schemas of a stream, the first whose parser reads a line wins; the
// last winner is tried first, since consecutive lines of a stream are usually of one log type. A line is
// JSON-parsed once for all the JSON schemas, so a line that matches none costs one parse, not one per schema.
import { compileSchema, DEFAULT_MAX_LINE_LENGTH, lineProblem, type ParseResult, type Parser } from './compile';
import type { NormalizedEvent, ParseContext } from './normalize';
import { readJsonObject } from './parsers/json';
import type { SchemaSpec } from './types';

export type ClassifyResult =
  | { ok: true; logType: string; events: NormalizedEvent[] }
  | { ok: false; error: string; attempts: { logType: string; error: string }[] };

export interface Classifier {
  classify(line: string, ctx?: ParseContext): ClassifyResult;
}

export interface ClassifierOptions {
  /** Longer lines are refused before any schema is tried (default: the parsers' default, 1 MiB of text). */
  maxLineLength?: number;
}

/** A classifier over compiled parsers or schema specs (compiled here; an invalid spec throws SchemaCompileError). */
export function classifier(candidates: (Parser | SchemaSpec)[], options: ClassifierOptions = {}): Classifier {
  const maxLineLength = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
  const parsers = candidates.map((c) => ('parse' in c ? c : compileSchema(c, { maxLineLength })));
  let last: Parser | undefined;
  return {
    classify(line, ctx) {
      if (parsers.length === 0) return { ok: false, error: 'no schemas to classify with', attempts: [] };
      const problem = lineProblem(line, maxLineLength);
      if (problem) return { ok: false, error: problem, attempts: [] };
      const attempts: { logType: string; error: string }[] = [];
      let json: Record<string, unknown> | string | undefined;
      const attempt = (p: Parser): ParseResult => {
        if (!p.readsJson) return p.parse(line, ctx);
        json ??= readJsonObject(line);
        return typeof json === 'string' ? { ok: false, error: json } : p.parseRecord(json, ctx);
      };
      if (last) {
        const r = attempt(last);
        if (r.ok) return { ok: true, logType: last.logType, events: r.events };
        attempts.push({ logType: last.logType, error: r.error });
      }
      for (const p of parsers) {
        if (p === last) continue;
        const r = attempt(p);
        if (r.ok) {
          last = p;
          return { ok: true, logType: p.logType, events: r.events };
        }
        attempts.push({ logType: p.logType, error: r.error });
      }
      const first = attempts[0];
      const error =
        attempts.length === 1
          ? first.error
          : `no schema matched the line (${attempts.length} tried; ${first.logType}: ${first.error})`;
      return { ok: false, error, attempts };
    },
  };
}
