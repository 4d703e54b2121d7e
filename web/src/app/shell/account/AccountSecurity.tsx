import { Divider, Stack } from '@mantine/core';
import { AuthenticatorSection } from './AuthenticatorSection';
import { ChangePasswordForm } from '../../../features/account/ChangePasswordForm';

/**
 * The Account Security tab of the Profile Settings modal: change password (which signs out of every device)
 * and two-step verification with an authenticator app. Self-contained: it reads the signed-in user from auth.
 */
export function AccountSecurity() {
  return (
    <Stack gap="lg">
      <ChangePasswordForm />
      <Divider />
      <AuthenticatorSection />
    </Stack>
  );
}
