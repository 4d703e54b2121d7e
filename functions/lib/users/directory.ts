// The user pool as the directory of people: who exists, their email, names, account status and whether the
// account is enabled. Every call is a Cognito admin operation on USER_POOL_ID; a user is addressed by its
// `sub`, which is also its username in a pool that signs in by email.
// Needs cognito-idp: AdminCreateUser, AdminGetUser, AdminUpdateUserAttributes, AdminDisableUser,
// AdminEnableUser, AdminUserGlobalSignOut, AdminDeleteUser, AdminListGroupsForUser, ListUsers, ListUsersInGroup.
import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  AdminUpdateUserAttributesCommand,
  AdminUserGlobalSignOutCommand,
  ListUsersCommand,
  ListUsersInGroupCommand,
  type AttributeType,
  type UserType,
} from '@aws-sdk/client-cognito-identity-provider';
import { ADMIN_ROLE } from '../../../core/permissions';
import { EMAIL_IN_USE } from '../../../core/validation/users';
import { cognito } from '../clients';
import { ENV, requireEnv } from '../env';
import { ApiError } from '../errors';

/** The deployment creates its first administrator in this group; it vouches for their bootstrap only (bootstrap.ts). */
export const ADMIN_GROUP = ADMIN_ROLE.id;

export interface DirectoryUser {
  readonly id: string;
  readonly email: string;
  readonly givenName: string | null;
  readonly familyName: string | null;
  readonly enabled: boolean;
  /** CONFIRMED, FORCE_CHANGE_PASSWORD, RESET_REQUIRED, ... */
  readonly status: string;
  readonly createdAt: string | null;
}

export interface DirectoryAttributes {
  readonly email?: string;
  readonly givenName?: string;
  readonly familyName?: string;
}

const pool = () => requireEnv(ENV.userPoolId);
const PAGE = 60;

function toDirectoryUser(user: {
  Username?: string;
  Attributes?: AttributeType[];
  UserAttributes?: AttributeType[];
  Enabled?: boolean;
  UserStatus?: string;
  UserCreateDate?: Date;
}): DirectoryUser {
  const attributes = user.Attributes ?? user.UserAttributes ?? [];
  const attr = (name: string) => attributes.find((a) => a.Name === name)?.Value ?? null;
  return {
    id: attr('sub') ?? user.Username ?? '',
    email: attr('email') ?? '',
    givenName: attr('given_name'),
    familyName: attr('family_name'),
    enabled: user.Enabled !== false,
    status: user.UserStatus ?? 'UNKNOWN',
    createdAt: user.UserCreateDate ? user.UserCreateDate.toISOString() : null,
  };
}

/** No such user; an id that cannot be a username (Cognito refuses its form) names nobody either. */
const isNotFound = (err: unknown) => ['UserNotFoundException', 'InvalidParameterException'].includes((err as Error).name);

/** Cognito's answer to an email another account already uses, as the API's error. */
function emailTaken(err: unknown): never {
  const name = (err as Error).name;
  if (name === 'UsernameExistsException' || name === 'AliasExistsException') throw new ApiError('AlreadyExists', EMAIL_IN_USE);
  throw err;
}

function attributeList(attributes: DirectoryAttributes): AttributeType[] {
  const list: AttributeType[] = [];
  if (attributes.email !== undefined) {
    list.push({ Name: 'email', Value: attributes.email }, { Name: 'email_verified', Value: 'true' });
  }
  if (attributes.givenName !== undefined) list.push({ Name: 'given_name', Value: attributes.givenName });
  if (attributes.familyName !== undefined) list.push({ Name: 'family_name', Value: attributes.familyName });
  return list;
}

/** Every user of a paged listing: `list` answers the page a token names (the first without one) and the next token. */
async function everyUser(
  list: (token: string | undefined) => Promise<{ users?: UserType[]; next?: string }>,
): Promise<DirectoryUser[]> {
  const users: DirectoryUser[] = [];
  let token: string | undefined;
  do {
    const page = await list(token);
    users.push(...(page.users ?? []).map(toDirectoryUser));
    token = page.next;
  } while (token);
  return users;
}

/** Every user of the pool (ListUsers, paged: a pool holds hundreds of people, not millions). */
export function listDirectoryUsers(): Promise<DirectoryUser[]> {
  return everyUser(async (PaginationToken) => {
    const out = await cognito().send(new ListUsersCommand({ UserPoolId: pool(), Limit: PAGE, PaginationToken }));
    return { users: out.Users, next: out.PaginationToken };
  });
}

/** The ids of the Admin group's members. */
export async function listAdminGroupMembers(): Promise<string[]> {
  const members = await everyUser(async (NextToken) => {
    const out = await cognito().send(
      new ListUsersInGroupCommand({ UserPoolId: pool(), GroupName: ADMIN_GROUP, Limit: PAGE, NextToken }),
    );
    return { users: out.Users, next: out.NextToken };
  });
  return members.map((member) => member.id);
}

export async function getDirectoryUser(id: string): Promise<DirectoryUser | null> {
  try {
    const user = await cognito().send(new AdminGetUserCommand({ UserPoolId: pool(), Username: id }));
    return toDirectoryUser(user);
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

/** The user holding this email, if any (emails are stored lower-cased). */
export async function findByEmail(email: string): Promise<DirectoryUser | null> {
  const page = await cognito().send(
    new ListUsersCommand({ UserPoolId: pool(), Filter: `email = ${JSON.stringify(email)}`, Limit: 1 }),
  );
  const user = page.Users?.[0];
  return user ? toDirectoryUser(user) : null;
}

/**
 * Creates the account; Cognito generates a temporary password and emails it (locally it lands in the
 * runtime's mailbox and terminal). The email is verified: an administrator vouches for it.
 */
export async function createDirectoryUser(attributes: Required<DirectoryAttributes>): Promise<DirectoryUser> {
  const out = await cognito()
    .send(
      new AdminCreateUserCommand({
        UserPoolId: pool(),
        Username: attributes.email,
        UserAttributes: attributeList(attributes),
        DesiredDeliveryMediums: ['EMAIL'],
      }),
    )
    .catch(emailTaken);
  return toDirectoryUser(out.User ?? {});
}

export async function updateDirectoryAttributes(id: string, attributes: DirectoryAttributes): Promise<void> {
  const UserAttributes = attributeList(attributes);
  if (UserAttributes.length === 0) return;
  await cognito()
    .send(new AdminUpdateUserAttributesCommand({ UserPoolId: pool(), Username: id, UserAttributes }))
    .catch(emailTaken);
}

/** Disables the account (no sign-in) and revokes its tokens. Repeating it is harmless. */
export async function disableDirectoryUser(id: string): Promise<void> {
  await cognito().send(new AdminDisableUserCommand({ UserPoolId: pool(), Username: id }));
  await signOutDirectoryUser(id);
}

/**
 * Revokes every refresh and access token of the account. Its ID tokens, which the API is called with, stay
 * valid until they expire: the guard refuses them by the record's `tokensValidAfter` (records.ts).
 */
export async function signOutDirectoryUser(id: string): Promise<void> {
  await cognito().send(new AdminUserGlobalSignOutCommand({ UserPoolId: pool(), Username: id }));
}

export async function enableDirectoryUser(id: string): Promise<void> {
  await cognito().send(new AdminEnableUserCommand({ UserPoolId: pool(), Username: id }));
}

export async function deleteDirectoryUser(id: string): Promise<void> {
  try {
    await cognito().send(new AdminDeleteUserCommand({ UserPoolId: pool(), Username: id }));
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}

export async function inAdminGroup(id: string): Promise<boolean> {
  const out = await cognito().send(new AdminListGroupsForUserCommand({ UserPoolId: pool(), Username: id }));
  return (out.Groups ?? []).some((group) => group.GroupName === ADMIN_GROUP);
}
