import { Alert, Anchor, Button, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { AlertIcon } from '../../components/icons';
import { useAuth } from '../../lib/auth/AuthContext';
import { describeSignInError } from '../../lib/auth/signInErrors';
import { confirmationError, FIELD_REQUIRED, passwordError } from '../../../../core/validation/password';
import { PasswordRuleChecker } from './PasswordRuleChecker';
import { unsupportedStepMessage } from './unsupportedStep';

interface NewPasswordFormProps {
  readonly minLength: number;
  /** Give up on this sign-in and start again with email and password. */
  readonly onCancel: () => void;
}

/** The NEW_PASSWORD_REQUIRED step: a first sign-in with a temporary password chooses a new one. */
export function NewPasswordForm({ minLength, onCancel }: NewPasswordFormProps) {
  const auth = useAuth();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [touched, setTouched] = useState({ password: false, confirmation: false });
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string>();

  const errors = {
    password: passwordError(password, minLength),
    confirmation: confirmationError(password, confirmation),
  };
  const invalid = Boolean(errors.password || errors.confirmation);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched({ password: true, confirmation: true });
    if (invalid || submitting) return;
    setSubmitting(true);
    setFailure(undefined);
    try {
      const outcome = await auth.completeNewPassword(password);
      if (outcome.kind === 'unsupported-step') setFailure(unsupportedStepMessage(outcome.step));
    } catch (error) {
      setFailure(describeSignInError(error, 'new-password'));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Set a new password">
      <Stack gap="md">
        <div>
          <Title order={3}>Set a new password</Title>
          <Text c="dimmed" size="sm" mt={4}>
            You signed in with a temporary password. Choose a new password to continue.
          </Text>
        </div>
        {failure && (
          <Alert color="red" variant="light" icon={<AlertIcon size={18} />} role="alert">
            {failure}
          </Alert>
        )}
        <PasswordInput
          label="New password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          onBlur={() => setTouched((current) => ({ ...current, password: true }))}
          error={touched.password && (password === '' ? FIELD_REQUIRED : Boolean(errors.password))}
          autoFocus
        />
        <PasswordRuleChecker password={password} minLength={minLength} />
        <PasswordInput
          label="Confirm new password"
          autoComplete="new-password"
          value={confirmation}
          onChange={(event) => setConfirmation(event.currentTarget.value)}
          onBlur={() => setTouched((current) => ({ ...current, confirmation: true }))}
          error={touched.confirmation && errors.confirmation}
        />
        <Button type="submit" fullWidth size="md" mt="xs" loading={submitting} disabled={invalid}>
          Set password and sign in
        </Button>
        <Anchor component="button" type="button" size="sm" ta="center" onClick={onCancel}>
          Back to sign in
        </Anchor>
      </Stack>
    </form>
  );
}
