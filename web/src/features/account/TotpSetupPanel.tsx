import { Anchor, Button, Center, CopyButton, Group, Loader, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { FormFailure } from '../../components/FormFailure';
import type { TotpSetup } from '../../lib/auth/AuthContext';
import { useAuthForm } from '../sign-in/useAuthForm';
import { TotpCodeInput, totpCodeError } from './TotpCodeInput';

/** The key in groups of four, as authenticator apps show it when typed in by hand. */
export function groupedSecret(secret: string): string {
  return secret.replace(/(.{4})/g, '$1 ').trim();
}

interface TotpSetupPanelProps {
  readonly heading: string;
  readonly intro: string;
  /** The secret and QR URI; null while they are being fetched. */
  readonly setup: TotpSetup | null;
  /** Why the setup could not start. */
  readonly loadError?: string;
  readonly submitLabel: string;
  /** Verifies a code from the new authenticator; throws to show why it failed. */
  readonly onVerify: (code: string) => Promise<void>;
  readonly onCancel?: () => void;
  readonly cancelLabel?: string;
}

/** Authenticator app setup: scan the QR code (or type the key), then prove it works with a code. */
export function TotpSetupPanel({
  heading,
  intro,
  setup,
  loadError,
  submitLabel,
  onVerify,
  onCancel,
  cancelLabel,
}: TotpSetupPanelProps) {
  const [code, setCode] = useState('');
  const form = useAuthForm({
    errors: { code: totpCodeError(code) },
    submit: () => onVerify(code),
    describe: 'totp',
    onFailure: () => setCode(''),
    ready: setup !== null,
  });

  return (
    <form onSubmit={form.onSubmit} noValidate aria-label={heading}>
      <Stack gap="md">
        <div>
          <Title order={3}>{heading}</Title>
          <Text c="dimmed" size="sm" mt={4}>
            {intro}
          </Text>
        </div>
        <FormFailure message={form.failure ?? loadError} />
        <Text size="sm">
          <Text span fw={600}>
            1.
          </Text>{' '}
          Scan this QR code with an authenticator app (such as 1Password, Google Authenticator or Microsoft Authenticator).
        </Text>
        <Center>
          <Paper p="sm" radius="md" bg="white" withBorder role="img" aria-label="QR code for your authenticator app">
            {setup ? (
              <QRCodeSVG value={setup.uri} size={168} level="M" />
            ) : (
              <Center w={168} h={168}>
                {!loadError && <Loader size="sm" color="gray" aria-label="Preparing your authenticator key" />}
              </Center>
            )}
          </Paper>
        </Center>
        {setup && (
          <Stack gap={4} align="center">
            <Text size="xs" c="dimmed">
              Can't scan it? Enter this key in the app instead:
            </Text>
            <Group gap="xs" wrap="nowrap">
              <Text ff="monospace" fw={600} size="sm" data-testid="totp-secret" style={{ wordBreak: 'break-all' }}>
                {groupedSecret(setup.secret)}
              </Text>
              <CopyButton value={setup.secret}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? 'Copied' : 'Copy key'} withArrow>
                    <Button size="compact-xs" variant="subtle" onClick={copy}>
                      {copied ? 'Copied' : 'Copy'}
                    </Button>
                  </Tooltip>
                )}
              </CopyButton>
            </Group>
          </Stack>
        )}
        <Text size="sm">
          <Text span fw={600}>
            2.
          </Text>{' '}
          Enter the 6-digit code the app shows.
        </Text>
        <TotpCodeInput value={code} onChange={setCode} error={form.shownError('code')} />
        <Button type="submit" fullWidth size="md" loading={form.submitting} disabled={form.blocked}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Anchor component="button" type="button" size="sm" ta="center" onClick={onCancel}>
            {cancelLabel ?? 'Cancel'}
          </Anchor>
        )}
      </Stack>
    </form>
  );
}
