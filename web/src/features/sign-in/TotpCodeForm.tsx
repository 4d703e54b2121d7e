import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useAuth } from '../../lib/auth/AuthContext';
import { describeSignInError } from '../../lib/auth/signInErrors';
import { TotpCodeInput, totpCodeError } from '../account/TotpCodeInput';
import { unsupportedStepMessage } from './unsupportedStep';
import { FormFailure } from '../../components/FormFailure';

interface TotpCodeFormProps {
  readonly onCancel: () => void;
}

/** The SOFTWARE_TOKEN_MFA step: the current code from the user's authenticator app. */
export function TotpCodeForm({ onCancel }: TotpCodeFormProps) {
  const auth = useAuth();
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string>();
  const error = totpCodeError(code);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (error || submitting) return;
    setSubmitting(true);
    setFailure(undefined);
    try {
      const outcome = await auth.confirmTotp(code);
      if (outcome.kind === 'unsupported-step') setFailure(unsupportedStepMessage(outcome.step));
    } catch (caught) {
      setFailure(describeSignInError(caught, 'totp'));
      setCode('');
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Enter your authentication code">
      <Stack gap="md">
        <div>
          <Title order={3}>Two-step verification</Title>
          <Text c="dimmed" size="sm" mt={4}>
            Open your authenticator app and enter the code it shows for Caracal.
          </Text>
        </div>
        <FormFailure message={failure} />
        <TotpCodeInput value={code} onChange={setCode} error={touched && error} autoFocus />
        <Button type="submit" fullWidth size="md" loading={submitting} disabled={Boolean(error)}>
          Verify and sign in
        </Button>
        <Anchor component="button" type="button" size="sm" ta="center" onClick={onCancel}>
          Back to sign in
        </Anchor>
      </Stack>
    </form>
  );
}
