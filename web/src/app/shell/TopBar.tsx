import { Group, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router-dom';
import { Logo } from '../../components/Logo';
import { HOME_PATH } from '../constants';
import { ColorSchemeToggle } from './ColorSchemeToggle';
import { ProfileMenu } from './ProfileMenu';

export function TopBar() {
  return (
    <Group h="100%" px="lg" justify="space-between" wrap="nowrap">
      <UnstyledButton component={Link} to={HOME_PATH} aria-label="Caracal home">
        <Logo size={30} />
      </UnstyledButton>
      <Group gap="sm" wrap="nowrap">
        <ColorSchemeToggle />
        <ProfileMenu />
      </Group>
    </Group>
  );
}
