// What a user may do, as the guard reads it on every request: the role their user record names (the built-in
// Admin from core, others as stored, each with its implied Reads), whether the record is enabled and since
// when the user's tokens count.
import type { Permission } from '../../../core/permissions';
import { getUserRecord } from './records';
import { getRoles } from './roles';

/**
 * Who is calling: a signed-in user with their access as read on this request. The auth area builds it for every
 * request (auth.loadCaller) and its door re-exports it; it lives here because auth is above users: users takes the
 * acting Caller without importing auth.
 */
export interface Caller {
  /** The user's id (Cognito `sub`). */
  readonly id: string;
  readonly username: string;
  readonly email: string;
  readonly enabled: boolean;
  readonly role: { readonly id: string; readonly name: string } | null;
  readonly permissions: readonly Permission[];
}

export interface UserAccess {
  readonly enabled: boolean;
  /** Null when the record names a role that no longer exists. */
  readonly role: { readonly id: string; readonly name: string } | null;
  readonly permissions: readonly Permission[];
  /** Tokens issued at or before this second (Unix) are refused: the user was signed out of every device. */
  readonly tokensValidAfter: number | null;
}

/** A user's access, read fresh; null when they have no user record. */
export async function userAccess(id: string): Promise<UserAccess | null> {
  const record = await getUserRecord(id);
  if (!record) return null;
  const role = (await getRoles([record.roleId])).get(record.roleId);
  return {
    enabled: record.enabled,
    role: role ? { id: role.id, name: role.name } : null,
    permissions: role?.permissions ?? [],
    tokensValidAfter: record.tokensValidAfter,
  };
}
