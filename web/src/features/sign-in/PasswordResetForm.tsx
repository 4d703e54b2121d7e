import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { FIELD_REQUIRED } from '../../../../core/validation/generic';
import { SIGN_IN_ROUTES } from '../../app/routes';
import { FormFailure } from '../../components/FormFailure';
import { CheckIcon } from '../../components/icons';
import { NewPasswordFields, newPasswordErrors, type NewPasswordValue } from '../account/NewPasswordFields';
import { EmailField, emailError } from './CredentialsForm';
import { useAuthForm } from './useAuthForm';

/** What the forgot-password screen hands over: the email, and where the code went (masked). */
export interface PasswordResetState {
  readonly email?: string;
  readonly destination?: string;
}

/** The local runtime keeps what Cognito would email in its mailbox. */
const LOCAL_MAILBOX_URL = '/local/mailbox';

interface PasswordResetFormProps {
  readonly handedOver: PasswordResetState;
  readonly minLength: number;
  /** Running locally: the emailed code is in the local mailbox. */
  readonly local: boolean;
  readonly onSubmit: (email: string, code: string, newPassword: string) => Promise<void>;
}

/** The email, the code that was sent to it, and a new password. */
export function PasswordResetForm({ handedOver, minLength, local, onSubmit }: PasswordResetFormProps) {
  const [email, setEmail] = useState(handedOver.email ?? '');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState<NewPasswordValue>({ password: '', confirmation: '' });
  const form = useAuthForm({
    errors: {
      email: emailError(email),
      code: code.trim() === '' ? FIELD_REQUIRED : undefined,
      ...newPasswordErrors(password, minLength),
    },
    submit: () => onSubmit(email, code, password.password),
    describe: 'reset-password',
  });

  return (
    <form onSubmit={form.onSubmit} noValidate aria-label="Reset password">
      <Stack gap="md">
        <div>
          <Title order={3}>Reset your password</Title>
          <Text c="dimmed" size="sm" mt={4}>
            Enter the code we emailed you and choose a new password.
          </Text>
          {local && (
            <Text c="dimmed" size="xs" mt={4}>
              Running locally: emails land in the{' '}
              <Anchor href={LOCAL_MAILBOX_URL} target="_blank" size="xs">
                local mailbox
              </Anchor>
              .
            </Text>
          )}
        </div>
        {handedOver.email && !form.failure && (
          <Alert color="green" variant="light" icon={<CheckIcon size={18} />}>
            If an account exists for {handedOver.email}, a code is on its way
            {handedOver.destination ? ` to ${handedOver.destination}` : ''}.
          </Alert>
        )}
        <FormFailure message={form.failure} />
        <EmailField value={email} onChange={setEmail} {...form.fieldProps('email')} autoFocus={!handedOver.email} />
        <TextInput
          label="Code"
          inputMode="numeric"
          autoComplete="one-time-code"
          placeholder="123456"
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
          {...form.fieldProps('code')}
          autoFocus={Boolean(handedOver.email)}
        />
        <NewPasswordFields value={password} onChange={setPassword} minLength={minLength} showErrors={form.submitted} />
        <Button type="submit" fullWidth size="md" loading={form.submitting} disabled={form.blocked}>
          Reset password
        </Button>
        <Text size="sm" ta="center">
          <Anchor component={Link} to={SIGN_IN_ROUTES.passwordForgot} size="sm">
            Send a new code
          </Anchor>
          {' · '}
          <Anchor component={Link} to={SIGN_IN_ROUTES.signIn} size="sm">
            Back to sign in
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
