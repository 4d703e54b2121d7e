import { describe, expect, it } from 'vitest';
import { NAME_CHARACTERS, NAME_TOO_LONG, nameError } from '../../../core/validation/name';
import { FIELD_REQUIRED } from '../../../core/validation/generic';

describe('the name rule', () => {
  it('uses the specification messages', () => {
    expect(FIELD_REQUIRED).toBe('This field is required');
    expect(NAME_CHARACTERS).toBe('Can only include alphanumeric characters, dashes and spaces');
    expect(NAME_TOO_LONG).toBe('Must be at most 36 characters');
  });

  it.each([
    ['', FIELD_REQUIRED],
    ['   ', FIELD_REQUIRED],
    [undefined, FIELD_REQUIRED],
    [null, FIELD_REQUIRED],
    [42, FIELD_REQUIRED],
    ['Tier_1', NAME_CHARACTERS],
    ["Robert'); DROP TABLE roles;--", NAME_CHARACTERS],
    ['<script>alert(1)</script>', NAME_CHARACTERS],
    ['{{constructor}}', NAME_CHARACTERS],
    ['Analyste\u0000', NAME_CHARACTERS],
    ['Analysté', NAME_CHARACTERS],
    ['a'.repeat(37), NAME_TOO_LONG],
    ['x'.repeat(100_000), NAME_TOO_LONG],
  ])('refuses %j with %s', (value, message) => {
    expect(nameError(value)).toBe(message);
  });

  it.each(['Analyst', 'Tier-1 Responders', 'a'.repeat(36), '  Padded  ', 'SOC 2'])('accepts %j', (value) => {
    expect(nameError(value)).toBeUndefined();
  });
});
