// Classification: among the candidate schemas of a stream, the first whose parser reads a line wins; the
// last winner is tried first, since consecutive lines of a stream are usually of one log type.
import type { ParseResult, Parser } from './compile';
import type { NormalizedEvent, ParseContext } from './normalize';

export type ClassifyResult =
  | { ok: true; logType: string; events: NormalizedEvent[] }
  | { ok: false; error: string; attempts: { logType: string; error: string }[] };

export interface Classifier {
  classify(line: string, ctx?: ParseContext): ClassifyResult;
}

export function classifier(parsers: Parser[]): Classifier {
  let last: Parser | undefined;
  return {
    classify(line, ctx) {
      if (parsers.length === 0) return { ok: false, error: 'no schemas to classify with', attempts: [] };
      const attempts: { logType: string; error: string }[] = [];
      const attempt = (p: Parser): ParseResult => p.parse(line, ctx);
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
