// Lines the source's other schemas do not read, tried with its Python script schemas (`def parse(log):`, run
// by the detection engine in batches, see functions/lib/schemas). Each event a script returns is decoded and
// normalized by the schema's fields; a line is taken by the first script whose events all decode, and keeps
// every refusal as an attempt otherwise.
import type { NormalizedEvent, ParseContext, Parser } from '../../../core/schemas/index';
import { ScriptParserError, type ScriptParseResult } from '../schemas';

export interface ScriptSchema {
  readonly logType: string;
  /** The Python source of `def parse(log):`. */
  readonly script: string;
  /** The schema's fields, compiled without its parser: decodes the script's events. */
  readonly fields: Parser;
}

/** Runs a script over lines, one result per line, in order. */
export type ScriptRunner = (script: string, lines: readonly string[]) => Promise<ScriptParseResult[]>;

export interface ScriptLine {
  readonly lineNumber: number;
  readonly index: number;
  readonly text: string;
  /** What the other schemas said. */
  readonly attempts: { logType: string; error: string }[];
}

export type ScriptOutcome =
  | { readonly ok: true; readonly line: ScriptLine; readonly logType: string; readonly events: NormalizedEvent[] }
  | { readonly ok: false; readonly line: ScriptLine };

/** Events a script returns for one record get indexes after the record's own (CloudWatch Logs events). */
const EVENTS_PER_RECORD = 65_536;

export async function parseWithScripts(
  lines: readonly ScriptLine[],
  scripts: readonly ScriptSchema[],
  run: ScriptRunner,
  context: Omit<ParseContext, 'lineNumber' | 'eventIndex'>,
): Promise<ScriptOutcome[]> {
  const outcomes = new Map<ScriptLine, ScriptOutcome>();
  let remaining = [...lines];
  for (const schema of scripts) {
    if (!remaining.length) break;
    let results: ScriptParseResult[];
    try {
      results = await run(
        schema.script,
        remaining.map((l) => l.text),
      );
    } catch (err) {
      if (!(err instanceof ScriptParserError)) throw err;
      for (const line of remaining) line.attempts.push({ logType: schema.logType, error: `script parser: ${err.message}` });
      continue;
    }
    const next: ScriptLine[] = [];
    remaining.forEach((line, i) => {
      const result = results[i];
      if ('error' in result) {
        line.attempts.push({ logType: schema.logType, error: result.error });
        next.push(line);
        return;
      }
      const events: NormalizedEvent[] = [];
      for (const [j, raw] of result.events.entries()) {
        const decoded = schema.fields.parseRecord(raw, {
          ...context,
          lineNumber: line.lineNumber,
          eventIndex: line.index * EVENTS_PER_RECORD + j,
        });
        if (!decoded.ok) {
          line.attempts.push({ logType: schema.logType, error: `event ${j + 1} the script returned: ${decoded.error}` });
          next.push(line);
          return;
        }
        events.push(...decoded.events);
      }
      outcomes.set(line, { ok: true, line, logType: schema.logType, events });
    });
    remaining = next;
  }
  return lines.map((line) => outcomes.get(line) ?? { ok: false, line });
}
