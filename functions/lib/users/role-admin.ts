// Managing roles: the rules around the repository. The built-in Admin role is listed and counted but never
// renamed, re-permissioned or deleted; a role people hold is not deleted; names follow core's rule.
import {
  ADMIN_ROLE_IMMUTABLE,
  ADMIN_ROLE_UNDELETABLE,
  ROLE_NAME_TAKEN,
  ROLE_NOT_FOUND,
  isAdminRoleId,
  roleFormErrors,
  roleInUseMessage,
} from '../../../core/validation/roles';
import { ApiError } from '../errors';
import { adminGroupMembers } from './directory';
import { countRecordsWithRole, getUserRecords } from './records';
import { createRole, deleteRole, getRole, listRoles, updateRole, type StoredRole } from './roles';

export interface RoleView extends StoredRole {
  /** How many users hold the role. */
  readonly userCount: number;
}

export interface RoleInput {
  readonly name: unknown;
  readonly permissions: unknown;
}

/** Users holding a role: their records, plus, for Admin, Admin-group members who have no record yet. */
export async function countUsersWithRole(roleId: string): Promise<number> {
  const count = await countRecordsWithRole(roleId);
  if (!isAdminRoleId(roleId)) return count;
  const members = await adminGroupMembers();
  const records = await getUserRecords(members.map((m) => m.id));
  return count + members.filter((m) => !records.has(m.id)).length;
}

const withCount = async (role: StoredRole): Promise<RoleView> => ({ ...role, userCount: await countUsersWithRole(role.id) });

export async function listRoleViews(): Promise<RoleView[]> {
  return Promise.all((await listRoles()).map(withCount));
}

async function requireRole(id: string): Promise<StoredRole> {
  const role = await getRole(id);
  if (!role) throw new ApiError('NotFound', ROLE_NOT_FOUND);
  return role;
}

export async function getRoleView(id: string): Promise<RoleView> {
  return withCount(await requireRole(id));
}

function validated(input: RoleInput): { name: string; permissions: string[] } {
  const errors = roleFormErrors(input);
  const message = errors.name ?? errors.permissions;
  if (message) throw new ApiError(message === ROLE_NAME_TAKEN ? 'AlreadyExists' : 'InvalidInput', message);
  return { name: (input.name as string).trim(), permissions: input.permissions as string[] };
}

export async function createRoleView(input: RoleInput): Promise<RoleView> {
  const { name, permissions } = validated(input);
  return { ...(await createRole(name, permissions)), userCount: 0 };
}

export async function updateRoleView(id: string, input: RoleInput): Promise<RoleView> {
  if (isAdminRoleId(id)) throw new ApiError('InvalidUpdate', ADMIN_ROLE_IMMUTABLE);
  const { name, permissions } = validated(input);
  const current = await requireRole(id);
  return withCount(await updateRole(current, name, permissions));
}

/** Deletes a role nobody holds; InUse, saying how many hold it, otherwise. */
export async function deleteRoleById(id: string): Promise<string> {
  if (isAdminRoleId(id)) throw new ApiError('InvalidUpdate', ADMIN_ROLE_UNDELETABLE);
  const role = await requireRole(id);
  const holders = await countUsersWithRole(id);
  if (holders > 0) throw new ApiError('InUse', roleInUseMessage(holders));
  await deleteRole(role);
  return id;
}
