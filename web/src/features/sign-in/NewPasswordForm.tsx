import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { FormFailure } from '../../components/FormFailure';
import { NewPasswordFields, newPasswordErrors, type NewPasswordValue } from '../account/NewPasswordFields';
import { useAuthForm } from './useAuthForm';

interface NewPasswordFormProps {
  readonly minLength: number;
  /** Sets the new password; answers a problem to show when the next step cannot be taken. */
  readonly onSubmit: (password: string) => Promise<string | undefined>;
  /** Give up on this sign-in and start again with email and password. */
  readonly onCancel: () => void;
}

/** The NEW_PASSWORD_REQUIRED step: a first sign-in with a temporary password chooses a new one. */
export function NewPasswordForm({ minLength, onSubmit, onCancel }: NewPasswordFormProps) {
  const [value, setValue] = useState<NewPasswordValue>({ password: '', confirmation: '' });
  const form = useAuthForm({
    errors: newPasswordErrors(value, minLength),
    submit: () => onSubmit(value.password),
    describe: 'new-password',
  });

  return (
    <form onSubmit={form.onSubmit} noValidate aria-label="Set a new password">
      <Stack gap="md">
        <div>
          <Title order={3}>Set a new password</Title>
          <Text c="dimmed" size="sm" mt={4}>
            You signed in with a temporary password. Choose a new password to continue.
          </Text>
        </div>
        <FormFailure message={form.failure} />
        <NewPasswordFields value={value} onChange={setValue} minLength={minLength} showErrors={form.submitted} autoFocus />
        <Button type="submit" fullWidth size="md" mt="xs" loading={form.submitting} disabled={form.blocked}>
          Set password and sign in
        </Button>
        <Anchor component="button" type="button" size="sm" ta="center" onClick={onCancel}>
          Back to sign in
        </Anchor>
      </Stack>
    </form>
  );
}
