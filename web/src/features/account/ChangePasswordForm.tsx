import { Alert, Button, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { useWebConfig } from '../../app/webConfig';
import { AlertIcon } from '../../components/icons';
import { useAuth } from '../../lib/auth/AuthContext';
import { FIELD_REQUIRED } from '../../../../core/validation/generic';
import { NewPasswordFields, newPasswordErrors, type NewPasswordValue } from './NewPasswordFields';

export const UPDATE_PASSWORD_FAILED = 'Update password failed.';

function serverMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return 'An unknown error occurred';
}

/** Change password: the current one, then a new one; success signs the user out of every device. */
export function ChangePasswordForm() {
  const auth = useAuth();
  const { passwordMinLength } = useWebConfig();
  const [current, setCurrent] = useState('');
  const [value, setValue] = useState<NewPasswordValue>({ password: '', confirmation: '' });
  const [touched, setTouched] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string>();
  const errors = { current: current === '' ? FIELD_REQUIRED : undefined, ...newPasswordErrors(value, passwordMinLength) };
  const invalid = Boolean(errors.current || errors.password || errors.confirmation);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (invalid || submitting) return;
    setSubmitting(true);
    setFailure(undefined);
    try {
      await auth.changePassword(current, value.password);
      notifications.show({
        color: 'green',
        title: 'Password updated',
        message: 'You have been signed out of every device. Sign in again with your new password.',
      });
    } catch (error) {
      setFailure(serverMessage(error));
      setSubmitting(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Change password">
      <Stack gap="sm">
        <div>
          <Title order={4}>Change password</Title>
          <Text size="sm" c="dimmed">
            Changing your password signs you out of every device, this one included.
          </Text>
        </div>
        {failure && (
          <Alert color="red" variant="light" icon={<AlertIcon size={18} />} title={UPDATE_PASSWORD_FAILED} role="alert">
            {failure}
          </Alert>
        )}
        <PasswordInput
          label="Current password"
          autoComplete="current-password"
          value={current}
          onChange={(event) => setCurrent(event.currentTarget.value)}
          onBlur={() => setTouched(true)}
          error={(submitted || touched) && errors.current}
        />
        <NewPasswordFields value={value} onChange={setValue} minLength={passwordMinLength} showErrors={submitted} />
        <Button type="submit" loading={submitting} disabled={invalid} mt="xs">
          Update password
        </Button>
      </Stack>
    </form>
  );
}
