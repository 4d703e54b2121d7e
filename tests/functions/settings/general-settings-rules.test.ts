// Every rule of the General settings form, as the form and updateGeneralSettings apply them.
import { describe, expect, it } from 'vitest';
import {
  effectiveMfaRequired,
  FREE_TEXT_CHARACTERS,
  MFA_REQUIRED_BY_DEPLOYMENT,
  mfaRequiredError,
  ORGANIZATION_NAME_MAX_LENGTH,
  ORGANIZATION_NAME_TOO_LONG,
  organizationNameError,
} from '../../../core/validation/general-settings';
import { FIELD_REQUIRED } from '../../../core/validation/generic';

describe('organization name', () => {
  it.each([
    ['', FIELD_REQUIRED],
    ['   ', FIELD_REQUIRED],
    [undefined, FIELD_REQUIRED],
    [42, FIELD_REQUIRED],
    ['<b>Acme</b>', FREE_TEXT_CHARACTERS],
    ['Acme & Co', FREE_TEXT_CHARACTERS],
    ['The "Best"', FREE_TEXT_CHARACTERS],
    ['Tab\there', FREE_TEXT_CHARACTERS],
    ['x'.repeat(ORGANIZATION_NAME_MAX_LENGTH + 1), ORGANIZATION_NAME_TOO_LONG],
  ])('refuses %j with "%s"', (value, message) => {
    expect(organizationNameError(value)).toBe(message);
  });

  it.each([
    'Acme',
    "O'Brien Security",
    '  Caracal Labs  ',
    'Sécurité Öffentlich 株式会社',
    'x'.repeat(ORGANIZATION_NAME_MAX_LENGTH),
  ])('accepts %j', (value) => {
    expect(organizationNameError(value)).toBeUndefined();
  });

  it('counts characters, not UTF-16 units', () => {
    expect(organizationNameError('🐆'.repeat(ORGANIZATION_NAME_MAX_LENGTH))).toBeUndefined();
    expect(ORGANIZATION_NAME_TOO_LONG).toBe('Must be at most 64 characters');
  });
});

describe('MFA required', () => {
  it('is required when the deployment or the organisation requires it', () => {
    expect(effectiveMfaRequired('REQUIRED', false)).toBe(true);
    expect(effectiveMfaRequired('OPTIONAL', true)).toBe(true);
    expect(effectiveMfaRequired('OPTIONAL', false)).toBe(false);
  });

  it('cannot be turned off when the deployment requires it, and must be a boolean', () => {
    expect(mfaRequiredError('REQUIRED', false)).toBe(MFA_REQUIRED_BY_DEPLOYMENT);
    expect(mfaRequiredError('REQUIRED', true)).toBeUndefined();
    expect(mfaRequiredError('OPTIONAL', false)).toBeUndefined();
    expect(mfaRequiredError('OPTIONAL', 'yes')).toBe('Must have a value');
  });
});
