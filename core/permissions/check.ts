import type { Permission } from './permissions';

export interface PermissionCheckOptions {
  /** Require every listed permission instead of any one of them. */
  readonly all?: boolean;
}

/**
 * The permission check the UI and the server share: any-of by default, all-of optional; false when there is
 * no user (no permissions) or the required list is empty.
 */
export function hasPermissions(
  held: readonly Permission[] | ReadonlySet<Permission> | null | undefined,
  required: readonly Permission[],
  options: PermissionCheckOptions = {},
): boolean {
  if (!held || required.length === 0) return false;
  const set: ReadonlySet<Permission> = held instanceof Set ? held : new Set(held as readonly Permission[]);
  return options.all ? required.every((p) => set.has(p)) : required.some((p) => set.has(p));
}
