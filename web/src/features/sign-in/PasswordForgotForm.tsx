import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { SIGN_IN_ROUTES } from '../../app/routes';
import { FormFailure } from '../../components/FormFailure';
import { EmailField, emailError } from './CredentialsForm';
import { useAuthForm } from './useAuthForm';

/** Asks for a password reset code to be sent to an account's email. */
export function PasswordForgotForm({ onSubmit }: { readonly onSubmit: (email: string) => Promise<void> }) {
  const [email, setEmail] = useState('');
  const form = useAuthForm({
    errors: { email: emailError(email) },
    submit: () => onSubmit(email),
    describe: 'forgot-password',
  });

  return (
    <form onSubmit={form.onSubmit} noValidate aria-label="Forgot password">
      <Stack gap="md">
        <div>
          <Title order={3}>Forgot your password?</Title>
          <Text c="dimmed" size="sm" mt={4}>
            Enter the email address of your account and we'll send you a code to reset your password.
          </Text>
        </div>
        <FormFailure message={form.failure} />
        <EmailField value={email} onChange={setEmail} {...form.fieldProps('email')} placeholder="you@example.com" autoFocus />
        <Button type="submit" fullWidth size="md" loading={form.submitting} disabled={form.blocked}>
          Send reset code
        </Button>
        <Text size="sm" ta="center">
          <Anchor component={Link} to={SIGN_IN_ROUTES.passwordReset} size="sm">
            I already have a code
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
