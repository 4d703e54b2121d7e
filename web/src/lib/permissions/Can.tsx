import type { ReactNode } from 'react';
import { hasPermissions, type Permission } from '../../../../core/permissions';
import { usePermissions } from './usePermissions';

interface CanProps {
  /** Any one of these is enough, unless `all` is set. An empty list never passes. */
  readonly permissions: readonly Permission[];
  /** Require every listed permission. */
  readonly all?: boolean;
  /** Shown instead of the content when the check fails. */
  readonly fallback?: ReactNode;
  readonly children: ReactNode;
}

/** Shows its content only to a user holding the required permissions (any-of by default, all-of with `all`). */
export function Can({ permissions, all = false, fallback = null, children }: CanProps) {
  const { permissions: held } = usePermissions();
  return <>{hasPermissions(held, permissions, { all }) ? children : fallback}</>;
}
