import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { compileSchema, type ParseContext, type SchemaSpec } from '../../../core/schemas/index';

interface LineCase {
  input: string;
  event?: Record<string, unknown>;
  absent?: string[];
  error?: string;
  skipped?: boolean;
}
interface Case {
  name: string;
  schema: SchemaSpec;
  context?: { parseTime?: string };
  lines: LineCase[];
}

const cases = parse(readFileSync(new URL('./cases/parsing.yml', import.meta.url), 'utf8')) as Case[];

function get(event: Record<string, unknown>, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (v, k) => (v && typeof v === 'object' && Object.hasOwn(v, k) ? (v as Record<string, unknown>)[k] : undefined),
      event,
    );
}

describe('parsing and normalization', () => {
  for (const c of cases) {
    it(c.name, () => {
      const parser = compileSchema(c.schema);
      c.lines.forEach((line, i) => {
        const ctx: ParseContext = {
          sourceId: 'src',
          objectKey: 'obj',
          lineNumber: i + 1,
          parseTime: new Date(c.context?.parseTime ?? '2026-01-01T00:00:00Z'),
        };
        const result = parser.parse(line.input, ctx);
        const label = `line ${i + 1}: ${line.input}`;
        if (line.error !== undefined) {
          expect(result.ok, label).toBe(false);
          if (!result.ok) expect(result.error, label).toContain(line.error);
          return;
        }
        expect(result, label).toMatchObject({ ok: true });
        if (!result.ok) return;
        if (line.skipped) return expect(result.events, label).toEqual([]);
        expect(result.events, label).toHaveLength(1);
        const event = result.events[0];
        expect(event, label).toMatchObject(line.event ?? {});
        for (const path of line.absent ?? []) expect(get(event, path), `${label}: ${path}`).toBeUndefined();
      });
    });
  }
});
