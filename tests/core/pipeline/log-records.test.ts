// Splitting objects into log records by stream type, independent of how the bytes are chunked.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CorruptObjectError, decompressed, InflationLimitError } from '../../../functions/lib/pipeline/decompress';
import { JsonScanner } from '../../../core/pipeline/json-scanner';
import {
  detectStreamFormat,
  detectStreamType,
  logRecords,
  unwrapEnvelope,
  type LogRecord,
  type StreamFormat,
} from '../../../core/pipeline/log-records';
import { inflationProblem, RATIO_FLOOR_BYTES } from '../../../core/pipeline/limits';
import { readJsonObject } from '../../../core/schemas/parsers/json';

async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function records(text: string | Uint8Array, format: StreamFormat, size = 7): Promise<LogRecord[]> {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const out: LogRecord[] = [];
  for await (const batch of logRecords(decompressed(chunked(bytes, size)), format)) out.push(...batch);
  return out;
}

const texts = (rs: LogRecord[]) => rs.map((r) => ('text' in r ? r.text : `!${r.error}`));

describe('Lines', () => {
  it('gives one record per line, skipping blank lines, CRLF handled, numbered as in the object', async () => {
    const rs = await records('a\r\n\n  \nb\nc', { streamType: 'Lines' });
    expect(rs).toEqual([
      { lineNumber: 1, index: 0, text: 'a' },
      { lineNumber: 4, index: 0, text: 'b' },
      { lineNumber: 5, index: 0, text: 'c' },
    ]);
  });

  it('reports invalid UTF-8 and overlong lines as records with an error', async () => {
    const bytes = Buffer.concat([Buffer.from('ok\n'), Buffer.from([0xff, 0xfe, 0x0a]), Buffer.from('x'.repeat(20))]);
    const out: LogRecord[] = [];
    for await (const batch of logRecords(chunked(bytes, 5), { streamType: 'Lines' }, 10)) out.push(...batch);
    expect(texts(out)).toEqual(['ok', '!line is not valid UTF-8', '!line is 20 bytes long, more than the limit of 10']);
  });
});

describe('JSON', () => {
  it('reads concatenated and pretty-printed documents', async () => {
    const rs = await records('{"a":1}{"b":\n  {"c":"}{"}\n}\n{"d":"\\"x"}', { streamType: 'JSON' }, 3);
    expect(texts(rs)).toEqual(['{"a":1}', '{"b":\n  {"c":"}{"}\n}', '{"d":"\\"x"}']);
    expect(rs.map((r) => r.lineNumber)).toEqual([1, 2, 3]);
  });
});

describe('JsonArray', () => {
  it('reads the elements of a root array', async () => {
    const rs = await records('[ {"a":[1,2]}, {"b":"]"} ,3, "s", null ]', { streamType: 'JsonArray' }, 4);
    expect(texts(rs)).toEqual(['{"a":[1,2]}', '{"b":"]"}', '3', '"s"', 'null']);
  });

  it('reads the elements of the array in the envelope field, ignoring other fields', async () => {
    const doc = '{"other":[{"x":1}],"nested":{"Records":[{"no":1}]},"Records":[{"a":1},{"b":{"c":[2]}}],"tail":true}';
    expect(texts(await records(doc, { streamType: 'JsonArray', envelopeField: 'Records' }, 5))).toEqual([
      '{"a":1}',
      '{"b":{"c":[2]}}',
    ]);
  });

  it('refuses an element over the size limit without holding it', () => {
    const scanner = new JsonScanner({ kind: 'array' }, 10);
    const out = [...scanner.push('[{"a":"'), ...scanner.push('x'.repeat(50)), ...scanner.push('"},{"b":1}]'), ...scanner.end()];
    expect(out).toEqual([{ error: 'value is 58 characters long, more than the limit of 10' }, { text: '{"b":1}' }]);
  });

  it('passes a value cut short at the end of the object on, for the parser to refuse', async () => {
    expect(texts(await records('[{"a":1},{"b":', { streamType: 'JsonArray' }))).toEqual(['{"a":1}', '{"b":']);
  });
});

describe('CloudWatchLogs', () => {
  const message = (events: string[], type = 'DATA_MESSAGE') =>
    JSON.stringify({
      messageType: type,
      owner: '123456789012',
      logGroup: '/app',
      logStream: 's',
      subscriptionFilters: ['f'],
      logEvents: events.map((m, i) => ({ id: String(i), timestamp: 0, message: m })),
    });

  it('gives the messages of DATA_MESSAGE log events, skipping control messages', async () => {
    const text = message(['one', 'two']) + message([], 'CONTROL_MESSAGE') + message(['three']);
    const rs = await records(text, { streamType: 'CloudWatchLogs' }, 16);
    expect(rs).toEqual([
      { lineNumber: 1, index: 0, text: 'one' },
      { lineNumber: 1, index: 1, text: 'two' },
      { lineNumber: 3, index: 0, text: 'three' },
    ]);
  });

  it('is what Auto picks for a subscription message, gzip or not', async () => {
    const text = message(['one']);
    expect(texts(await records(gzipSync(text), { streamType: 'Auto' }))).toEqual(['one']);
  });
});

describe('Auto', () => {
  it('takes a leading [ for a JSON array and anything else for lines', async () => {
    expect(detectStreamType('  [{"a":1}]')).toBe('JsonArray');
    expect(detectStreamType('{"messageType":"DATA_MESSAGE","logEvents":[]}')).toBe('CloudWatchLogs');
    expect(detectStreamType('{"a":1}\n{"b":2}')).toBe('Lines');
    expect(detectStreamType('{\n  "a": 1\n}\n')).toBe('JSON');
    expect(detectStreamType('{"a": 1,\n "b": 2}')).toBe('JSON');
    expect(detectStreamType('not json\n{"b":2}')).toBe('Lines');
    expect(texts(await records('[{"a":1},{"b":2}]', { streamType: 'Auto' }, 3))).toEqual(['{"a":1}', '{"b":2}']);
    expect(texts(await records('{"a":1}\n{"b":2}\n', { streamType: 'Auto' }, 3))).toEqual(['{"a":1}', '{"b":2}']);
    expect(texts(await records('{\n  "a": 1\n}\n{\n  "b": 2\n}', { streamType: 'Auto' }, 3))).toEqual([
      '{\n  "a": 1\n}',
      '{\n  "b": 2\n}',
    ]);
  });
});

describe('Auto, on more than the first line', () => {
  it('takes an object whose malformed first line is followed by JSON lines for lines', async () => {
    const head = ['{"action": "trunc', ...Array.from({ length: 10 }, (_, i) => JSON.stringify({ action: 'a', n: i }))].join('\n');
    expect(detectStreamType(head)).toBe('Lines');
    const rs = await records(head, { streamType: 'Auto' }, 5);
    expect(rs).toHaveLength(11);
    expect(rs.map((r) => r.lineNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    // A pretty-printed document with values on lines of their own stays one document.
    expect(detectStreamType('{\n  "a": [\n    1,\n    "x"\n  ],\n  "b": {\n    "c": null\n  }\n}\n')).toBe('JSON');
  });

  it('looks past a long malformed first line, and reads a broken pretty-printed document line by line', async () => {
    const long = (i: number) => JSON.stringify({ n: i, pad: 'p'.repeat(3000) });
    const text = ['{"action": "trunc' + 'x'.repeat(5000), long(1), long(2), long(3)].join('\n');
    expect(detectStreamType(text.slice(0, 64 * 1024))).toBe('Lines');
    expect(await records(text, { streamType: 'Auto' }, 1000)).toHaveLength(4);
    // Pretty-printed, the first document cut short inside a string: its lines and the later ones each a record.
    const broken = '{\n  "a": "cut\n}\n{\n  "b": 2\n}\n{"c":3}\n';
    expect(detectStreamType(broken)).toBe('Lines');
    const pretty = '{\n  "a": "cut\n  "x": 1\n}\n{\n  "b": 2\n}\n';
    expect(detectStreamType(pretty)).toBe('JSON');
    const rs = await records(pretty, { streamType: 'Auto' }, 4);
    expect(texts(rs)).toEqual(['{', '  "a": "cut', '  "x": 1', '}', '{', '  "b": 2', '}']);
    expect(new Set(rs.map((r) => `${r.lineNumber}/${r.index}`)).size).toBe(rs.length);
  });

  it('recognises CloudTrail log files by their Records envelope', () => {
    expect(detectStreamFormat('{"Records":[{"eventVersion":"1.09"')).toEqual({
      streamType: 'JsonArray',
      envelopeField: 'Records',
    });
    expect(detectStreamFormat(' {\n  "Records" : [\n')).toEqual({ streamType: 'JsonArray', envelopeField: 'Records' });
    expect(detectStreamFormat('{"Recordsx":[1]}\n')).toEqual({ streamType: 'Lines' });
  });

  it('opens AWS envelopes record by record, indexing what they hold', () => {
    const at = (text: string): LogRecord => ({ lineNumber: 4, index: 0, text });
    const eb = (source: string, detail: unknown) => JSON.stringify({ 'detail-type': 'X', source, detail });
    expect(unwrapEnvelope(at(eb('aws.guardduty', { a: 1 })))).toEqual([{ lineNumber: 4, index: 0, text: '{"a":1}' }]);
    expect(unwrapEnvelope(at(eb('aws.securityhub', { findings: [{ a: 1 }, { b: 2 }] })))).toEqual([
      { lineNumber: 4, index: 0, text: '{"a":1}' },
      { lineNumber: 4, index: 1, text: '{"b":2}' },
    ]);
    expect(unwrapEnvelope(at('{"Records":[{"a":1},7]}'))).toEqual([
      { lineNumber: 4, index: 0, text: '{"a":1}' },
      { lineNumber: 4, index: 1, error: 'number in an AWS envelope where a log object was expected' },
    ]);
    const cw = (type: string) => JSON.stringify({ messageType: type, logEvents: [{ message: 'm1' }, { message: ' ' }, {}] });
    expect(unwrapEnvelope(at(cw('DATA_MESSAGE')))).toEqual([
      { lineNumber: 4, index: 0, text: 'm1' },
      { lineNumber: 4, index: 2, error: 'CloudWatch Logs event without a message' },
    ]);
    expect(unwrapEnvelope(at(cw('CONTROL_MESSAGE')))).toEqual([]);
    for (const other of [eb('acme.app', { a: 1 }), eb('aws.partner/x', { a: 1 }), '{"detail-type": "broken', '{"a":1}']) {
      expect(unwrapEnvelope(at(other))).toEqual([at(other)]);
    }
  });

  it('keeps integers beyond 2^53 exact inside the envelopes it opens', async () => {
    // 2^64 - 1 (an unsigned 64-bit nonce) and 2^53 + 1: a double holds neither.
    const big = '18446744073709551615';
    const odd = '9007199254740993';
    expect(String(JSON.parse(big))).not.toBe(big);
    const read = (r: LogRecord) => readJsonObject('text' in r ? r.text : '') as Record<string, unknown>;
    // CloudTrail documents, one per line (Auto reads the lines, then opens each document).
    const trail = `{"Records":[{"eventName":"A","requestParameters":{"nonce":${big}}},{"eventName":"B","n":${odd},"f":1.5}]}`;
    const text = `{"eventName":"first"}\n${trail}\n`;
    const rs = await records(text, { streamType: 'Auto' }, 9);
    expect(rs).toHaveLength(3);
    expect(read(rs[1]).requestParameters).toEqual({ nonce: big });
    expect(read(rs[2])).toMatchObject({ eventName: 'B', n: odd, f: 1.5 });
    // The same event read directly from a line gives the same value.
    expect(read({ lineNumber: 1, index: 0, text: `{"nonce":${big}}` }).nonce).toBe(big);
    // EventBridge detail and a CloudWatch Logs subscription message on a line.
    const eb = `{"detail-type":"X","source":"aws.guardduty","detail":{"id":${big}}}`;
    expect(unwrapEnvelope({ lineNumber: 1, index: 0, text: eb }).map(read)).toEqual([{ id: big }]);
    const cw = JSON.stringify({
      messageType: 'DATA_MESSAGE',
      logEvents: [{ id: '1', timestamp: 1, message: `{"flow_id":${big}}` }],
    }).replace('"id":"1"', `"id":${big}`);
    const opened = unwrapEnvelope({ lineNumber: 1, index: 0, text: cw });
    expect(texts(opened)).toEqual([`{"flow_id":${big}}`]);
    expect(read(opened[0]).flow_id).toBe(big);
    // A CloudWatch Logs object (its own stream type) too.
    const fromObject = await records(gzipSync(cw), { streamType: 'CloudWatchLogs' });
    expect(read(fromObject[0]).flow_id).toBe(big);
  });

  it('opens envelopes only for Auto: an explicit stream type reads what it is told', async () => {
    const line = JSON.stringify({ 'detail-type': 'GuardDuty Finding', source: 'aws.guardduty', detail: { a: 1 } });
    expect(texts(await records(line, { streamType: 'Auto' }))).toEqual(['{"a":1}']);
    expect(texts(await records(line, { streamType: 'Lines' }))).toEqual([line]);
  });
});

describe('gzip caps', () => {
  it('judges the ratio past the floor, and the size always', () => {
    expect(inflationProblem(RATIO_FLOOR_BYTES, 1)).toBeNull();
    expect(inflationProblem(RATIO_FLOOR_BYTES + 1, 1000)).toMatch(/more than 200 times/);
    expect(inflationProblem(RATIO_FLOOR_BYTES + 1, RATIO_FLOOR_BYTES)).toBeNull();
    expect(inflationProblem(101, 100, 100)).toBe('inflates to more than 100 bytes (the limit); refused after 101 bytes');
  });

  it('stops inflating an object past the size cap with an InflationLimitError (a CorruptObjectError)', async () => {
    const bytes = gzipSync(Buffer.from('line\n'.repeat(10_000)));
    let inflated = 0;
    const read = (async () => {
      for await (const chunk of decompressed(chunked(bytes, 100), { maxBytes: 20_000 })) inflated += chunk.length;
    })();
    await expect(read).rejects.toBeInstanceOf(InflationLimitError);
    await expect(read).rejects.toBeInstanceOf(CorruptObjectError);
    expect(inflated).toBeLessThanOrEqual(20_000);
    let whole = 0;
    for await (const chunk of decompressed(chunked(bytes, 100), { maxBytes: 50_000 })) whole += chunk.length;
    expect(whole).toBe(50_000);
  });
});

describe('gzip', () => {
  it('is recognised by its magic bytes, whatever the chunking, members concatenated', async () => {
    const bytes = Buffer.concat([gzipSync('a\nb\n'), gzipSync('c\n')]);
    expect(texts(await records(bytes, { streamType: 'Lines' }, 1))).toEqual(['a', 'b', 'c']);
  });

  it('corrupt or truncated, fails with CorruptObjectError after the lines before the damage', async () => {
    const whole = gzipSync(Buffer.from('line one\n'.repeat(2000)));
    const truncated = whole.subarray(0, whole.length - 20);
    const seen: LogRecord[] = [];
    await expect(
      (async () => {
        for await (const batch of logRecords(decompressed(chunked(truncated, 512)), { streamType: 'Lines' })) seen.push(...batch);
      })(),
    ).rejects.toBeInstanceOf(CorruptObjectError);
    expect(seen.length).toBeGreaterThan(0);
    const garbage = Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.from('definitely not deflate data')]);
    await expect(records(garbage, { streamType: 'Lines' })).rejects.toBeInstanceOf(CorruptObjectError);
  });
});
