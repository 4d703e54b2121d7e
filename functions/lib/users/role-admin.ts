// Managing roles: the rules around the repository. The built-in Admin role is listed and counted but never
// renamed, re-permissioned or deleted; a role people hold is not deleted; names follow core's rule; nobody
// creates, changes or deletes a role holding permissions they lack (core/permissions/grants.ts).
import { roleChangeError, type Permission } from '../../../core/permissions';
import {
  ADMIN_ROLE_IMMUTABLE,
  ADMIN_ROLE_UNDELETABLE,
  ROLE_NAME_TAKEN,
  isAdminRoleId,
  roleFormErrors,
  rolePermissions,
} from '../../../core/validation/roles';
import { ApiError } from '../errors';
import type { Caller } from './access';
import { countRecordsWithRole } from './records';
import { refuseBeyond, refuseFirst } from './refusals';
import { createRole, deleteRole, listRoles, requireRole, updateRole, type StoredRole } from './roles';

export interface RoleView extends StoredRole {
  /** How many users hold the role. */
  readonly userCount: number;
}

export interface RoleInput {
  readonly name: string;
  readonly permissions: readonly string[];
}

const withCount = async (role: StoredRole): Promise<RoleView> => ({ ...role, userCount: await countRecordsWithRole(role.id) });

export async function listRoleViews(): Promise<RoleView[]> {
  return Promise.all((await listRoles()).map(withCount));
}

export async function getRoleView(id: string): Promise<RoleView> {
  return withCount(await requireRole(id));
}

function validated(input: RoleInput): { name: string; permissions: Permission[] } {
  const errors = roleFormErrors(input);
  refuseFirst(errors, errors.name === ROLE_NAME_TAKEN ? 'AlreadyExists' : 'InvalidInput');
  return { name: input.name.trim(), permissions: rolePermissions(input.permissions) };
}

export async function createRoleView(input: RoleInput, actor: Caller): Promise<RoleView> {
  const { name, permissions } = validated(input);
  refuseBeyond(roleChangeError(actor.permissions, null, permissions));
  return { ...(await createRole(name, permissions)), userCount: 0 };
}

export async function updateRoleView(id: string, input: RoleInput, actor: Caller): Promise<RoleView> {
  if (isAdminRoleId(id)) throw new ApiError('InvalidUpdate', ADMIN_ROLE_IMMUTABLE);
  const { name, permissions } = validated(input);
  const current = await requireRole(id);
  refuseBeyond(roleChangeError(actor.permissions, current.permissions, permissions));
  return withCount(await updateRole(current, name, permissions));
}

/** Deletes a role nobody holds; InUse, saying how many hold it, otherwise. */
export async function deleteRoleById(id: string, actor: Caller): Promise<string> {
  if (isAdminRoleId(id)) throw new ApiError('InvalidUpdate', ADMIN_ROLE_UNDELETABLE);
  const role = await requireRole(id);
  refuseBeyond(roleChangeError(actor.permissions, role.permissions, null));
  await deleteRole(role);
  return id;
}
