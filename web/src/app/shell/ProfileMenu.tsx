import { Avatar, Group, Menu, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@apollo/client/react';
import { lazy, Suspense, useState } from 'react';
import { LogOutIcon, UserIcon } from '../../components/icons';
import { useAuth } from '../../lib/auth/AuthContext';
import { displayName, initials } from '../../lib/auth/sessionUser';
import { LOG_OUT_DEBOUNCE_MS } from '../constants';
import { useWebConfig } from '../webConfig';
import { CURRENT_USER_QUERY } from './shell.operations';
import { isSingleSignOnUser, useMissingAttributesWarning } from './singleSignOn';

/** The signed-in user's menu: who they are, their role, Profile Settings, Log Out and the product version. */
// The profile and security modal (formik, yup, the authenticator's QR code) loads when first opened.
const ProfileSettingsModal = lazy(async () => ({
  default: (await import('./account/ProfileSettingsModal')).ProfileSettingsModal,
}));

export function ProfileMenu() {
  const auth = useAuth();
  const { version } = useWebConfig();
  const { data } = useQuery(CURRENT_USER_QUERY, { fetchPolicy: 'cache-first' });
  const [profileOpened, setProfileOpened] = useState(false);
  // Mounted from the first opening on (so it keeps its state and closing animation after).
  const [profileWanted, setProfileWanted] = useState(false);
  if (profileOpened && !profileWanted) setProfileWanted(true);
  useMissingAttributesWarning(data?.me);
  const logOut = useDebouncedCallback(() => {
    auth.signOut().catch(() => {
      notifications.show({
        color: 'red',
        title: 'Failed to Log Out',
        message: 'We were unable to log you out at this time',
      });
    });
  }, LOG_OUT_DEBOUNCE_MS);

  if (auth.state.status !== 'authenticated') return null;
  const me = data?.me;
  // The API's answer is fresh (a profile change shows at once); the session's claims stand in until it arrives.
  const person = {
    email: me?.email ?? auth.state.user.email,
    givenName: (me ? me.givenName : auth.state.user.givenName) ?? undefined,
    familyName: (me ? me.familyName : auth.state.user.familyName) ?? undefined,
  };
  const name = displayName(person);
  const roleName = me ? (me.role?.name ?? 'No role') : auth.state.user.roles.join(', ');
  const singleSignOn = me ? isSingleSignOnUser(me) : false;

  const profileItem = (
    <Menu.Item leftSection={<UserIcon size={16} />} disabled={!me || singleSignOn} onClick={() => setProfileOpened(true)}>
      Profile Settings
    </Menu.Item>
  );

  return (
    <>
      <Menu position="bottom-end" width={260} shadow="md" withinPortal>
        <Menu.Target>
          <UnstyledButton aria-label="Profile menu">
            <Avatar color="caracal" radius="xl" size={36}>
              {initials(person)}
            </Avatar>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Group gap="sm" p="sm" wrap="nowrap">
            <Avatar color="caracal" radius="xl">
              {initials(person)}
            </Avatar>
            <div style={{ minWidth: 0 }}>
              <Text fw={600} size="sm" truncate>
                {name}
              </Text>
              {name !== person.email && (
                <Text c="dimmed" size="xs" truncate>
                  {person.email}
                </Text>
              )}
              <Text c="dimmed" size="xs" truncate>
                {roleName}
              </Text>
            </div>
          </Group>
          <Menu.Divider />
          {singleSignOn ? (
            <Tooltip label="Your name comes from your identity provider" position="left">
              <div>{profileItem}</div>
            </Tooltip>
          ) : (
            profileItem
          )}
          <Menu.Item leftSection={<LogOutIcon size={16} />} onClick={logOut}>
            Log Out
          </Menu.Item>
          <Menu.Divider />
          <Text c="dimmed" size="xs" px="sm" py={6}>
            Caracal {version}
          </Text>
        </Menu.Dropdown>
      </Menu>
      {me && profileWanted && (
        <Suspense fallback={null}>
          <ProfileSettingsModal opened={profileOpened} onClose={() => setProfileOpened(false)} user={me} />
        </Suspense>
      )}
    </>
  );
}
