// The depth limit of json values holds whichever way a record arrives: a JSON line whose walk for long
// integers found it shallow skips the check, so the edges of the limit are checked here through parse,
// classify, parseRecord, field discovery and embedded JSON.
import { describe, expect, it } from 'vitest';
import { classifier, compileSchema, type SchemaSpec } from '../../../core/schemas/index';

const ctx = { parseTime: new Date('2026-01-01T00:00:00Z') };
const spec: SchemaSpec = {
  schema: 'Custom.Depth',
  fields: [
    { name: 'id', type: 'string', required: true },
    { name: 'payload', type: 'json' },
    { name: 'text', type: 'json', isEmbeddedJSON: true },
    { name: 'list', type: 'array', element: { type: 'json' } },
  ],
};
const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const refused = (field: string) => ({ ok: false, error: `field "${field}": nested deeper than 100 levels` });

describe('json values nested to the depth limit', () => {
  const parser = compileSchema(spec);

  it('a value of 100 levels is kept and one of 101 refused, read from a line', () => {
    for (const levels of [1, 99, 100]) {
      const r = parser.parse(`{"id":"a","payload":${nested(levels)}}`, ctx);
      expect(r.ok).toBe(true);
      expect(JSON.stringify(r.ok && r.events[0].payload)).toBe(nested(levels));
    }
    expect(parser.parse(`{"id":"a","payload":${nested(101)}}`, ctx)).toEqual(refused('payload'));
    // An array's json elements start one level down.
    expect(parser.parse(`{"id":"a","list":[${nested(100)}]}`, ctx).ok).toBe(true);
    expect(parser.parse(`{"id":"a","list":[${nested(101)}]}`, ctx)).toEqual(refused('list[]'));
  });

  it('a shallow line does not vouch for the JSON embedded in its strings', () => {
    const line = (levels: number) => JSON.stringify({ id: 'a', text: nested(levels), payload: [1] });
    expect(parser.parse(line(100), ctx).ok).toBe(true);
    expect(parser.parse(line(101), ctx)).toEqual(refused('text'));
  });

  it('the same limits through classify, parseRecord and field discovery', () => {
    const classify = classifier([spec]);
    expect(classify.classify(`{"id":"a","payload":${nested(100)}}`, ctx).ok).toBe(true);
    expect(classify.classify(`{"id":"a","payload":${nested(101)}}`, ctx)).toMatchObject({
      ok: false,
      error: refused('payload').error,
    });
    const record = { id: 'a', payload: JSON.parse(nested(101)) as unknown };
    expect(parser.parseRecord(record, ctx)).toEqual(refused('payload'));
    // A record read before (shallow) and then another line: the new record is checked on its own.
    parser.parse('{"id":"b"}', ctx);
    expect(parser.parseRecord(record, ctx)).toEqual(refused('payload'));
    const discovering = compileSchema({ ...spec, isFieldDiscoveryEnabled: true });
    expect(discovering.parse(`{"id":"a","other":${nested(100)}}`, ctx).ok).toBe(true);
    expect(discovering.parse(`{"id":"a","other":${nested(101)}}`, ctx)).toEqual(refused('other'));
  });
});
