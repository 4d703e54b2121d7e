import { Group, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router-dom';
import { Logo } from '../../components/Logo';
import { useFeatureFlag } from '../../lib/featureFlags';
import { NotificationBell } from './notifications/NotificationBell';
import { SIDE_NAVIGATION_COLLAPSED_WIDTH } from '../constants';
import { HOME_PATH } from '../routes';
import { Breadcrumbs } from './Breadcrumbs';
import { ColorSchemeToggle } from './ColorSchemeToggle';
import { HelpMenu } from './HelpMenu';
import { ProfileMenu } from './ProfileMenu';
import { SettingsMenu } from './SettingsMenu';

/**
 * The top bar: home, where the page sits, then settings, help, notifications (when the notification-center
 * flag is on) and the user's own menu.
 */
export function TopBar() {
  const notificationCenter = useFeatureFlag('ENABLE_NOTIFICATION_CENTER');
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
        {notificationCenter && <NotificationBell />}
        <ColorSchemeToggle />
        <ProfileMenu />
      </Group>
    </Group>
  );
}
