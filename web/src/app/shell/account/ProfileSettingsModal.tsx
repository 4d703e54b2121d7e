import { Modal, Tabs } from '@mantine/core';
import { PROFILE_MODAL_WIDTH } from '../../constants';
import { AccountSecurity } from './AccountSecurity';
import { ProfileForm } from '../../../features/account/ProfileForm';

interface ProfileSettingsModalProps {
  readonly opened: boolean;
  readonly onClose: () => void;
  readonly user: { readonly givenName: string | null; readonly familyName: string | null };
}

/** The signed-in user's own settings: their name, and their password and authenticator (Account Security). */
export function ProfileSettingsModal({ opened, onClose, user }: ProfileSettingsModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} size={PROFILE_MODAL_WIDTH} title="Profile Settings" centered>
      <Tabs defaultValue="profile" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="profile">Profile Settings</Tabs.Tab>
          <Tabs.Tab value="security">Account Security</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="profile">
          <ProfileForm user={user} onSaved={onClose} />
        </Tabs.Panel>
        <Tabs.Panel value="security">
          <AccountSecurity />
        </Tabs.Panel>
      </Tabs>
    </Modal>
  );
}
