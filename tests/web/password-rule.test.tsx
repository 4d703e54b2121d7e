// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, describe, expect, it } from 'vitest';
import { checkPassword, confirmationError, passwordError, type PasswordRuleId } from '../../core/validation/password';
import { PasswordRuleChecker } from '../../web/src/features/account/PasswordRuleChecker';
import { installBrowserStandIns } from './support/render';

afterEach(cleanup);

// password → the rules it breaks, at a minimum length of 12
const MIN = 12;
const cases: ReadonlyArray<readonly [string, readonly PasswordRuleId[]]> = [
  ['', ['length', 'uppercase', 'lowercase', 'symbol', 'number']],
  ['short', ['length', 'uppercase', 'symbol', 'number']],
  ['alllowercaseletters', ['uppercase', 'symbol', 'number']],
  ['ALLUPPERCASE1!', ['lowercase']],
  ['NoSymbolsHere123', ['symbol']],
  ['No-Numbers-Here!', ['number']],
  ['Caracal-2026-rocks', []],
  ['Tab\tIsNot1Symbol', ['symbol']],
  ['Inner spaces 1 Count', []],
  [' Leading1Space', ['symbol']],
  ['Trailing1Space ', ['symbol']],
  ['Exactly12ch!', []],
  ['Exactly11c!', ['length']],
];

describe('the password rule', () => {
  it.each(cases)('%j breaks %j', (password, broken) => {
    const failing = checkPassword(password, MIN)
      .filter((check) => !check.passed)
      .map((check) => check.id);
    expect(failing).toEqual(broken);
  });

  it('says the messages of the specification, with the minimum length', () => {
    expect(checkPassword('', 14).map((check) => check.message)).toEqual([
      'Password must contain at least 14 characters',
      'Password must contain at least 1 uppercase character',
      'Password must contain at least 1 lowercase character',
      'Password must contain at least 1 symbol',
      'Password must contain at least 1 number',
    ]);
  });

  it('gives the first broken rule as the field error, and requires a value', () => {
    expect(passwordError('', MIN)).toBe('This field is required');
    expect(passwordError('Caracal2026', MIN)).toBe('Password must contain at least 12 characters');
    expect(passwordError('caracal-2026-rocks', MIN)).toBe('Password must contain at least 1 uppercase character');
    expect(passwordError('Caracal-2026-rocks', MIN)).toBeUndefined();
  });

  it('requires the confirmation to match', () => {
    expect(confirmationError('Caracal-2026-rocks', '')).toBe('This field is required');
    expect(confirmationError('Caracal-2026-rocks', 'Caracal-2026-rock')).toBe('Passwords must match');
    expect(confirmationError('Caracal-2026-rocks', 'Caracal-2026-rocks')).toBeUndefined();
  });
});

describe('the password rule checker', () => {
  it('shows each rule passing or failing', () => {
    installBrowserStandIns();
    render(
      <MantineProvider>
        <PasswordRuleChecker password="caracal2026" minLength={12} />
      </MantineProvider>,
    );
    const rules = within(screen.getByRole('list', { name: 'Password rules' })).getAllByRole('listitem');
    const shown = rules.map((rule) => [rule.getAttribute('data-rule'), rule.getAttribute('data-passed')]);
    expect(shown).toEqual([
      ['length', 'false'],
      ['uppercase', 'false'],
      ['lowercase', 'true'],
      ['symbol', 'false'],
      ['number', 'true'],
    ]);
    expect(rules[2]?.textContent).toBe('Passed: Password must contain at least 1 lowercase character');
    expect(rules[0]?.textContent).toBe('Not yet: Password must contain at least 12 characters');
  });
});
