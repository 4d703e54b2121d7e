import { USER_STATUS_FILTERS, type UserStatusFilter } from '../../../../core/validation/users';
import type { AppSyncResolverEvent } from '../../../lib/appsync';
import type { Caller } from '../../../lib/auth/caller';
import { ApiError } from '../../../lib/errors';
import type {
  InviteUserInput,
  ListUsersInput,
  UpdateProfileInput,
  UpdateUserInput,
  UserConnection,
} from '../../../lib/graphql-types';
import {
  deactivateUser,
  deleteUser,
  editUser,
  getUser,
  inviteUser,
  listUsers,
  reactivateUser,
  updateProfile,
  type UserView,
} from '../../../lib/users/users';

export const MAX_PAGE_SIZE = 999;

/** A cursor names the last user of a page; the next page starts after that user. */
const encodeCursor = (id: string) => Buffer.from(id, 'utf8').toString('base64url');
const decodeCursor = (cursor: string) => Buffer.from(cursor, 'base64url').toString('utf8');

function page(users: UserView[], pageSize: number, cursor: string | null | undefined): UserConnection {
  let start = 0;
  if (cursor) {
    const index = users.findIndex((user) => user.id === decodeCursor(cursor));
    if (index < 0) throw new ApiError('InvalidInput', 'The cursor does not name a user of this list');
    start = index + 1;
  }
  const nodes = users.slice(start, start + pageSize);
  return {
    edges: nodes.map((node) => ({ node })),
    pageInfo: {
      startCursor: nodes.length ? encodeCursor(nodes[0].id) : null,
      endCursor: nodes.length ? encodeCursor(nodes[nodes.length - 1].id) : null,
      hasNextPage: start + nodes.length < users.length,
      hasPreviousPage: start > 0,
    },
  };
}

function pageSizeOf(value: number | null | undefined): number {
  if (value == null) return MAX_PAGE_SIZE;
  if (!Number.isInteger(value) || value < 1 || value > MAX_PAGE_SIZE) {
    throw new ApiError('InvalidInput', `The page size must be a whole number from 1 to ${MAX_PAGE_SIZE}`);
  }
  return value;
}

function statusOf(value: string | null | undefined): UserStatusFilter | null {
  if (value == null) return null;
  if (!(USER_STATUS_FILTERS as readonly string[]).includes(value)) throw new ApiError('InvalidInput', 'Unknown user status');
  return value as UserStatusFilter;
}

const roleIdOf = (role: { kind: string; value: string } | null | undefined) => (role ? role.value : null);

export async function users(event: AppSyncResolverEvent<{ input?: ListUsersInput | null }>): Promise<UserConnection> {
  const input = event.arguments.input ?? {};
  const pageSize = pageSizeOf(input.pageSize);
  const found = await listUsers({ search: input.search, roleId: input.roleId, status: statusOf(input.status) });
  return page(found, pageSize, input.cursor);
}

export const userById = (event: AppSyncResolverEvent<{ id: string }>) => getUser(event.arguments.id);

export function inviteUserResolver(event: AppSyncResolverEvent<{ input: InviteUserInput }>, caller: Caller) {
  const { email, givenName, familyName, role } = event.arguments.input;
  return inviteUser({ email, givenName, familyName, roleId: roleIdOf(role) }, caller);
}

export function updateUserResolver(event: AppSyncResolverEvent<{ input: UpdateUserInput }>, caller: Caller) {
  const { id, email, givenName, familyName, role } = event.arguments.input;
  return editUser({ id, email, givenName, familyName, roleId: roleIdOf(role) }, caller);
}

export const updateProfileResolver = (event: AppSyncResolverEvent<{ input: UpdateProfileInput }>, caller: Caller) =>
  updateProfile(caller.id, event.arguments.input);

export const deactivateUserResolver = (event: AppSyncResolverEvent<{ id: string }>, caller: Caller) =>
  deactivateUser(event.arguments.id, caller);

export const reactivateUserResolver = (event: AppSyncResolverEvent<{ id: string }>, caller: Caller) =>
  reactivateUser(event.arguments.id, caller);

export const deleteUserResolver = (event: AppSyncResolverEvent<{ id: string }>, caller: Caller) =>
  deleteUser(event.arguments.id, caller);
