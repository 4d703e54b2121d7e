import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { SignInLocationState } from '../../app/guards';
import { usePageTitle } from '../../app/usePageTitle';
import { useWebConfig } from '../../app/webConfig';
import { CheckIcon } from '../../components/icons';
import { useAuth } from '../../lib/auth/AuthContext';
import { describeSignInError } from '../../lib/auth/signInErrors';
import { FIELD_REQUIRED } from '../../../../core/validation/generic';
import { emailError } from '../../features/sign-in/CredentialsForm';
import { NewPasswordFields, newPasswordErrors, type NewPasswordValue } from '../../features/account/NewPasswordFields';
import { SignInLayout } from '../../features/sign-in/SignInLayout';
import { FormFailure } from '../../components/FormFailure';
import { SIGN_IN_ROUTES } from '../../app/routes';

/** What the forgot-password screen hands over: the email, and where the code went (masked). */
export interface PasswordResetState {
  readonly email?: string;
  readonly destination?: string;
}

export const PASSWORD_RESET_NOTICE = 'Your password has been reset. Sign in with your new password.';

/** /password-reset/: the email, the code that was sent to it, and a new password. */
export function PasswordResetPage() {
  usePageTitle('Reset password');
  const auth = useAuth();
  const navigate = useNavigate();
  const handedOver = (useLocation().state as PasswordResetState | null) ?? {};
  const { version, stage, passwordMinLength } = useWebConfig();
  const [email, setEmail] = useState(handedOver.email ?? '');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState<NewPasswordValue>({ password: '', confirmation: '' });
  const [touched, setTouched] = useState({ email: false, code: false });
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string>();

  const passwordErrors = newPasswordErrors(password, passwordMinLength);
  const errors = {
    email: emailError(email),
    code: code.trim() === '' ? FIELD_REQUIRED : undefined,
  };
  const invalid = Boolean(errors.email || errors.code || passwordErrors.password || passwordErrors.confirmation);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (invalid || submitting) return;
    setSubmitting(true);
    setFailure(undefined);
    try {
      await auth.resetPassword(email, code, password.password);
      const state: SignInLocationState = { notice: PASSWORD_RESET_NOTICE };
      navigate(SIGN_IN_ROUTES.signIn, { state });
    } catch (caught) {
      setFailure(describeSignInError(caught, 'reset-password'));
      setSubmitting(false);
    }
  };

  return (
    <SignInLayout footer={`Caracal ${version} · ${stage}`}>
      <form onSubmit={submit} noValidate aria-label="Reset password">
        <Stack gap="md">
          <div>
            <Title order={3}>Reset your password</Title>
            <Text c="dimmed" size="sm" mt={4}>
              Enter the code we emailed you and choose a new password.
            </Text>
            {stage === 'local' && (
              <Text c="dimmed" size="xs" mt={4}>
                Running locally: emails land in the{' '}
                <Anchor href="/local/mailbox" target="_blank" size="xs">
                  local mailbox
                </Anchor>
                .
              </Text>
            )}
          </div>
          {handedOver.email && !failure && (
            <Alert color="green" variant="light" icon={<CheckIcon size={18} />}>
              If an account exists for {handedOver.email}, a code is on its way
              {handedOver.destination ? ` to ${handedOver.destination}` : ''}.
            </Alert>
          )}
          <FormFailure message={failure} />
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            onBlur={() => setTouched((current) => ({ ...current, email: true }))}
            error={(submitted || touched.email) && errors.email}
            autoFocus={!handedOver.email}
          />
          <TextInput
            label="Code"
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder="123456"
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            onBlur={() => setTouched((current) => ({ ...current, code: true }))}
            error={(submitted || touched.code) && errors.code}
            autoFocus={Boolean(handedOver.email)}
          />
          <NewPasswordFields value={password} onChange={setPassword} minLength={passwordMinLength} showErrors={submitted} />
          <Button type="submit" fullWidth size="md" loading={submitting} disabled={invalid}>
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
    </SignInLayout>
  );
}
