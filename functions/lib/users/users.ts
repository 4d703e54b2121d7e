// The people of a Caracal workspace: the user pool (directory.ts) joined with the user records the guard
// reads (records.ts) and the roles (roles.ts). Every rule a request can break answers with the API's error
// types and the messages of core/validation; a failed step never leaves half an account behind. People may
// not delete or deactivate themselves, nor act beyond their own permissions.
import { userChangeError, type Permission } from '../../../core/permissions';
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
  USER_STATUS_FILTERS,
} from '../../../core/validation/users';
import { ApiError } from '../errors';
import type { Caller } from './access';
import {
  createDirectoryUser,
  deleteDirectoryUser,
  disableDirectoryUser,
  enableDirectoryUser,
  findByEmail,
  getDirectoryUser,
  listDirectoryUsers,
  signOutDirectoryUser,
  updateDirectoryAttributes,
  type DirectoryUser,
} from './directory';
import { notifyUser } from './notify';
import { getUserRecord, getUserRecords, saveUser, type UserRecord } from './records';
import { refuseBeyond, refuseFirst } from './refusals';
import { getRole, listRoles, requireRole, type StoredRole } from './roles';

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
  /** One of core's USER_STATUS_FILTERS. */
  readonly status?: string | null;
}

export interface InviteInput {
  readonly email: string;
  readonly givenName: string;
  readonly familyName: string;
  /** Required: null is refused with the role's rule. */
  readonly roleId: string | null;
}

/** An edit: absent (null) values stay as they are. */
export interface EditInput {
  readonly id: string;
  readonly email?: string | null;
  readonly givenName?: string | null;
  readonly familyName?: string | null;
  readonly roleId?: string | null;
}

/** A user as answered; the creation time is the record's (milliseconds, so the newest invitation sorts first). */
function view(
  user: DirectoryUser,
  role: Pick<StoredRole, 'id' | 'name' | 'permissions'> | null | undefined,
  enabled: boolean,
  createdAt: string | null,
): UserView {
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

/** Every user, newest first, narrowed by the filter. */
export async function listUsers(filter: UserFilter = {}): Promise<UserView[]> {
  if (filter.status != null && !(USER_STATUS_FILTERS as readonly string[]).includes(filter.status))
    throw new ApiError('InvalidInput', 'Unknown user status');
  const [users, roles] = await Promise.all([listDirectoryUsers(), listRoles()]);
  const records = await getUserRecords(users.map((u) => u.id));
  const rolesById = new Map(roles.map((role) => [role.id, role]));
  return users
    .map((user) => {
      const record = records.get(user.id);
      return view(
        user,
        record && rolesById.get(record.roleId),
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
  return view(user, role, enabled, record?.createdAt ?? user.createdAt);
}

/** The signed-in user, read fresh from the user pool, with the role and permissions the guard resolved. */
export async function getSignedInUser(caller: Caller): Promise<UserView> {
  const user = await getDirectoryUser(caller.username);
  if (!user) throw new ApiError('NotFound', USER_NOT_FOUND);
  const role = caller.role && { ...caller.role, permissions: [...caller.permissions] };
  return view({ ...user, id: caller.id, email: user.email || caller.email }, role, user.enabled, user.createdAt);
}

/**
 * Creates the account with a temporary password sent by email, then the record that gives it its role. If
 * the record cannot be written (the role was deleted meanwhile, say) the account is removed again.
 */
export async function inviteUser(input: InviteInput, actor: Caller): Promise<UserView> {
  refuseFirst(userFormErrors(input));
  const email = normalizeEmail(input.email);
  const givenName = input.givenName.trim();
  const familyName = input.familyName.trim();
  const role = await requireRole((input.roleId ?? '').trim());
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
  return view(user, role, true, record?.createdAt ?? user.createdAt);
}

/** Edits email, names and role; null values stay as they are. */
export async function editUser(input: EditInput, actor: Caller): Promise<UserView> {
  refuseFirst({
    email: input.email != null ? emailError(input.email) : undefined,
    givenName: input.givenName != null ? givenNameError(input.givenName) : undefined,
    familyName: input.familyName != null ? familyNameError(input.familyName) : undefined,
    roleId: input.roleId != null ? roleIdError(input.roleId) : undefined,
  });
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
  return view(edited, role, current.enabled, current.record?.createdAt ?? current.user.createdAt);
}

/** The signed-in user's own first and last name. */
export async function updateProfile(caller: Caller, input: { givenName: string; familyName: string }): Promise<UserView> {
  refuseFirst(profileFormErrors(input));
  const { id } = caller;
  const givenName = input.givenName.trim();
  const familyName = input.familyName.trim();
  const record = await getUserRecord(id);
  if (!record) throw new ApiError('NotFound', USER_NOT_FOUND);
  await saveUser(record, { ...record, givenName, familyName }, () => updateDirectoryAttributes(id, { givenName, familyName }));
  return getUser(id);
}

/** Now, as `tokensValidAfter` counts: tokens issued up to this second are refused. */
const nowInSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Signs the caller out of every device (after they changed their password): the guard refuses every token
 * issued so far (the record's `tokensValidAfter`) and the user pool revokes their refresh and access tokens.
 */
export async function signOutEverywhere(caller: Caller): Promise<boolean> {
  const record = await getUserRecord(caller.id);
  if (!record) throw new ApiError('NotFound', USER_NOT_FOUND);
  await saveUser(record, { ...record, tokensValidAfter: nowInSeconds() });
  await signOutDirectoryUser(caller.id);
  return true;
}

/**
 * Deactivation takes effect on the user's next request (the record the guard reads), then at sign-in; the
 * tokens issued so far stay refused after a reactivation.
 */
export async function deactivateUser(id: string, actor: Caller): Promise<UserView> {
  if (id === actor.id) throw new ApiError('InvalidUpdate', CANNOT_DEACTIVATE_SELF);
  const current = await load(id);
  refuseBeyond(userChangeError({ actor, user: subject(current) }));
  await saveUser(current.record, { ...fieldsOf(current, false), tokensValidAfter: nowInSeconds() });
  await disableDirectoryUser(id);
  return getUser(id);
}

export async function reactivateUser(id: string, actor: Caller): Promise<UserView> {
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
export async function deleteUser(id: string, actor: Caller): Promise<string> {
  if (id === actor.id) throw new ApiError('InvalidUpdate', CANNOT_DELETE_SELF);
  const current = await load(id);
  refuseBeyond(userChangeError({ actor, user: subject(current) }));
  await saveUser(current.record, null);
  await deleteDirectoryUser(id);
  return id;
}
