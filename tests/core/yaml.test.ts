// The product's YAML reader: YAML 1.2 core schema, one document, unique keys, positions in its errors, and
// aliases refused (the billion laughs) unless the product reads its own documents.
import { describe, expect, it } from 'vitest';
import { ALIASES_NOT_ALLOWED, readYaml, YamlError } from '../../core/yaml';
import { billionLaughs } from './billion-laughs';

describe('readYaml', () => {
  it('keeps on/off/yes/no and timestamps as strings, parses booleans and numbers', () => {
    expect(readYaml('a: on\nb: no\nc: 2024-01-01T00:00:00Z\nd: true\ne: 0x1F\nf: 1.5\ng: ~\nh: Yes')).toEqual({
      a: 'on',
      b: 'no',
      c: '2024-01-01T00:00:00Z',
      d: true,
      e: 31,
      f: 1.5,
      g: null,
      h: 'Yes',
    });
    expect(readYaml('')).toBeNull();
  });

  it.each([
    ['a: [1, 2', 'Flow sequence in block collection must be sufficiently indented and end with a ]', 1],
    ['a: 1\na: 2\n', 'Map keys must be unique', 2],
    ['- a\n---\n- b\n', 'Source contains multiple documents', 2],
  ])('refuses %j with the reason and where it starts', (text, reason, line) => {
    const error = (() => {
      try {
        readYaml(text);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(YamlError);
    expect((error as YamlError).reason).toContain(reason);
    expect((error as YamlError).line).toBe(line);
    expect((error as YamlError).message).toMatch(/ \(line \d+, column \d+\)$/);
  });

  it('refuses a billion-laughs document at its first alias, before anything is expanded', () => {
    const text = billionLaughs();
    expect(text.length).toBeLessThan(1500);
    expect(() => readYaml(text)).toThrow(new YamlError(ALIASES_NOT_ALLOWED, 2, 8));
  });

  it('refuses even one harmless alias in a document a person wrote', () => {
    expect(() => readYaml('base: &base {a: 1}\ncopy: *base\n')).toThrow(`${ALIASES_NOT_ALLOWED} (line 2, column 7)`);
  });

  it("resolves aliases in the product's own documents, within the reader's expansion bound", () => {
    expect(readYaml('base: &base {a: 1}\ncopy: *base\n', { aliases: true })).toEqual({ base: { a: 1 }, copy: { a: 1 } });
    expect(() => readYaml(billionLaughs(), { aliases: true })).toThrow(/resource exhaustion/);
  });
});
