import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { AlertIcon } from '../../components/icons';
import { useAuth, type SignInOutcome } from '../../lib/auth/AuthContext';
import { describeSignInError } from '../../lib/auth/signInErrors';
import { FIELD_REQUIRED } from '../../../../core/validation/generic';
import { FormFailure } from '../../components/FormFailure';
import { SIGN_IN_ROUTES } from '../../app/routes';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The email field's error: required, then "Must be a valid email". */
export function emailError(email: string): string | undefined {
  if (email.trim() === '') return FIELD_REQUIRED;
  return EMAIL.test(email.trim()) ? undefined : 'Must be a valid email';
}

interface CredentialsFormProps {
  /** The heading: "Sign in", or "Support sign in" for support staff. */
  readonly title: string;
  readonly subtitle: string;
  /** A notice above the form, such as an expired session. */
  readonly notice?: string;
  /** What the identity provider asks next; answers a problem to show when the step cannot be taken. */
  readonly onOutcome: (outcome: SignInOutcome) => string | undefined;
}

/** Step one of signing in: email and password. */
export function CredentialsForm({ title, subtitle, notice, onOutcome }: CredentialsFormProps) {
  const auth = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState({ email: false, password: false });
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string>();

  const errors = { email: emailError(email), password: password === '' ? FIELD_REQUIRED : undefined };
  const invalid = Boolean(errors.email || errors.password);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched({ email: true, password: true });
    if (invalid || submitting) return;
    setSubmitting(true);
    setFailure(undefined);
    try {
      const problem = onOutcome(await auth.signIn(email, password));
      if (problem) setFailure(problem);
    } catch (error) {
      setFailure(describeSignInError(error, 'credentials'));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label={title}>
      <Stack gap="md">
        <div>
          <Title order={3}>{title}</Title>
          <Text c="dimmed" size="sm" mt={4}>
            {subtitle}
          </Text>
        </div>
        {notice && !failure && (
          <Alert color="yellow" variant="light" icon={<AlertIcon size={18} />}>
            {notice}
          </Alert>
        )}
        <FormFailure message={failure} />
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
        <Group justify="flex-end" mt={-8}>
          <Anchor component={Link} to={SIGN_IN_ROUTES.passwordForgot} size="sm">
            Forgot your password?
          </Anchor>
        </Group>
        <Button type="submit" fullWidth size="md" loading={submitting} disabled={invalid}>
          Sign in
        </Button>
      </Stack>
    </form>
  );
}
