import { PasswordInput, Stack } from '@mantine/core';
import { useState } from 'react';
import { confirmationError, passwordError } from '../../../../core/validation/password';
import { FIELD_REQUIRED } from '../../../../core/validation/generic';
import { PasswordRuleChecker } from './PasswordRuleChecker';
import { PasswordStrengthMeter } from './PasswordStrengthMeter';

export interface NewPasswordValue {
  readonly password: string;
  readonly confirmation: string;
}

interface NewPasswordFieldsProps {
  readonly value: NewPasswordValue;
  readonly onChange: (value: NewPasswordValue) => void;
  readonly minLength: number;
  /** Show errors for fields the person has not touched yet (after a submit). */
  readonly showErrors: boolean;
  readonly autoFocus?: boolean;
}

/** The errors of a new password and its confirmation, from core's password rule. */
export function newPasswordErrors({ password, confirmation }: NewPasswordValue, minLength: number) {
  return { password: passwordError(password, minLength), confirmation: confirmationError(password, confirmation) };
}

/**
 * Every new-password field of the app: the password with the live rule checker and strength meter, then its
 * confirmation ("Passwords must match").
 */
export function NewPasswordFields({ value, onChange, minLength, showErrors, autoFocus }: NewPasswordFieldsProps) {
  const errors = newPasswordErrors(value, minLength);
  const [touched, setTouched] = useState({ password: false, confirmation: false });
  const show = { password: showErrors || touched.password, confirmation: showErrors || touched.confirmation };
  return (
    <Stack gap="sm">
      <PasswordInput
        label="New password"
        autoComplete="new-password"
        value={value.password}
        onChange={(event) => onChange({ ...value, password: event.currentTarget.value })}
        onBlur={() => setTouched((current) => ({ ...current, password: true }))}
        error={show.password && (value.password === '' ? FIELD_REQUIRED : Boolean(errors.password))}
        autoFocus={autoFocus}
      />
      <PasswordStrengthMeter password={value.password} minLength={minLength} />
      <PasswordRuleChecker password={value.password} minLength={minLength} />
      <PasswordInput
        label="Confirm new password"
        autoComplete="new-password"
        value={value.confirmation}
        onChange={(event) => onChange({ ...value, confirmation: event.currentTarget.value })}
        onBlur={() => setTouched((current) => ({ ...current, confirmation: true }))}
        error={show.confirmation && errors.confirmation}
      />
    </Stack>
  );
}
