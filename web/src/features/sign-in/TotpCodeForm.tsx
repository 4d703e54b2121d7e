import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { FormFailure } from '../../components/FormFailure';
import { TotpCodeInput, totpCodeError } from '../account/TotpCodeInput';
import { useAuthForm } from './useAuthForm';

interface TotpCodeFormProps {
  /** Answers the challenge; answers a problem to show when the next step cannot be taken. */
  readonly onSubmit: (code: string) => Promise<string | undefined>;
  readonly onCancel: () => void;
}

/** The SOFTWARE_TOKEN_MFA step: the current code from the user's authenticator app. */
export function TotpCodeForm({ onSubmit, onCancel }: TotpCodeFormProps) {
  const [code, setCode] = useState('');
  const form = useAuthForm({
    errors: { code: totpCodeError(code) },
    submit: () => onSubmit(code),
    describe: 'totp',
    onFailure: () => setCode(''),
  });

  return (
    <form onSubmit={form.onSubmit} noValidate aria-label="Enter your authentication code">
      <Stack gap="md">
        <div>
          <Title order={3}>Two-step verification</Title>
          <Text c="dimmed" size="sm" mt={4}>
            Open your authenticator app and enter the code it shows for Caracal.
          </Text>
        </div>
        <FormFailure message={form.failure} />
        <TotpCodeInput value={code} onChange={setCode} error={form.shownError('code')} autoFocus />
        <Button type="submit" fullWidth size="md" loading={form.submitting} disabled={form.blocked}>
          Verify and sign in
        </Button>
        <Anchor component="button" type="button" size="sm" ta="center" onClick={onCancel}>
          Back to sign in
        </Anchor>
      </Stack>
    </form>
  );
}
