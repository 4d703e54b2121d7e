// The default parser: one JSON object per line.
import type { LineParser, RecordResult } from './common';

/** A line read as a JSON object, or why it is not one. */
export function readJsonObject(line: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return `invalid JSON: ${(err as Error).message}`;
  }
  if (value === null || typeof value !== 'object') return `expected a JSON object, got ${value === null ? 'null' : typeof value}`;
  if (Array.isArray(value)) return 'expected a JSON object, got an array';
  return value as Record<string, unknown>;
}

export const jsonParser: LineParser = {
  parse(line: string): RecordResult {
    return readJsonObject(line);
  },
};
