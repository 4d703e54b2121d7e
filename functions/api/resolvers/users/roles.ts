import type { AppSyncResolverEvent } from '../../../lib/appsync';
import type { CreateRoleInput, UpdateRoleInput } from '../../../lib/graphql-types';
import { createRoleView, deleteRoleById, getRoleView, listRoleViews, updateRoleView } from '../../../lib/users/role-admin';

export const roles = () => listRoleViews();

export const roleById = (event: AppSyncResolverEvent<{ id: string }>) => getRoleView(event.arguments.id);

export const createRole = (event: AppSyncResolverEvent<{ input: CreateRoleInput }>) => createRoleView(event.arguments.input);

export function updateRole(event: AppSyncResolverEvent<{ input: UpdateRoleInput }>) {
  const { id, ...input } = event.arguments.input;
  return updateRoleView(id, input);
}

export const deleteRole = (event: AppSyncResolverEvent<{ id: string }>) => deleteRoleById(event.arguments.id);
