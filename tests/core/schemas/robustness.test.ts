// Bad input never crashes: every line is either parsed or reported with a reason.
import { describe, expect, it } from 'vitest';
import {
  classifier,
  compileSchema,
  decodeLines,
  DEFAULT_MAX_LINE_BYTES,
  managedSchema,
  managedSchemas,
  rowId,
  SchemaInferrer,
  type SchemaSpec,
} from '../../../core/schemas/index';

const encoder = new TextEncoder();
const ctx = { parseTime: new Date('2026-01-01T00:00:00Z') };

function bytes(...parts: (string | number[])[]): Uint8Array {
  const chunks = parts.map((p) => (typeof p === 'string' ? encoder.encode(p) : Uint8Array.from(p)));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}

const jsonSpec: SchemaSpec = {
  schema: 'Custom.Robust',
  fields: [
    { name: 'id', type: 'string', required: true },
    { name: 'n', type: 'bigint' },
    { name: 'f', type: 'float' },
    { name: 'payload', type: 'json' },
  ],
};

describe('bad input', () => {
  it('invalid UTF-8 is a failure of its own line only', () => {
    const lines = decodeLines(bytes('{"id":"a"}\n{"id":"', [0xc3, 0x28], '"}\n{"id":"c"}\r\n'));
    expect(lines).toEqual([
      { lineNumber: 1, text: '{"id":"a"}' },
      { lineNumber: 2, error: 'line is not valid UTF-8' },
      { lineNumber: 3, text: '{"id":"c"}' },
    ]);
  });

  it('a 10 MB line is refused without being buffered, and the next line still reads', () => {
    const huge = 'x'.repeat(10 * 1024 * 1024);
    const lines = decodeLines(bytes(`{"id":"${huge}"}\n{"id":"ok"}`));
    expect(lines[0]).toEqual({
      lineNumber: 1,
      error: `line is ${huge.length + 9} bytes long, more than the limit of ${DEFAULT_MAX_LINE_BYTES}`,
    });
    expect(lines[1]).toEqual({ lineNumber: 2, text: '{"id":"ok"}' });
    const parsed = compileSchema(jsonSpec).parse(`{"id":"${huge}"}`, ctx);
    expect(parsed).toEqual({ ok: false, error: `line is ${huge.length + 9} characters long, more than the limit of 1048576` });
  });

  it('deeply nested JSON is a failure, not a stack overflow', () => {
    const deep = '['.repeat(50_000) + ']'.repeat(50_000);
    const parser = compileSchema(jsonSpec);
    expect(parser.parse(`{"id":"a","payload":${deep}}`, ctx)).toEqual({
      ok: false,
      error: 'field "payload": nested deeper than 100 levels',
    });
    const discovering = compileSchema({ ...jsonSpec, isFieldDiscoveryEnabled: true });
    expect(discovering.parse(`{"id":"a","other":${deep}}`, ctx)).toEqual({
      ok: false,
      error: 'field "other": nested deeper than 100 levels',
    });
    expect(parser.parse(`{"id":"a","ignored":${deep}}`, ctx).ok).toBe(true);
  });

  it('numbers out of range and of the wrong type are failures', () => {
    const parser = compileSchema(jsonSpec);
    expect(parser.parse('{"id":"a","f":1e400}', ctx)).toEqual({
      ok: false,
      error: 'field "f": number Infinity is out of range for float',
    });
    expect(parser.parse('{"id":"a","n":1e20}', ctx)).toEqual({
      ok: false,
      error: 'field "n": number 100000000000000000000 is out of range for bigint',
    });
    expect(parser.parse('{"id":"a","n":"12abc"}', ctx)).toEqual({
      ok: false,
      error: 'field "n": expected an integer, got string "12abc"',
    });
    expect(parser.parse('{"id":["a"]}', ctx)).toEqual({ ok: false, error: 'field "id": expected a string, got an array' });
  });

  it('every line of a messy input is either parsed or reported', () => {
    const input = bytes(
      '{"id":"1"}\n',
      '\n',
      '   \n',
      '{"id":\n',
      [0xff, 0xfe, 0x0a],
      '{"id":"2","n":"9"}\n',
      'null\n',
      '{"n":1}\n',
      '{"id":"3"}',
    );
    const parser = compileSchema(jsonSpec);
    const lines = decodeLines(input);
    let parsed = 0;
    const failures: string[] = [];
    for (const line of lines) {
      if ('error' in line) {
        failures.push(line.error);
        continue;
      }
      const r = parser.parse(line.text, ctx);
      if (r.ok) parsed++;
      else failures.push(r.error);
    }
    expect(lines).toHaveLength(9);
    expect(parsed).toBe(3);
    expect(failures).toHaveLength(6);
    expect(failures.every((f) => f.length > 0)).toBe(true);
  });

  it('no managed parser throws on garbage', () => {
    const garbage = [
      '',
      '\u0000\u0001\u0002',
      '{',
      '}{',
      '{"a":1}{"b":2}',
      '[]',
      '1e999',
      '"\\ud800"',
      '{"eventTime":{"$date":1}}',
      '{"timestamp":[1,2,3],"time":{"x":1}}',
      'a'.repeat(5000),
      '<34>',
      '<34>1 ',
      '"' + '\\"'.repeat(1000),
      '%{x} %{y}',
      '- - - [] "" ""',
      '\t'.repeat(40),
      '2 123 eni - - - - - - - x y - NODATA',
      '{"id.orig_h":{"a":1},"uid":1,"ts":"x"}',
    ];
    for (const spec of managedSchemas()) {
      const parser = compileSchema(spec);
      for (const line of garbage) {
        const result = parser.parse(line, { ...ctx, lineNumber: 1 });
        expect(typeof result.ok, `${spec.schema}: ${line.slice(0, 40)}`).toBe('boolean');
        if (!result.ok) expect(result.error.length).toBeGreaterThan(0);
      }
    }
  });
});

describe('classification', () => {
  it('tries the last winner first', () => {
    const schemas = ['Okta.SystemLog', 'AWS.CloudTrail'].map((n) => compileSchema(managedSchema(n)!));
    const calls: string[] = [];
    const counted = schemas.map((p) => ({
      ...p,
      parse: (line: string, c?: object) => (calls.push(p.logType), p.parse(line, c)),
      parseRecord: (record: Record<string, unknown>, c?: object) => (calls.push(p.logType), p.parseRecord(record, c)),
    }));
    const classify = classifier(counted);
    const line =
      '{"eventVersion":"1.08","eventTime":"2026-01-01T00:00:00Z","eventSource":"s3.amazonaws.com","eventName":"GetObject","awsRegion":"us-east-1"}';
    expect(classify.classify(line, ctx)).toMatchObject({ ok: true, logType: 'AWS.CloudTrail' });
    expect(calls).toEqual(['Okta.SystemLog', 'AWS.CloudTrail']);
    calls.length = 0;
    expect(classify.classify(line, ctx)).toMatchObject({ ok: true, logType: 'AWS.CloudTrail' });
    expect(calls).toEqual(['AWS.CloudTrail']);
  });

  it('reports why no schema matched', () => {
    const classify = classifier(managedSchemas());
    const result = classify.classify('{"hello":"world"}', ctx);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toMatch(/^no schema matched the line \(\d+ tried; /);
      expect(result.attempts.length).toBe(managedSchemas().length);
    }
  });
});

describe('p_row_id', () => {
  it('is the same for the same input position and differs between positions', () => {
    const parser = compileSchema(jsonSpec);
    const at = (objectKey: string, lineNumber: number) => {
      const r = parser.parse('{"id":"a"}', { sourceId: 's1', objectKey, lineNumber, parseTime: new Date() });
      return r.ok ? r.events[0].p_row_id : undefined;
    };
    expect(at('k1', 1)).toBe(at('k1', 1));
    expect(new Set([at('k1', 1), at('k1', 2), at('k2', 1)]).size).toBe(3);
    expect(at('k1', 1)).toMatch(/^[0-9a-f]{32}$/);
    const element = (eventIndex: number) => {
      const r = parser.parseRecord({ id: 'a' }, { sourceId: 's1', objectKey: 'k1', lineNumber: 1, eventIndex });
      return r.ok ? r.events[0].p_row_id : undefined;
    };
    expect(element(0)).toBe(at('k1', 1));
    expect(element(1)).not.toBe(element(0));
    expect(rowId({ sourceId: 's1', objectKey: 'k1', lineNumber: 1, index: 1 })).toBe(element(1));
  });
});

describe('field discovery', () => {
  it('reports discovered fields as a spec', () => {
    const parser = compileSchema({
      schema: 'Custom.Disc',
      isFieldDiscoveryEnabled: true,
      fields: [{ name: 'id', type: 'string' }],
    });
    parser.parse('{"id":"a","src":"10.0.0.1","when":"2026-01-01T00:00:00Z","nested":{"count":3}}', ctx);
    parser.parse('{"id":"b","nested":{"count":4.5,"tags":["x"]}}', ctx);
    expect(parser.discoveredFields()).toEqual([
      { name: 'src', type: 'string', indicators: ['ip'], isDiscovered: true },
      { name: 'when', type: 'timestamp', timeFormats: ['rfc3339'], isEventTime: true, isDiscovered: true },
      {
        name: 'nested',
        type: 'object',
        isDiscovered: true,
        fields: [
          { name: 'count', type: 'float', isDiscovered: true },
          { name: 'tags', type: 'array', element: { type: 'string' }, isDiscovered: true },
        ],
      },
    ]);
  });
});

describe('schema inference', () => {
  it('takes a nested time as the event time when the top level has none', () => {
    const fields = new SchemaInferrer();
    fields.add({ id: 'a', attributes: { action: 'x', time: '2026-01-01T00:00:00Z' } });
    expect(fields.fields()).toEqual([
      { name: 'id', type: 'string' },
      {
        name: 'attributes',
        type: 'object',
        fields: [
          { name: 'action', type: 'string' },
          { name: 'time', type: 'timestamp', timeFormats: ['rfc3339'], isEventTime: true },
        ],
      },
    ]);
  });

  it('treats an object keyed by data as json and keeps memory bounded', () => {
    const inferrer = new SchemaInferrer();
    for (let i = 0; i < 500; i++) inferrer.add({ byUser: { [`user-${i}`]: i }, n: i });
    expect(inferrer.fields()).toEqual([
      { name: 'byUser', type: 'json' },
      { name: 'n', type: 'bigint' },
    ]);
  });
});
