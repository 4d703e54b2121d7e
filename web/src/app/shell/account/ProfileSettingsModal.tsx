import { useMutation } from '@apollo/client/react';
import { Modal, Tabs } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ProfileForm } from '../../../features/account/ProfileForm';
import type { ProfileFormValues } from '../../../features/account/profileForm';
import { describeApiError } from '../../../lib/apollo/apiErrors';
import { SILENT } from '../../../lib/apollo/createApolloClient';
import { useAuth } from '../../../lib/auth/AuthContext';
import { PROFILE_MODAL_WIDTH } from '../../constants';
import { CURRENT_USER_QUERY } from '../shell.operations';
import { AccountSecurity } from './AccountSecurity';
import { UPDATE_PROFILE_MUTATION } from './profile.operations';

interface ProfileSettingsModalProps {
  readonly opened: boolean;
  readonly onClose: () => void;
  readonly user: { readonly givenName: string | null; readonly familyName: string | null };
}

/** The signed-in user's own settings: their name, and their password and authenticator (Account Security). */
export function ProfileSettingsModal({ opened, onClose, user }: ProfileSettingsModalProps) {
  const auth = useAuth();
  const [updateProfile] = useMutation(UPDATE_PROFILE_MUTATION, {
    context: SILENT,
    refetchQueries: [CURRENT_USER_QUERY],
    awaitRefetchQueries: true,
  });

  const saveProfile = async (input: ProfileFormValues) => {
    try {
      await updateProfile({ variables: { input } });
      notifications.show({ color: 'green', message: 'User profile updated successfully' });
      onClose();
      await auth.refreshUser().catch(() => undefined);
    } catch (error) {
      notifications.show({ color: 'red', title: 'Unable to update profile', message: describeApiError(error) });
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} size={PROFILE_MODAL_WIDTH} title="Profile Settings" centered>
      <Tabs defaultValue="profile" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="profile">Profile Settings</Tabs.Tab>
          <Tabs.Tab value="security">Account Security</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="profile">
          <ProfileForm user={user} onSave={saveProfile} />
        </Tabs.Panel>
        <Tabs.Panel value="security">
          <AccountSecurity />
        </Tabs.Panel>
      </Tabs>
    </Modal>
  );
}
