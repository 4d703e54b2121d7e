import { Group, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router-dom';
import { Logo } from '../../components/Logo';
import { NotificationBell } from './notifications/NotificationBell';
import { SIDE_NAVIGATION_COLLAPSED_WIDTH } from '../constants';
import { HOME_PATH } from '../routes';
import { Breadcrumbs } from './Breadcrumbs';
import { ColorSchemeToggle } from './ColorSchemeToggle';
import { HelpMenu } from './HelpMenu';
import { ProfileMenu } from './ProfileMenu';
import { SettingsMenu } from './SettingsMenu';

/** The top bar: home, where the page sits, then settings, help, notifications and the user's own menu. */
export function TopBar() {
  return (
    <Group h="100%" pr="lg" gap="lg" justify="space-between" wrap="nowrap">
      <Group gap="lg" wrap="nowrap" miw={0}>
        <UnstyledButton
          component={Link}
          to={HOME_PATH}
          aria-label="Caracal home"
          pl={(SIDE_NAVIGATION_COLLAPSED_WIDTH - 30) / 2}
          style={{ flexShrink: 0 }}
        >
          <Logo size={30} />
        </UnstyledButton>
        <Breadcrumbs />
      </Group>
      <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
        <SettingsMenu />
        <HelpMenu />
        <NotificationBell />
        <ColorSchemeToggle />
        <ProfileMenu />
      </Group>
    </Group>
  );
}
