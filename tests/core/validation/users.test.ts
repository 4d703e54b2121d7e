import { describe, expect, it } from 'vitest';
import {
  EMAIL_INVALID,
  EMAIL_IN_USE,
  EMAIL_REQUIRED,
  FIRST_NAME_REQUIRED,
  LAST_NAME_REQUIRED,
  ROLE_REQUIRED,
  emailError,
  familyNameError,
  givenNameError,
  normalizeEmail,
  profileFormErrors,
  roleIdError,
  userDisplayName,
  userFormErrors,
  userMatchesSearch,
  userStatusOf,
} from '../../../core/validation/users';
import { CONTROL_CHARACTERS } from '../../../core/validation/generic';

describe('the user form', () => {
  it('uses the specification messages', () => {
    expect(EMAIL_REQUIRED).toBe('Email is required');
    expect(EMAIL_INVALID).toBe('Must be a valid email');
    expect(EMAIL_IN_USE).toBe('Email already in use');
    expect(FIRST_NAME_REQUIRED).toBe('First name is required');
    expect(LAST_NAME_REQUIRED).toBe('Last name is required');
    expect(ROLE_REQUIRED).toBe('This field is required');
  });

  it.each([
    ['', EMAIL_REQUIRED],
    ['   ', EMAIL_REQUIRED],
    [null, EMAIL_REQUIRED],
    [['a@b.co'], EMAIL_REQUIRED],
    ['ada', EMAIL_INVALID],
    ['ada@', EMAIL_INVALID],
    ['ada@example', EMAIL_INVALID],
    ['ada lovelace@example.com', EMAIL_INVALID],
    ['"ada"@example.com', EMAIL_INVALID],
    ['ada@exa<script>mple.com', EMAIL_INVALID],
    ['ada\n@example.com', EMAIL_INVALID],
    [`${'a'.repeat(250)}@example.com`, 'Must be at most 254 characters'],
  ])('refuses the email %j with %s', (value, message) => {
    expect(emailError(value)).toBe(message);
  });

  it.each(['ada@example.com', ' Ada.Lovelace+soc@Example.co.uk '])('accepts the email %j', (value) => {
    expect(emailError(value)).toBeUndefined();
  });

  it('stores emails trimmed and lower-cased', () => {
    expect(normalizeEmail(' Ada@Example.COM ')).toBe('ada@example.com');
  });

  it('requires first and last names, within bounds and without control characters', () => {
    expect(givenNameError('')).toBe(FIRST_NAME_REQUIRED);
    expect(familyNameError('  ')).toBe(LAST_NAME_REQUIRED);
    expect(givenNameError(7)).toBe(FIRST_NAME_REQUIRED);
    expect(givenNameError('x'.repeat(257))).toBe('Must be at most 256 characters');
    expect(familyNameError('Love\u0000lace')).toBe(CONTROL_CHARACTERS);
    expect(givenNameError("Robert'); DROP TABLE users;--")).toBeUndefined();
    expect(familyNameError('<img src=x onerror=alert(1)>')).toBeUndefined();
    expect(givenNameError('Zoë')).toBeUndefined();
  });

  it('requires a role', () => {
    expect(roleIdError('')).toBe(ROLE_REQUIRED);
    expect(roleIdError(undefined)).toBe(ROLE_REQUIRED);
    expect(roleIdError('Admin')).toBeUndefined();
  });

  it('reports every field at once', () => {
    expect(userFormErrors({})).toEqual({
      email: EMAIL_REQUIRED,
      givenName: FIRST_NAME_REQUIRED,
      familyName: LAST_NAME_REQUIRED,
      roleId: ROLE_REQUIRED,
    });
    expect(userFormErrors({ email: 'ada@example.com', givenName: 'Ada', familyName: 'Lovelace', roleId: 'Admin' })).toEqual({});
    expect(profileFormErrors({ givenName: 'Ada', familyName: '' })).toEqual({ familyName: LAST_NAME_REQUIRED });
  });
});

describe('users in lists', () => {
  const ada = { givenName: 'Ada', familyName: 'Lovelace', email: 'ada@example.com', enabled: true, status: 'CONFIRMED' };

  it('suffixes deactivated users with (Deactivated)', () => {
    expect(userDisplayName(ada)).toBe('Ada Lovelace');
    expect(userDisplayName({ ...ada, enabled: false })).toBe('Ada Lovelace (Deactivated)');
    expect(userDisplayName({ email: 'x@example.com', enabled: true })).toBe('x@example.com');
  });

  it('tells active, invited and deactivated users apart', () => {
    expect(userStatusOf(ada)).toBe('ACTIVE');
    expect(userStatusOf({ ...ada, status: 'FORCE_CHANGE_PASSWORD' })).toBe('INVITED');
    expect(userStatusOf({ ...ada, enabled: false, status: 'FORCE_CHANGE_PASSWORD' })).toBe('DEACTIVATED');
  });

  it('searches names and email, case-insensitively', () => {
    expect(userMatchesSearch(ada, 'ada love')).toBe(true);
    expect(userMatchesSearch(ada, 'EXAMPLE.COM')).toBe(true);
    expect(userMatchesSearch(ada, '  ')).toBe(true);
    expect(userMatchesSearch(ada, 'grace')).toBe(false);
  });
});
