import type { AppSyncResolverEvent } from '../../../lib/appsync';
import type { Caller } from '../../../lib/auth/caller';
import type { CreateRoleInput, UpdateRoleInput } from '../../../lib/graphql-types';
import { createRoleView, deleteRoleById, getRoleView, listRoleViews, updateRoleView } from '../../../lib/users/role-admin';

export const roles = () => listRoleViews();

export const roleById = (event: AppSyncResolverEvent<{ id: string }>) => getRoleView(event.arguments.id);

export const createRole = (event: AppSyncResolverEvent<{ input: CreateRoleInput }>, caller: Caller) =>
  createRoleView(event.arguments.input, caller.permissions);

export function updateRole(event: AppSyncResolverEvent<{ input: UpdateRoleInput }>, caller: Caller) {
  const { id, ...input } = event.arguments.input;
  return updateRoleView(id, input, caller.permissions);
}

export const deleteRole = (event: AppSyncResolverEvent<{ id: string }>, caller: Caller) =>
  deleteRoleById(event.arguments.id, caller.permissions);
