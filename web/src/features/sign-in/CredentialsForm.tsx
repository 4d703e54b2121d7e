import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { FIELD_REQUIRED } from '../../../../core/validation/generic';
import { SIGN_IN_ROUTES } from '../../app/routes';
import { FormFailure } from '../../components/FormFailure';
import { AlertIcon } from '../../components/icons';
import { useAuthForm } from './useAuthForm';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The email field's error: required, then "Must be a valid email". */
export function emailError(email: string): string | undefined {
  if (email.trim() === '') return FIELD_REQUIRED;
  return EMAIL.test(email.trim()) ? undefined : 'Must be a valid email';
}

interface EmailFieldProps {
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly onBlur: () => void;
  readonly error: string | false | undefined;
  readonly placeholder?: string;
  readonly autoFocus?: boolean;
}

/** The account's email, as every form of the sign-in family asks for it. */
export function EmailField({ value, onChange, ...props }: EmailFieldProps) {
  return (
    <TextInput
      label="Email"
      type="email"
      autoComplete="username"
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      {...props}
    />
  );
}

interface CredentialsFormProps {
  /** The heading: "Sign in", or "Support sign in" for support staff. */
  readonly title: string;
  readonly subtitle: string;
  /** A notice above the form, such as an expired session. */
  readonly notice?: string;
  /** Signs in; answers a problem to show when the next step cannot be taken. */
  readonly onSubmit: (email: string, password: string) => Promise<string | undefined>;
}

/** Step one of signing in: email and password. */
export function CredentialsForm({ title, subtitle, notice, onSubmit }: CredentialsFormProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useAuthForm({
    errors: { email: emailError(email), password: password === '' ? FIELD_REQUIRED : undefined },
    submit: () => onSubmit(email, password),
    describe: 'credentials',
  });

  return (
    <form onSubmit={form.onSubmit} noValidate aria-label={title}>
      <Stack gap="md">
        <div>
          <Title order={3}>{title}</Title>
          <Text c="dimmed" size="sm" mt={4}>
            {subtitle}
          </Text>
        </div>
        {notice && !form.failure && (
          <Alert color="yellow" variant="light" icon={<AlertIcon size={18} />}>
            {notice}
          </Alert>
        )}
        <FormFailure message={form.failure} />
        <EmailField value={email} onChange={setEmail} {...form.fieldProps('email')} placeholder="you@example.com" autoFocus />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          placeholder="Your password"
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          {...form.fieldProps('password')}
        />
        <Group justify="flex-end" mt={-8}>
          <Anchor component={Link} to={SIGN_IN_ROUTES.passwordForgot} size="sm">
            Forgot your password?
          </Anchor>
        </Group>
        <Button type="submit" fullWidth size="md" loading={form.submitting} disabled={form.blocked}>
          Sign in
        </Button>
      </Stack>
    </form>
  );
}
