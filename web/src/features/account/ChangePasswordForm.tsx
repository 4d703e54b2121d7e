import { Alert, Button, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { FIELD_REQUIRED } from '../../../../core/validation/generic';
import { AlertIcon } from '../../components/icons';
import { useAuthForm } from '../sign-in/useAuthForm';
import { NewPasswordFields, newPasswordErrors, type NewPasswordValue } from './NewPasswordFields';

export const UPDATE_PASSWORD_FAILED = 'Update password failed.';

/** The identity provider's own words: they say what was wrong with the current or the new password. */
function serverMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return 'An unknown error occurred';
}

interface ChangePasswordFormProps {
  readonly minLength: number;
  /** Changes the password (which signs the user out of every device). */
  readonly onChangePassword: (currentPassword: string, newPassword: string) => Promise<void>;
}

/** Change password: the current one, then a new one; success signs the user out of every device. */
export function ChangePasswordForm({ minLength, onChangePassword }: ChangePasswordFormProps) {
  const [current, setCurrent] = useState('');
  const [value, setValue] = useState<NewPasswordValue>({ password: '', confirmation: '' });
  const form = useAuthForm({
    errors: { current: current === '' ? FIELD_REQUIRED : undefined, ...newPasswordErrors(value, minLength) },
    submit: () => onChangePassword(current, value.password),
    describe: serverMessage,
  });

  return (
    <form onSubmit={form.onSubmit} noValidate aria-label="Change password">
      <Stack gap="sm">
        <div>
          <Title order={4}>Change password</Title>
          <Text size="sm" c="dimmed">
            Changing your password signs you out of every device, this one included.
          </Text>
        </div>
        {form.failure && (
          <Alert color="red" variant="light" icon={<AlertIcon size={18} />} title={UPDATE_PASSWORD_FAILED} role="alert">
            {form.failure}
          </Alert>
        )}
        <PasswordInput
          label="Current password"
          autoComplete="current-password"
          value={current}
          onChange={(event) => setCurrent(event.currentTarget.value)}
          {...form.fieldProps('current')}
        />
        <NewPasswordFields value={value} onChange={setValue} minLength={minLength} showErrors={form.submitted} />
        <Button type="submit" loading={form.submitting} disabled={form.blocked} mt="xs">
          Update password
        </Button>
      </Stack>
    </form>
  );
}
