import { Center, Loader } from '@mantine/core';
import { Outlet } from 'react-router-dom';
import { hasPermissions, type Permission } from '../../../core/permissions';
import { usePermissions } from '../lib/permissions';
import { ForbiddenPage } from './errors/ForbiddenPage';

interface RequirePermissionsProps {
  /** Any one of these opens the routes inside, unless `all` is set. */
  readonly permissions: readonly Permission[];
  readonly all?: boolean;
}

/**
 * A route-level gate: the pages inside show only to a user holding the permissions; anyone else gets the 403
 * page at the same address. Use as a layout route: `<Route element={<RequirePermissions permissions={[...]} />}>`.
 */
export function RequirePermissions({ permissions, all = false }: RequirePermissionsProps) {
  const { permissions: held, loading } = usePermissions();
  if (loading) {
    return (
      <Center mih="40vh" aria-busy="true" aria-label="Checking your permissions">
        <Loader type="dots" />
      </Center>
    );
  }
  return hasPermissions(held, permissions, { all }) ? <Outlet /> : <ForbiddenPage />;
}
