// The people of a Caracal workspace: the user pool (directory.ts) joined with the user records the guard
// reads (records.ts) and the roles (roles.ts). Every rule a request can break answers with the API's error
// types and the messages of core/validation; a failed step never leaves half an account behind.
import { userChangeError, type Permission } from '../../../core/permissions';
import { ROLE_NOT_FOUND } from '../../../core/validation/roles';
import {
  CANNOT_DEACTIVATE_SELF,
  CANNOT_DELETE_SELF,
  EMAIL_IN_USE,
  ROLE_REQUIRED,
  USER_NOT_FOUND,
  emailError,
  familyNameError,
  givenNameError,
  normalizeEmail,
  profileFormErrors,
  roleIdError,
  userFormErrors,
  userMatchesSearch,
  userStatusOf,
  type UserStatusFilter,
} from '../../../core/validation/users';
import { ApiError } from '../errors';
import {
  createDirectoryUser,
  deleteDirectoryUser,
  disableDirectoryUser,
  enableDirectoryUser,
  findByEmail,
  getDirectoryUser,
  listDirectoryUsers,
  updateDirectoryAttributes,
  type DirectoryUser,
} from './directory';
import { notifyUser } from './notify';
import { getUserRecord, getUserRecords, saveUser, type UserRecord } from './records';
import { getRole, listRoles, type StoredRole } from './roles';

/** A user as the API answers it. */
export interface UserView {
  readonly id: string;
  readonly email: string;
  readonly givenName: string | null;
  readonly familyName: string | null;
  readonly name: string;
  readonly enabled: boolean;
  readonly status: string;
  readonly role: { readonly id: string; readonly name: string; readonly permissions: Permission[] } | null;
  readonly createdAt: string | null;
  readonly lastLoggedInAt: string | null;
}

export interface UserFilter {
  readonly search?: string | null;
  readonly roleId?: string | null;
  readonly status?: UserStatusFilter | null;
}

export interface InviteInput {
  readonly email: unknown;
  readonly givenName: unknown;
  readonly familyName: unknown;
  readonly roleId: unknown;
}

/** An edit: absent (null) values stay as they are. */
export interface EditInput {
  readonly id: string;
  readonly email?: string | null;
  readonly givenName?: string | null;
  readonly familyName?: string | null;
  readonly roleId?: string | null;
}

/** Who asks: people may not delete or deactivate themselves, nor act beyond their own permissions. */
export interface Actor {
  readonly id: string;
  readonly email: string;
  readonly permissions: readonly Permission[];
}

function invalid(message: string | undefined): void {
  if (message) throw new ApiError('InvalidInput', message);
}

/** Refuses a change the actor's own permissions do not cover (core/permissions/grants.ts). */
function refuseBeyond(message: string | undefined): void {
  if (message) throw new ApiError('Unauthorized', message);
}

/** A user as answered; the creation time is the record's (milliseconds, so the newest invitation sorts first). */
function view(
  user: DirectoryUser,
  roleId: string | null,
  roles: ReadonlyMap<string, StoredRole>,
  enabled: boolean,
  createdAt: string | null = user.createdAt,
): UserView {
  const role = roleId ? roles.get(roleId) : undefined;
  return {
    id: user.id,
    email: user.email,
    givenName: user.givenName,
    familyName: user.familyName,
    name: [user.givenName, user.familyName].filter(Boolean).join(' ') || user.email,
    enabled,
    status: user.status,
    role: role ? { id: role.id, name: role.name, permissions: [...role.permissions] } : null,
    createdAt,
    lastLoggedInAt: null,
  };
}

const byId = (roles: readonly StoredRole[]) => new Map(roles.map((role) => [role.id, role]));

/** A user's current state: directory entry, record, role (null without a record) and enabled flag. */
async function load(id: string) {
  const user = await getDirectoryUser(id);
  if (!user) throw new ApiError('NotFound', USER_NOT_FOUND);
  const record = await getUserRecord(id);
  const role = record ? await getRole(record.roleId) : null;
  const enabled = user.enabled && record?.enabled !== false;
  return { user, record, role, enabled };
}

type Current = Awaited<ReturnType<typeof load>>;

/** The user acted on, as the permission rules see them: their id and their role's permissions. */
const subject = (current: Current) => ({ id: current.user.id, permissions: current.role?.permissions ?? [] });

async function requireRole(roleId: string): Promise<StoredRole> {
  const role = await getRole(roleId);
  if (!role) throw new ApiError('NotFound', ROLE_NOT_FOUND);
  return role;
}

/** Every user, newest first, narrowed by the filter. */
export async function listUsers(filter: UserFilter = {}): Promise<UserView[]> {
  const [users, roles] = await Promise.all([listDirectoryUsers(), listRoles()]);
  const records = await getUserRecords(users.map((u) => u.id));
  const rolesById = byId(roles);
  return users
    .map((user) => {
      const record = records.get(user.id);
      return view(
        user,
        record?.roleId ?? null,
        rolesById,
        user.enabled && record?.enabled !== false,
        record?.createdAt ?? user.createdAt,
      );
    })
    .filter((user) => !filter.search || userMatchesSearch(user, filter.search))
    .filter((user) => !filter.roleId || user.role?.id === filter.roleId)
    .filter((user) => !filter.status || userStatusOf(user) === filter.status)
    .sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? '') || a.id.localeCompare(b.id));
}

export async function getUser(id: string): Promise<UserView> {
  const { user, record, role, enabled } = await load(id);
  return view(user, role?.id ?? null, byId(role ? [role] : []), enabled, record?.createdAt ?? user.createdAt);
}

/**
 * Creates the account with a temporary password sent by email, then the record that gives it its role. If
 * the record cannot be written (the role was deleted meanwhile, say) the account is removed again.
 */
export async function inviteUser(input: InviteInput, actor: Actor): Promise<UserView> {
  const errors = userFormErrors(input);
  invalid(errors.email ?? errors.givenName ?? errors.familyName ?? errors.roleId);
  const email = normalizeEmail(input.email as string);
  const givenName = (input.givenName as string).trim();
  const familyName = (input.familyName as string).trim();
  const role = await requireRole((input.roleId as string).trim());
  refuseBeyond(userChangeError({ actor, grant: role.permissions }));
  if (await findByEmail(email)) throw new ApiError('AlreadyExists', EMAIL_IN_USE);

  const user = await createDirectoryUser({ email, givenName, familyName });
  let record: UserRecord | null;
  try {
    record = await saveUser(null, { id: user.id, roleId: role.id, enabled: true, email, givenName, familyName });
  } catch (err) {
    await deleteDirectoryUser(user.id);
    throw err;
  }
  await notifyUser(user.id, 'Welcome to Caracal', `${actor.email} invited you to Caracal with the role ${role.name}.`);
  return view(user, role.id, byId([role]), true, record?.createdAt);
}

/** Edits email, names and role; null values stay as they are. */
export async function editUser(input: EditInput, actor: Actor): Promise<UserView> {
  if (input.email != null) invalid(emailError(input.email));
  if (input.givenName != null) invalid(givenNameError(input.givenName));
  if (input.familyName != null) invalid(familyNameError(input.familyName));
  if (input.roleId != null) invalid(roleIdError(input.roleId));
  const current = await load(input.id);
  const email = input.email != null ? normalizeEmail(input.email) : current.user.email;
  const givenName = input.givenName != null ? input.givenName.trim() : current.user.givenName;
  const familyName = input.familyName != null ? input.familyName.trim() : current.user.familyName;
  const roleId = input.roleId != null ? input.roleId.trim() : current.role?.id;
  if (!roleId) throw new ApiError('InvalidInput', ROLE_REQUIRED);
  const role = await requireRole(roleId);
  const roleChanged = role.id !== current.role?.id;
  refuseBeyond(userChangeError({ actor, user: subject(current), grant: roleChanged ? role.permissions : undefined }));

  if (email !== current.user.email) {
    const holder = await findByEmail(email);
    if (holder && holder.id !== current.user.id) throw new ApiError('AlreadyExists', EMAIL_IN_USE);
  }
  const next = { id: current.user.id, roleId: role.id, enabled: current.enabled, email, givenName, familyName };
  await saveUser(current.record, next, () =>
    updateDirectoryAttributes(current.user.id, {
      ...(email !== current.user.email ? { email } : {}),
      ...(givenName !== current.user.givenName && givenName !== null ? { givenName } : {}),
      ...(familyName !== current.user.familyName && familyName !== null ? { familyName } : {}),
    }),
  );
  if (roleChanged) {
    await notifyUser(current.user.id, 'Your role changed', `${actor.email} changed your role to ${role.name}.`);
  }
  const edited = { ...current.user, email, givenName, familyName };
  return view(edited, role.id, byId([role]), current.enabled, current.record?.createdAt ?? current.user.createdAt);
}

/** The signed-in user's own first and last name. */
export async function updateProfile(id: string, input: { givenName: unknown; familyName: unknown }): Promise<UserView> {
  const errors = profileFormErrors(input);
  invalid(errors.givenName ?? errors.familyName);
  const givenName = (input.givenName as string).trim();
  const familyName = (input.familyName as string).trim();
  const record = await getUserRecord(id);
  if (!record) throw new ApiError('NotFound', USER_NOT_FOUND);
  await saveUser(record, { ...record, givenName, familyName }, () => updateDirectoryAttributes(id, { givenName, familyName }));
  return getUser(id);
}

/** Deactivation takes effect on the user's next request (the record the guard reads), then at sign-in. */
export async function deactivateUser(id: string, actor: Actor): Promise<UserView> {
  if (id === actor.id) throw new ApiError('InvalidUpdate', CANNOT_DEACTIVATE_SELF);
  const current = await load(id);
  refuseBeyond(userChangeError({ actor, user: subject(current) }));
  await saveUser(current.record, fieldsOf(current, false));
  await disableDirectoryUser(id);
  return getUser(id);
}

export async function reactivateUser(id: string, actor: Actor): Promise<UserView> {
  const current = await load(id);
  refuseBeyond(userChangeError({ actor, user: subject(current) }));
  const next = fieldsOf(current, true);
  await enableDirectoryUser(id);
  await saveUser(current.record, next);
  return getUser(id);
}

function fieldsOf(current: Current, enabled: boolean) {
  if (!current.record) throw new ApiError('InvalidUpdate', 'Give the user a role first');
  return { ...current.record, enabled };
}

/**
 * Deletes the record, then the account: a user left without a record is refused by the guard, so a deletion
 * that stops halfway already shuts the user out, and repeating it finishes it.
 */
export async function deleteUser(id: string, actor: Actor): Promise<string> {
  if (id === actor.id) throw new ApiError('InvalidUpdate', CANNOT_DELETE_SELF);
  const current = await load(id);
  refuseBeyond(userChangeError({ actor, user: subject(current) }));
  await saveUser(current.record, null);
  await deleteDirectoryUser(id);
  return id;
}
