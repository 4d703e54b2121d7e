import { Anchor, Center } from '@mantine/core';
import { usePageTitle } from '../../app/usePageTitle';
import { useWebConfig } from '../../app/webConfig';
import { useAuth } from '../../lib/auth/AuthContext';
import { SignInLayout } from '../../features/sign-in/SignInLayout';
import { TotpSetupPanel } from '../../features/account/TotpSetupPanel';
import { useTotpSetup } from '../../lib/auth/useTotpSetup';

/**
 * Shown instead of the app to a signed-in user without an authenticator when the organisation requires MFA:
 * set one up (TOTP becomes the preferred MFA), then the app opens where the user was going.
 */
export function MfaSetupPage() {
  usePageTitle('Set up two-step verification');
  const auth = useAuth();
  const { version, stage } = useWebConfig();
  const { setup, error } = useTotpSetup();
  return (
    <SignInLayout footer={`Caracal ${version} · ${stage}`} wide>
      <TotpSetupPanel
        heading="Set up two-step verification"
        intro="Your organisation requires two-step verification. Set up an authenticator app to continue to Caracal."
        setup={setup}
        loadError={error}
        submitLabel="Verify and continue"
        onVerify={auth.verifyTotpSetup}
      />
      <Center mt="md">
        <Anchor component="button" type="button" size="sm" onClick={() => void auth.signOut().catch(() => undefined)}>
          Sign out
        </Anchor>
      </Center>
    </SignInLayout>
  );
}
