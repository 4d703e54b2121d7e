// The json and json_array condition value types: JSON and object fields take equality to a
// JSON value typed as JSON text, is in / is not in take one JSON array; text that is not JSON is refused with a
// message and written back as typed; arrays of objects contain a JSON value.
import { describe, expect, it } from 'vitest';
import {
  convertValue,
  operatorsFor,
  parseFieldType,
  readExpressions,
  readValue,
  UnreadJson,
  valueKindFor,
  valueProblem,
  valueTextFor,
  writeExpressions,
  type Group,
} from '../../../core/detections/simple';
import { compileExpressions } from '../../../core/detections/simple';

describe('json and json_array value types', () => {
  it('offers equality and list membership on json and object fields, with JSON value kinds', () => {
    for (const type of ['json', 'object']) {
      const field = parseFieldType(type);
      expect(operatorsFor(field)).toEqual(['==', '!=', 'in', 'not in', 'is empty', 'is not empty']);
      expect(valueKindFor(field, '==')).toBe('json');
      expect(valueKindFor(field, 'not in')).toBe('json_array');
    }
    expect(valueKindFor(parseFieldType('json[]'), 'contains')).toBe('json');
    expect(valueKindFor(parseFieldType('string'), 'in')).toBe('string[]');
  });

  it.each([
    ['json', '{"a": 1}', undefined, { a: 1 }],
    ['json', '"text"', undefined, 'text'],
    ['json', '2.5', undefined, 2.5],
    ['json', '{"a": ', 'This field + operator requires a JSON value', undefined],
    ['json', '   ', 'This field + operator requires a JSON value', undefined],
    ['json_array', '[{"a": 1}, "b"]', undefined, [{ a: 1 }, 'b']],
    ['json_array', '{"a": 1}', 'This field + operator requires a JSON array', undefined],
    ['json_array', '[]', 'This field + operator requires a JSON array', []],
  ] as const)('%s %j: %s', (kind, text, message, value) => {
    const read = readValue(kind, text);
    expect(valueProblem(kind, read)).toBe(message);
    if (value !== undefined) expect(read).toEqual(value);
    else expect(read).toBeInstanceOf(UnreadJson);
    expect(valueTextFor(kind, read)).toBe(value === undefined ? text : JSON.stringify(value));
  });

  it('reads a list or mapping Value as a JSON value (the builder checks it against the field type)', () => {
    const reading = readExpressions([{ Key: 'a', Condition: 'Equals', Value: [1, { b: 2 }] }]);
    expect(reading.ok && reading.group.items[0]).toEqual({
      kind: 'condition',
      target: 'a',
      keyStyle: 'Key',
      operator: '==',
      value: [1, { b: 2 }],
    });
    expect(valueProblem('json', [1, { b: 2 }])).toBeUndefined();
    expect(valueProblem('string', [1, { b: 2 }])).toBe('This field + operator requires a value');
  });

  it('carries values between JSON kinds and writes unparsed text as typed', () => {
    expect(convertValue('json_array', { a: 1 })).toEqual([{ a: 1 }]);
    expect(convertValue('json', [{ a: 1 }, 2])).toEqual([{ a: 1 }, 2]);
    expect(convertValue('json', new UnreadJson('{"b": true}'))).toEqual({ b: true });
    expect(convertValue('json', 'plain')).toBe('plain');
    expect(convertValue('json_array', [])).toBeInstanceOf(UnreadJson);
    const group: Group = {
      kind: 'group',
      conjunction: 'and',
      items: [{ kind: 'condition', target: 'detail', operator: '==', value: new UnreadJson('{"a"') }],
    };
    expect(writeExpressions(group)).toEqual([{ KeyPath: 'detail', Condition: 'Equals', Value: '{"a"' }]);
  });

  it('a JSON value written by the builder matches as the engine compares (deep equality, membership)', () => {
    const group: Group = {
      kind: 'group',
      conjunction: 'and',
      items: [
        { kind: 'condition', target: 'detail', operator: '==', value: readValue('json', '{"role": "admin", "n": 2}') },
        { kind: 'condition', target: 'tags', operator: 'in', value: readValue('json_array', '[["a", "b"], "x"]') },
      ],
    };
    const expressions = writeExpressions(group);
    const read = readExpressions(expressions);
    expect(read.ok && read.group).toEqual(group);
    const match = compileExpressions(expressions, 'Detection');
    expect(match({ detail: { n: 2, role: 'admin' }, tags: 'x' })).toBe(true);
    expect(match({ detail: { n: 3, role: 'admin' }, tags: 'x' })).toBe(false);
    expect(match({ detail: { n: 2, role: 'admin' }, tags: 'y' })).toBe(false);
  });
});
