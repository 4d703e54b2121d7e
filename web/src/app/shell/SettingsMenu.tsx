import { ActionIcon, Menu, Tooltip } from '@mantine/core';
import { Link } from 'react-router-dom';
import { SettingsIcon } from '../../components/icons';
import { usePermissions } from '../../lib/permissions';
import { SETTINGS_MENU, visibleSettings, type NavigationLink } from './navigation';

/** Workspace settings the user may use; the menu shows only when there is at least one. */
export function SettingsMenu({ menu = SETTINGS_MENU }: { readonly menu?: readonly NavigationLink[] }) {
  const { permissions } = usePermissions();
  const entries = visibleSettings(permissions, menu);
  if (entries.length === 0) return null;
  return (
    <Menu position="bottom-end" width={220} shadow="md" withinPortal>
      <Menu.Target>
        <Tooltip label="Settings">
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label="Settings">
            <SettingsIcon size={18} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Settings</Menu.Label>
        {entries.map((entry) => (
          <Menu.Item key={entry.path} component={Link} to={entry.path}>
            {entry.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
