// Golden files for the managed log types: `golden/<LogType>[--<case>].input.<ext>` holds raw lines and
// `golden/<LogType>[--<case>].expected.jsonl` the normalized events they give, one per line, with a fixed
// parse context so the output is reproducible.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileSchema, managedSchema, type Parser, type ParseContext } from '../../../core/schemas/index';

export const GOLDEN_DIR = join(dirname(fileURLToPath(import.meta.url)), 'golden');
export const PARSE_TIME = new Date('2026-01-01T00:00:00Z');

export interface GoldenCase {
  logType: string;
  base: string;
  inputFile: string;
  expectedFile: string;
}

export function goldenCases(): GoldenCase[] {
  return readdirSync(GOLDEN_DIR)
    .filter((f) => /\.input\.(log|jsonl)$/.test(f))
    .sort()
    .map((f) => {
      const base = f.replace(/\.input\.(log|jsonl)$/, '');
      return {
        logType: base.split('--')[0],
        base,
        inputFile: join(GOLDEN_DIR, f),
        expectedFile: join(GOLDEN_DIR, `${base}.expected.jsonl`),
      };
    });
}

export function inputLines(c: GoldenCase): string[] {
  const text = readFileSync(c.inputFile, 'utf8');
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

export function goldenContext(c: GoldenCase, lineNumber: number): ParseContext {
  return {
    sourceId: 'golden-source',
    sourceLabel: 'Golden Fixtures',
    objectKey: `${c.base}.input`,
    lineNumber,
    parseTime: PARSE_TIME,
  };
}

export function parserFor(logType: string): Parser {
  const spec = managedSchema(logType);
  if (!spec) throw new Error(`no managed schema ${logType}`);
  return compileSchema(spec);
}

/** The normalized events of a golden input, one JSON text per event; failures as `{"error": ...}`. */
export function runGolden(c: GoldenCase): string[] {
  const parser = parserFor(c.logType);
  const out: string[] = [];
  inputLines(c).forEach((line, i) => {
    const result = parser.parse(line, goldenContext(c, i + 1));
    if (!result.ok) out.push(JSON.stringify({ line: i + 1, error: result.error }));
    else for (const event of result.events) out.push(JSON.stringify(event));
  });
  return out;
}
