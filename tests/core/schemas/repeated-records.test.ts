// A parser keeps state between records (the last time text read, the raw key order of each object): records
// parsed one after another by one parser give what each gives parsed alone by a new parser, and a record
// handed to parseRecord (read by name) gives what its line gives (walked by key).
import { describe, expect, it } from 'vitest';
import { compileSchema, type SchemaSpec } from '../../../core/schemas/index';

const ctx = { parseTime: new Date('2026-01-01T00:00:00Z') };
const spec: SchemaSpec = {
  schema: 'Custom.Repeated',
  isFieldDiscoveryEnabled: true,
  fields: [
    { name: 'id', type: 'string', required: true },
    { name: 'at', type: 'timestamp', timeFormats: ['rfc3339', 'unix_auto'], isEventTime: true },
    { name: 'seen', type: 'timestamp', timeFormats: ['rfc3339'] },
    { name: 'ip', type: 'string', indicators: ['ip', 'domain'] },
    { name: 'on', type: 'boolean' },
    { name: 'n', type: 'bigint' },
    { name: 'data', type: 'json' },
    {
      name: 'nested',
      type: 'object',
      fields: [
        { name: 'a', type: 'string' },
        { name: 'b', type: 'string', required: true },
      ],
    },
  ],
};

const lines = [
  '{"id":"1","at":"2026-11-21T10:00:00Z","seen":"2026-11-21T10:00:00+02:00","ip":"10.0.0.1","on":true}',
  '{"id":"2","at":"2026-11-21T10:00:00Z","seen":"2026-11-21T10:00:00+02:00","ip":"example.com"}',
  '{"at":"2026-11-21T10:00:00Z","id":"3","seen":"2026-11-21T10:00:00.5Z","extra":{"x":1},"on":"false"}',
  '{"id":"4","at":1700000000,"seen":"2026-11-21T10:00:00.5Z","n":"12","nested":{"b":"x","a":"y"}}',
  '{"id":"5","at":"not a time"}',
  '{"id":"6","at":"2026-11-21T10:00:00Z","nested":{"a":"y"}}',
  '{"id":"7","at":"2026-11-21 10:00:01","seen":"","on":"","data":[1,{"k":"v"}],"nested":{"a":"y","b":"z","c":3}}',
  '{"n":"x","id":"8"}',
  '{"id":"9","at":"2026-11-21T10:00:00Z","ip":" 10.0.0.2 "}',
  '{"id":"1","at":"2026-11-21T10:00:00Z","seen":"2026-11-21T10:00:00+02:00","ip":"10.0.0.1","on":true}',
];

describe('records parsed one after another', () => {
  it('give what each gives alone', () => {
    const shared = compileSchema(spec);
    const byName = compileSchema(spec);
    for (const order of [lines, [...lines].reverse(), [...lines, ...lines]]) {
      for (const [i, line] of order.entries()) {
        const alone = compileSchema(spec).parse(line, { ...ctx, lineNumber: i + 1 });
        const r = shared.parse(line, { ...ctx, lineNumber: i + 1 });
        expect(JSON.stringify(r)).toBe(JSON.stringify(alone));
        // A record handed over already parsed is read by name, not walked: the same result.
        const record = JSON.parse(line) as Record<string, unknown>;
        expect(JSON.stringify(byName.parseRecord(record, { ...ctx, lineNumber: i + 1 }))).toBe(JSON.stringify(alone));
      }
    }
  });

  it('the cases above are the ones meant: failures, a discovered field, times from a cache and not', () => {
    const p = compileSchema(spec);
    const results = lines.map((line, i) => p.parse(line, { ...ctx, lineNumber: i + 1 }));
    expect(results.map((r) => r.ok)).toEqual([true, true, true, true, false, false, true, false, true, true]);
    const events = results.map((r) => (r.ok ? r.events[0] : r.error));
    expect(events[1]).toMatchObject({ seen: '2026-11-21 08:00:00.000000000', p_any_domain_names: ['example.com'] });
    expect(events[2]).toMatchObject({ seen: '2026-11-21 10:00:00.500000000', on: false, extra: { x: 1 } });
    expect(events[3]).toMatchObject({ at: '2023-11-14 22:13:20.000000000', nested: { a: 'y', b: 'x' } });
    expect(events[4]).toMatch(/^field "at": string "not a time" does not match the time formats rfc3339, unix_auto$/);
    expect(events[5]).toBe('field "nested.b": required field is missing');
    expect(events[7]).toBe('field "n": expected an integer, got string "x"');
    expect(events[8]).toMatchObject({ ip: ' 10.0.0.2 ', p_any_ip_addresses: ['10.0.0.2'] });
  });
});
