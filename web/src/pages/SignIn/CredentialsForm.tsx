import { Alert, Button, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { AlertIcon } from '../../components/icons';
import { useAuth, type SignInOutcome } from '../../lib/auth/AuthContext';
import { describeSignInError } from '../../lib/auth/signInErrors';
import { FIELD_REQUIRED } from '../../../../core/validation/password';
import { unsupportedStepMessage } from './unsupportedStep';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function emailError(email: string): string | undefined {
  if (email.trim() === '') return FIELD_REQUIRED;
  return EMAIL.test(email.trim()) ? undefined : 'Must be a valid email';
}

interface CredentialsFormProps {
  /** A notice above the form, such as an expired session. */
  readonly notice?: string;
  /** The identity provider asks for a new password before the sign-in completes. */
  readonly onNewPasswordRequired: () => void;
}

/** Step one of signing in: email and password. */
export function CredentialsForm({ notice, onNewPasswordRequired }: CredentialsFormProps) {
  const auth = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState({ email: false, password: false });
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string>();

  const errors = { email: emailError(email), password: password === '' ? FIELD_REQUIRED : undefined };
  const invalid = Boolean(errors.email || errors.password);

  const follow = (outcome: SignInOutcome) => {
    if (outcome.kind === 'new-password-required') onNewPasswordRequired();
    if (outcome.kind === 'unsupported-step') setFailure(unsupportedStepMessage(outcome.step));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched({ email: true, password: true });
    if (invalid || submitting) return;
    setSubmitting(true);
    setFailure(undefined);
    try {
      follow(await auth.signIn(email, password));
    } catch (error) {
      setFailure(describeSignInError(error, 'credentials'));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Sign in">
      <Stack gap="md">
        <div>
          <Title order={3}>Sign in</Title>
          <Text c="dimmed" size="sm" mt={4}>
            Welcome back. Sign in to your security workspace.
          </Text>
        </div>
        {notice && !failure && (
          <Alert color="yellow" variant="light" icon={<AlertIcon size={18} />}>
            {notice}
          </Alert>
        )}
        {failure && (
          <Alert color="red" variant="light" icon={<AlertIcon size={18} />} role="alert">
            {failure}
          </Alert>
        )}
        <TextInput
          label="Email"
          type="email"
          autoComplete="username"
          placeholder="you@example.com"
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          onBlur={() => setTouched((current) => ({ ...current, email: true }))}
          error={touched.email && errors.email}
          autoFocus
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          placeholder="Your password"
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          onBlur={() => setTouched((current) => ({ ...current, password: true }))}
          error={touched.password && errors.password}
        />
        <Button type="submit" fullWidth size="md" mt="xs" loading={submitting} disabled={invalid}>
          Sign in
        </Button>
      </Stack>
    </form>
  );
}
