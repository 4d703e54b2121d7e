// The role form's rules: the name follows the name rule and is unique (the built-in Admin's name is taken);
// permissions are the model's, stored with every implied Read.
import { ADMIN_ROLE, isPermission, withImpliedReads, type Permission } from '../permissions';
import { nameError } from './name';

export const ROLE_NAME_TAKEN = 'A role with this name already exists';
export const UNKNOWN_PERMISSION = 'Unknown permission';
export const ROLE_NOT_FOUND = 'Role not found';
export const ADMIN_ROLE_IMMUTABLE = 'The Admin role is built in: it holds every permission and cannot be renamed or changed';
export const ADMIN_ROLE_UNDELETABLE = 'The Admin role is built in and cannot be deleted';

/** How a role's users are described when it cannot be deleted. */
export function roleInUseMessage(userCount: number): string {
  return `This role is assigned to ${userCount} ${userCount === 1 ? 'user' : 'users'}. Move them to another role first.`;
}

/** Two role names are the same name when they differ only in case or surrounding spaces. */
export function roleNameKey(name: string): string {
  return name.trim().toLowerCase();
}

export const isAdminRoleId = (id: string) => id === ADMIN_ROLE.id;

/** The role name's first broken rule; the built-in Admin's name counts as taken. */
export function roleNameError(value: unknown): string | undefined {
  const error = nameError(value);
  if (error) return error;
  return roleNameKey(value as string) === roleNameKey(ADMIN_ROLE.name) ? ROLE_NAME_TAKEN : undefined;
}

export interface RoleFormValues {
  readonly name: string;
  readonly permissions: readonly string[];
}

export type RoleFormErrors = Partial<Record<keyof RoleFormValues, string>>;

export function roleFormErrors(values: { name?: unknown; permissions?: unknown }): RoleFormErrors {
  const errors: RoleFormErrors = {};
  const name = roleNameError(values.name);
  if (name) errors.name = name;
  const permissions = values.permissions;
  if (!Array.isArray(permissions) || !permissions.every(isPermission)) errors.permissions = UNKNOWN_PERMISSION;
  return errors;
}

/** The permissions a role stores: known ones only, with every implied Read, in the model's order. */
export function rolePermissions(permissions: readonly string[]): Permission[] {
  return withImpliedReads(permissions.filter(isPermission));
}
