// Who may hand out which powers. Managing users and roles never lifts anyone above the caller:
// - a caller gives (invites with, or moves a user to) only a role whose permissions they all hold;
// - a caller acts on (edits, deactivates, reactivates, deletes) only a user whose role's permissions they all
//   hold, so only an Admin acts on an Admin;
// - nobody changes their own role;
// - a caller creates, changes or deletes only a role whose permissions, before and after, they all hold, so
//   nobody widens a role (their own included) beyond themselves.
// The server refuses with these messages; forms may use the same rules to offer only what is allowed.
import type { Permission } from './permissions';

export const GRANT_BEYOND_OWN = 'You can only give a role whose permissions you all hold yourself';
export const MANAGE_STRONGER_USER =
  "You can only manage users whose role's permissions you all hold yourself (only an Admin manages an Admin)";
export const CHANGE_OWN_ROLE = "You can't change your own role";
export const MANAGE_STRONGER_ROLE = 'You can only create, change or delete roles whose permissions you all hold yourself';

/** Whether every one of `wanted` is among `held` (both as stored: Modify permissions come with their Read). */
export function holdsAll(held: readonly Permission[], wanted: readonly Permission[]): boolean {
  const set = new Set(held);
  return wanted.every((permission) => set.has(permission));
}

export interface UserChange {
  /** Who asks, with the permissions their role gives them. */
  readonly actor: { readonly id: string; readonly permissions: readonly Permission[] };
  /** The user acted on and their current role's permissions; absent when inviting. */
  readonly user?: { readonly id: string; readonly permissions: readonly Permission[] };
  /** The permissions of the role the change gives, when it gives one (an invitation or a role change). */
  readonly grant?: readonly Permission[];
}

/** Why the actor may not make this change to a user, or undefined when they may. */
export function userChangeError({ actor, user, grant }: UserChange): string | undefined {
  if (user && !holdsAll(actor.permissions, user.permissions)) return MANAGE_STRONGER_USER;
  if (grant && user?.id === actor.id) return CHANGE_OWN_ROLE;
  if (grant && !holdsAll(actor.permissions, grant)) return GRANT_BEYOND_OWN;
  return undefined;
}

/**
 * Why a caller holding `held` may not take a role from `before` to `after` permissions (null before: creating;
 * null after: deleting), or undefined when they may.
 */
export function roleChangeError(
  held: readonly Permission[],
  before: readonly Permission[] | null,
  after: readonly Permission[] | null,
): string | undefined {
  return holdsAll(held, [...(before ?? []), ...(after ?? [])]) ? undefined : MANAGE_STRONGER_ROLE;
}
