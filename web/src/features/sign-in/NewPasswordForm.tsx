import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useAuth, type SignInOutcome } from '../../lib/auth/AuthContext';
import { describeSignInError } from '../../lib/auth/signInErrors';
import { NewPasswordFields, newPasswordErrors, type NewPasswordValue } from '../account/NewPasswordFields';
import { FormFailure } from '../../components/FormFailure';

interface NewPasswordFormProps {
  readonly minLength: number;
  /** What the identity provider asks next; answers a problem to show when the step cannot be taken. */
  readonly onOutcome: (outcome: SignInOutcome) => string | undefined;
  /** Give up on this sign-in and start again with email and password. */
  readonly onCancel: () => void;
}

/** The NEW_PASSWORD_REQUIRED step: a first sign-in with a temporary password chooses a new one. */
export function NewPasswordForm({ minLength, onOutcome, onCancel }: NewPasswordFormProps) {
  const auth = useAuth();
  const [value, setValue] = useState<NewPasswordValue>({ password: '', confirmation: '' });
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string>();
  const errors = newPasswordErrors(value, minLength);
  const invalid = Boolean(errors.password || errors.confirmation);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (invalid || submitting) return;
    setSubmitting(true);
    setFailure(undefined);
    try {
      const problem = onOutcome(await auth.completeNewPassword(value.password));
      if (problem) setFailure(problem);
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
        <FormFailure message={failure} />
        <NewPasswordFields value={value} onChange={setValue} minLength={minLength} showErrors={submitted} autoFocus />
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
