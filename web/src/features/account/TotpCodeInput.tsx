import { TextInput } from '@mantine/core';

/** Six digits, or undefined when the code is well formed. */
export function totpCodeError(code: string): string | undefined {
  if (code.trim() === '') return 'This field is required';
  return /^\d{6}$/.test(code.trim()) ? undefined : 'Enter the 6-digit code';
}

interface TotpCodeInputProps {
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly error?: string | false;
  readonly autoFocus?: boolean;
}

/** The 6-digit code field of an authenticator app (numeric keypad, one-time-code autofill). */
export function TotpCodeInput({ value, onChange, error, autoFocus }: TotpCodeInputProps) {
  return (
    <TextInput
      label="Authentication code"
      description="The 6-digit code your authenticator app shows for Caracal"
      placeholder="123456"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value.replace(/\D/g, ''))}
      error={error}
      autoFocus={autoFocus}
      styles={{ input: { letterSpacing: '0.3em', fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 18 } }}
    />
  );
}
