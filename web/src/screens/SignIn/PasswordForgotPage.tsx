import { Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { usePageTitle } from '../../app/usePageTitle';
import { useWebConfig } from '../../app/webConfig';
import { useAuth } from '../../lib/auth/AuthContext';
import { describeSignInError } from '../../lib/auth/signInErrors';
import { emailError } from '../../features/sign-in/CredentialsForm';
import { SignInLayout } from '../../features/sign-in/SignInLayout';
import type { PasswordResetState } from './PasswordResetPage';
import { FormFailure } from '../../components/FormFailure';
import { SIGN_IN_ROUTES } from '../../app/routes';

/** /password-forgot/: the email of the account; a reset code goes there, then the reset screen asks for it. */
export function PasswordForgotPage() {
  usePageTitle('Forgot password');
  const auth = useAuth();
  const navigate = useNavigate();
  const { version, stage } = useWebConfig();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string>();
  const error = emailError(email);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (error || submitting) return;
    setSubmitting(true);
    setFailure(undefined);
    try {
      const destination = await auth.forgotPassword(email);
      const state: PasswordResetState = { email: email.trim(), destination };
      navigate(SIGN_IN_ROUTES.passwordReset, { state });
    } catch (caught) {
      setFailure(describeSignInError(caught, 'forgot-password'));
      setSubmitting(false);
    }
  };

  return (
    <SignInLayout footer={`Caracal ${version} · ${stage}`}>
      <form onSubmit={submit} noValidate aria-label="Forgot password">
        <Stack gap="md">
          <div>
            <Title order={3}>Forgot your password?</Title>
            <Text c="dimmed" size="sm" mt={4}>
              Enter the email address of your account and we'll send you a code to reset your password.
            </Text>
          </div>
          <FormFailure message={failure} />
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            placeholder="you@example.com"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            onBlur={() => setTouched(true)}
            error={touched && error}
            autoFocus
          />
          <Button type="submit" fullWidth size="md" loading={submitting} disabled={Boolean(error)}>
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
    </SignInLayout>
  );
}
