import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { LogOutIcon } from '../../components/icons';
import { useAuth } from '../../lib/auth/AuthContext';
import { displayName, initials } from '../../lib/auth/sessionUser';
import { LOG_OUT_DEBOUNCE_MS } from '../constants';
import { useWebConfig } from '../webConfig';

/** The signed-in user's menu: who they are, their roles, Log Out and the product version. */
export function ProfileMenu() {
  const auth = useAuth();
  const { version } = useWebConfig();
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
  const { user } = auth.state;
  const name = displayName(user);

  return (
    <Menu position="bottom-end" width={260} shadow="md" withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label="Profile menu">
          <Avatar color="caracal" radius="xl" size={36}>
            {initials(user)}
          </Avatar>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Group gap="sm" p="sm" wrap="nowrap">
          <Avatar color="caracal" radius="xl">
            {initials(user)}
          </Avatar>
          <div style={{ minWidth: 0 }}>
            <Text fw={600} size="sm" truncate>
              {name}
            </Text>
            {name !== user.email && (
              <Text c="dimmed" size="xs" truncate>
                {user.email}
              </Text>
            )}
            <Text c="dimmed" size="xs" truncate>
              {user.roles.length > 0 ? user.roles.join(', ') : 'No role'}
            </Text>
          </div>
        </Group>
        <Menu.Divider />
        <Menu.Item leftSection={<LogOutIcon size={16} />} onClick={logOut}>
          Log Out
        </Menu.Item>
        <Menu.Divider />
        <Text c="dimmed" size="xs" px="sm" py={6}>
          Caracal {version}
        </Text>
      </Menu.Dropdown>
    </Menu>
  );
}
