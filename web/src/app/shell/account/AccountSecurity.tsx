import { Divider, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ChangePasswordForm } from '../../../features/account/ChangePasswordForm';
import { useAuth } from '../../../lib/auth/AuthContext';
import { useWebConfig } from '../../webConfig';
import { AuthenticatorSection } from './AuthenticatorSection';

/**
 * The Account Security tab of the Profile Settings modal: change password (which signs out of every device)
 * and two-step verification with an authenticator app, for the signed-in user.
 */
export function AccountSecurity() {
  const auth = useAuth();
  const { passwordMinLength } = useWebConfig();
  const changePassword = async (currentPassword: string, newPassword: string) => {
    await auth.changePassword(currentPassword, newPassword);
    notifications.show({
      color: 'green',
      title: 'Password updated',
      message: 'You have been signed out of every device. Sign in again with your new password.',
    });
  };
  return (
    <Stack gap="lg">
      <ChangePasswordForm minLength={passwordMinLength} onChangePassword={changePassword} />
      <Divider />
      <AuthenticatorSection />
    </Stack>
  );
}
