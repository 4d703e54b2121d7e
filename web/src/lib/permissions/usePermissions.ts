import { useQuery } from '@apollo/client/react';
import { useContext, useEffect } from 'react';
import { hasPermissions, type Permission, type PermissionCheckOptions } from '../../../../core/permissions';
import { AuthContext } from '../auth/AuthContext';
import { MY_PERMISSIONS_QUERY } from './permissions.operations';

export interface UserPermissions {
  /** The permissions of the signed-in user's role; empty while loading, without a role or without a user. */
  readonly permissions: readonly Permission[];
  /** The user's role, null while loading or when the user has none. */
  readonly role: { readonly id: string; readonly name: string } | null;
  readonly loading: boolean;
}

const NONE: readonly Permission[] = [];

/**
 * The signed-in user's permissions, from `me { role { permissions } }`. Read from the cache once known and
 * asked again whenever the window regains focus, so a role change shows without signing in again. Nobody
 * signed in holds nothing (and nothing is asked).
 */
export function usePermissions(): UserPermissions {
  // Outside an auth provider (a screen rendered on its own), the API's answer decides.
  const auth = useContext(AuthContext);
  const signedIn = !auth || auth.state.status === 'authenticated';
  const { data, loading, refetch } = useQuery(MY_PERMISSIONS_QUERY, { fetchPolicy: 'cache-first', skip: !signedIn });

  useEffect(() => {
    if (!signedIn) return;
    const onFocus = () => void refetch().catch(() => undefined);
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [refetch, signedIn]);

  const role = (signedIn && data?.me.role) || null;
  return {
    permissions: role?.permissions ?? NONE,
    role: role ? { id: role.id, name: role.name } : null,
    loading: signedIn && loading && !data,
  };
}

/** Whether the signed-in user holds the permissions: any-of by default, all-of with `{ all: true }`. */
export function useHasPermissions(required: readonly Permission[], options: PermissionCheckOptions = {}): boolean {
  const { permissions } = usePermissions();
  return hasPermissions(permissions, required, options);
}
