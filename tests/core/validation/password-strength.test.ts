import { describe, expect, it } from 'vitest';
import { passwordStrength } from '../../../core/validation/password-strength';
import { checkPassword, confirmationError, passwordError, PASSWORDS_MUST_MATCH } from '../../../core/validation/password';

const MIN = 12;

describe('passwordStrength', () => {
  it('labels the five scores', () => {
    const labels = ['', 'abc', 'Caracal-2026', 'Winter2026!xQ', 'Tq7!vLm2#Rz9', 'Tq7!vLm2#Rz9&Kp4$Wx'].map((p) =>
      passwordStrength(p, MIN),
    );
    expect(labels.map((s) => [s.score, s.label])).toEqual([
      [0, 'Too weak'],
      [0, 'Too weak'],
      [1, 'Weak'],
      [2, 'Fair'],
      [3, 'Good'],
      [4, 'Strong'],
    ]);
  });

  it('keeps a password that breaks the rule at Weak or below, however long', () => {
    expect(passwordStrength('a'.repeat(200), MIN).score).toBe(0);
    expect(passwordStrength('correct horse battery staple', MIN).score).toBeLessThanOrEqual(1);
    expect(passwordStrength('NoSymbolsButLongEnough123', MIN)).toMatchObject({ score: 1, label: 'Weak' });
  });

  it('discounts runs, sequences and common words', () => {
    const random = passwordStrength('Tq7!vLm2#Rz9', MIN);
    const repeated = passwordStrength('Aaaaaaaaaa1!', MIN);
    const sequence = passwordStrength('Abcdefghij1!', MIN);
    const common = passwordStrength('Password123!', MIN);
    for (const weak of [repeated, sequence, common]) expect(weak.bits).toBeLessThan(random.bits);
    expect(repeated.label).toBe('Weak');
    expect(common.label).toBe('Weak');
  });

  it('grows with length once the rule is met', () => {
    const scores = ['Tq7!vLm2#Rz9', 'Tq7!vLm2#Rz9&K', 'Tq7!vLm2#Rz9&Kp4$Wx'].map((p) => passwordStrength(p, MIN).bits);
    expect(scores[0]).toBeLessThan(scores[1]);
    expect(scores[1]).toBeLessThan(scores[2]);
  });

  it('copes with huge and hostile input', () => {
    const huge = 'Xy1!'.repeat(25_000);
    expect(passwordStrength(huge, MIN).score).toBe(4);
    expect(passwordStrength("'; DROP TABLE users; --<script>", MIN).label).toMatch(/Weak|Fair|Good|Strong/);
    expect(passwordStrength('🐈‍⬛🐈‍⬛', MIN).score).toBe(0);
  });
});

describe('the password rule messages (core)', () => {
  it('names the configured minimum length', () => {
    expect(checkPassword('x', 8)[0].message).toBe('Password must contain at least 8 characters');
    expect(checkPassword('x', 99)[0].message).toBe('Password must contain at least 99 characters');
  });

  it('says each rule in the words of the specification', () => {
    expect(passwordError('lowercase-only-1', MIN)).toBe('Password must contain at least 1 uppercase character');
    expect(passwordError('UPPERCASE-ONLY-1', MIN)).toBe('Password must contain at least 1 lowercase character');
    expect(passwordError('NoSymbolsHere123', MIN)).toBe('Password must contain at least 1 symbol');
    expect(passwordError('No-Numbers-Here!', MIN)).toBe('Password must contain at least 1 number');
    expect(passwordError('Short1!', MIN)).toBe('Password must contain at least 12 characters');
    expect(passwordError('', MIN)).toBe('This field is required');
  });

  it('counts characters, not UTF-16 units, and accepts hostile strings that follow the rule', () => {
    expect(passwordError('Ab1!🐈🐈🐈🐈🐈🐈🐈🐈', MIN)).toBeUndefined();
    expect(passwordError('Ab1!🐈🐈🐈🐈🐈🐈🐈', MIN)).toBe('Password must contain at least 12 characters');
    expect(passwordError("Robert'); DROP TABLE--1", MIN)).toBeUndefined();
  });

  it('says "Passwords must match"', () => {
    expect(PASSWORDS_MUST_MATCH).toBe('Passwords must match');
    expect(confirmationError('Tq7!vLm2#Rz9', 'Tq7!vLm2#Rz8')).toBe('Passwords must match');
  });
});
