// The TypeScript side of the script parser: batches under both limits, deferred lines sent again, the
// function's own errors, and the tester decoding the script's dicts with the schema's fields.
import { describe, expect, it } from 'vitest';
import { batches, runScriptParser, ScriptParserError, type EngineInvoker } from '../../../functions/lib/schemas/script-parser';
import { testSchema } from '../../../functions/lib/schemas/tester';
import type { SchemaSpec } from '../../../core/schemas/index';

describe('batches', () => {
  it('splits by line count and by bytes, a long line travelling alone', () => {
    expect(batches(['a', 'b', 'c'], 2)).toEqual([['a', 'b'], ['c']]);
    expect(batches(['aaaa', 'bbbb', 'x'.repeat(50), 'c'], 10, 20)).toEqual([['aaaa', 'bbbb'], ['x'.repeat(50)], ['c']]);
    expect(batches([])).toEqual([]);
  });
});

describe('runScriptParser', () => {
  it('sends deferred lines again and keeps the order', async () => {
    const calls: string[][] = [];
    const invoke: EngineInvoker = async ({ parse }) => {
      calls.push(parse.logs);
      return { results: parse.logs.map((log, i) => (i < 2 ? { events: [{ log }] } : { deferred: true as const })) };
    };
    const results = await runScriptParser('def parse(log):\n  return {}', ['1', '2', '3', '4', '5'], invoke);
    expect(results).toEqual(['1', '2', '3', '4', '5'].map((log) => ({ events: [{ log }] })));
    expect(calls).toEqual([['1', '2', '3', '4', '5'], ['3', '4', '5'], ['5']]);
  });

  it("reports the function's own error, and refuses answers that lose lines", async () => {
    await expect(runScriptParser('x', ['a'], async () => ({ error: 'Must be a Python function' }))).rejects.toBeInstanceOf(
      ScriptParserError,
    );
    await expect(runScriptParser('x', ['a', 'b'], async () => ({ results: [{ events: [] }] }))).rejects.toThrow(
      'wrong number of results',
    );
    await expect(runScriptParser('x', ['a'], async () => ({ results: [{ deferred: true as const }] }))).rejects.toThrow(
      'deferred every line',
    );
  });
});

describe('the tester with a script schema', () => {
  it("decodes the script's dicts with the schema's fields and reports the failures by line", async () => {
    const spec = {
      schema: 'Custom.Script',
      parser: { script: { function: 'def parse(log):\n  return {}' } },
      fields: [
        { name: 'user', type: 'string', required: true },
        { name: 'n', type: 'int' },
      ],
    } as SchemaSpec;
    const invoke: EngineInvoker = async ({ parse }) => ({
      results: parse.logs.map((log) =>
        log === 'boom'
          ? { error: 'ValueError: boom' }
          : log === 'skip'
            ? { events: [] }
            : { events: [{ user: log, n: 1 }, { n: 2 }] },
      ),
    });
    const report = await testSchema(spec, 'alice\nboom\nskip\n', 'Lines', invoke);
    expect(report.events.map((e) => [e.lineNumber, e.event.user, e.event.p_log_type])).toEqual([[1, 'alice', 'Custom.Script']]);
    expect(report.failures.map((f) => f.lineNumber)).toEqual([1, 2]);
    expect(report.failures[1].message).toBe('ValueError: boom');
    expect(report.records).toBe(3);
  });
});
