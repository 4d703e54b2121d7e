import { Alert, Badge, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { CheckIcon } from '../../../components/icons';
import { useAuth } from '../../../lib/auth/AuthContext';
import { TotpSetupPanel } from '../../../features/account/TotpSetupPanel';
import { useTotpSetup } from '../../../lib/auth/useTotpSetup';

type Status = 'checking' | 'on' | 'off';

interface SetUpProps {
  /** An authenticator is set up already: starting over disconnects it at once. */
  readonly replacing: boolean;
  readonly onDone: () => void;
  readonly onCancel: () => void;
}

function SetUp({ replacing, onDone, onCancel }: SetUpProps) {
  const { verifyTotpSetup } = useAuth();
  const { setup, error } = useTotpSetup();
  return (
    <TotpSetupPanel
      heading="Set up an authenticator app"
      intro={
        replacing
          ? 'Your previous authenticator has stopped working. Until you verify the new one, signing in needs only your password.'
          : 'Once set up, signing in asks for a code from the app after your password.'
      }
      setup={setup}
      loadError={error}
      submitLabel="Verify and turn on"
      onVerify={async (code) => {
        await verifyTotpSetup(code);
        onDone();
      }}
      onCancel={onCancel}
    />
  );
}

/** Two-step verification with an authenticator app (TOTP): whether it is on, and setting it up. */
export function AuthenticatorSection() {
  const { totpEnabled } = useAuth();
  const [status, setStatus] = useState<Status>('checking');
  const [settingUp, setSettingUp] = useState(false);
  const [justEnabled, setJustEnabled] = useState(false);

  useEffect(() => {
    let current = true;
    totpEnabled().then((enabled) => current && setStatus(enabled ? 'on' : 'off'));
    return () => {
      current = false;
    };
  }, [totpEnabled]);

  if (settingUp) {
    return (
      <SetUp
        replacing={status === 'on'}
        onDone={() => {
          setSettingUp(false);
          setStatus('on');
          setJustEnabled(true);
        }}
        onCancel={() => {
          setSettingUp(false);
          if (status === 'on') setStatus('off');
        }}
      />
    );
  }

  return (
    <Stack gap="sm" aria-label="Two-step verification">
      <Group justify="space-between" wrap="nowrap">
        <Title order={4}>Two-step verification</Title>
        {status === 'checking' ? (
          <Loader size="xs" aria-label="Checking two-step verification" />
        ) : (
          <Badge color={status === 'on' ? 'green' : 'gray'} variant="light">
            {status === 'on' ? 'On' : 'Off'}
          </Badge>
        )}
      </Group>
      {justEnabled && (
        <Alert color="green" variant="light" icon={<CheckIcon size={18} />}>
          Two-step verification is on. Next time you sign in, enter a code from your authenticator app.
        </Alert>
      )}
      <Text size="sm" c="dimmed">
        {status === 'on'
          ? 'Signing in asks for a code from your authenticator app after your password.'
          : 'Protect your account with a code from an authenticator app each time you sign in.'}
      </Text>
      <Group>
        <Button variant="default" disabled={status === 'checking'} onClick={() => setSettingUp(true)}>
          {status === 'on' ? 'Replace authenticator' : 'Set up authenticator'}
        </Button>
      </Group>
    </Stack>
  );
}
