import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { usePageTitle } from '../../app/usePageTitle';
import { useWebConfig } from '../../app/webConfig';
import { ShieldIcon } from '../../components/icons';
import { SignInLayout } from '../../features/sign-in/SignInLayout';
import { SIGN_IN_ROUTES } from '../../app/routes';

/**
 * /oauth/: where the identity provider returns after single sign-on. This deployment has no single sign-on
 * configured, so the page says so and leads back to signing in with email and password.
 */
export function OAuthPage() {
  usePageTitle('Single sign-on');
  const { version, stage } = useWebConfig();
  return (
    <SignInLayout footer={`Caracal ${version} · ${stage}`}>
      <Stack gap="md">
        <div>
          <Title order={3}>Single sign-on</Title>
          <Text c="dimmed" size="sm" mt={4}>
            This page completes a sign-in through your organisation's identity provider.
          </Text>
        </div>
        <Alert color="blue" variant="light" icon={<ShieldIcon size={18} />} title="Single sign-on is not configured">
          This Caracal deployment does not have single sign-on set up, so there is no sign-in to complete here. Sign in with your
          email and password instead, or ask your administrator about single sign-on.
        </Alert>
        <Anchor component={Link} to={SIGN_IN_ROUTES.signIn} ta="center" size="sm">
          Back to sign in
        </Anchor>
      </Stack>
    </SignInLayout>
  );
}
