// The user form's rules, for the invite and edit sidesheets, the profile form and the resolvers behind
// them. Every message is the specification's; the two limits that keep bad input out of the user pool
// (length, control characters) follow its "Must be at most N characters" wording.
import { CONTROL_CHARACTERS, FIELD_REQUIRED, hasControlCharacters, tooLong } from './generic';

export const EMAIL_REQUIRED = 'Email is required';
export const EMAIL_INVALID = 'Must be a valid email';
export const EMAIL_IN_USE = 'Email already in use';
export const FIRST_NAME_REQUIRED = 'First name is required';
export const LAST_NAME_REQUIRED = 'Last name is required';
export const ROLE_REQUIRED = FIELD_REQUIRED;

/** Longest address the mail standards allow. */
export const EMAIL_MAX_LENGTH = 254;
/** Longest first or last name kept. */
export const PERSON_NAME_MAX_LENGTH = 256;

const EMAIL = /^[^\s@"<>()[\]\\,;:]+@[^\s@"<>()[\]\\,;:]+\.[^\s@"<>()[\]\\,;:]+$/;

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** An email address as stored: trimmed and lower-cased (sign-in is case-insensitive). */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

export function emailError(value: unknown): string | undefined {
  const email = text(value);
  if (email === '') return EMAIL_REQUIRED;
  if (email.length > EMAIL_MAX_LENGTH) return tooLong(EMAIL_MAX_LENGTH);
  if (hasControlCharacters(email) || !EMAIL.test(email)) return EMAIL_INVALID;
  return undefined;
}

function personNameError(value: unknown, requiredMessage: string): string | undefined {
  const name = text(value);
  if (name === '') return requiredMessage;
  if (name.length > PERSON_NAME_MAX_LENGTH) return tooLong(PERSON_NAME_MAX_LENGTH);
  if (hasControlCharacters(name)) return CONTROL_CHARACTERS;
  return undefined;
}

export const givenNameError = (value: unknown) => personNameError(value, FIRST_NAME_REQUIRED);
export const familyNameError = (value: unknown) => personNameError(value, LAST_NAME_REQUIRED);
export const roleIdError = (value: unknown) => (text(value) === '' ? ROLE_REQUIRED : undefined);

export interface UserFormValues {
  readonly email: string;
  readonly givenName: string;
  readonly familyName: string;
  readonly roleId: string;
}

export type UserFormErrors = Partial<Record<keyof UserFormValues, string>>;

/** Every field's first broken rule; empty when the user form is valid. */
export function userFormErrors(values: Partial<Record<keyof UserFormValues, unknown>>): UserFormErrors {
  const errors: UserFormErrors = {
    email: emailError(values.email),
    givenName: givenNameError(values.givenName),
    familyName: familyNameError(values.familyName),
    roleId: roleIdError(values.roleId),
  };
  return Object.fromEntries(Object.entries(errors).filter(([, message]) => message !== undefined));
}

/** The profile form (the signed-in user's own names): first and last name required. */
export function profileFormErrors(values: {
  givenName?: unknown;
  familyName?: unknown;
}): Pick<UserFormErrors, 'givenName' | 'familyName'> {
  const errors = { givenName: givenNameError(values.givenName), familyName: familyNameError(values.familyName) };
  return Object.fromEntries(Object.entries(errors).filter(([, message]) => message !== undefined));
}

export const USER_NOT_FOUND = 'User not found';
export const CANNOT_DELETE_SELF = "You can't delete your own account";
export const CANNOT_DEACTIVATE_SELF = "You can't deactivate your own account";
export const LAST_ADMIN = 'Caracal needs at least one active user with the Admin role. Give another user the Admin role first.';
export const USER_CHANGED = 'Another change to this user was being saved at the same time. Reload and try again.';

/** The status filter of the users list: active, invited (never signed in) or deactivated. */
export const USER_STATUS_FILTERS = ['ACTIVE', 'INVITED', 'DEACTIVATED'] as const;
export type UserStatusFilter = (typeof USER_STATUS_FILTERS)[number];

/** Where a user stands, from the account's enabled flag and the identity provider's status. */
export function userStatusOf(user: { readonly enabled: boolean; readonly status: string }): UserStatusFilter {
  if (!user.enabled) return 'DEACTIVATED';
  return user.status === 'FORCE_CHANGE_PASSWORD' ? 'INVITED' : 'ACTIVE';
}

/** The name a list shows: "(Deactivated)" follows a deactivated user's name. */
export function userDisplayName(user: {
  readonly givenName?: string | null;
  readonly familyName?: string | null;
  readonly email: string;
  readonly enabled: boolean;
}): string {
  const name = [user.givenName, user.familyName].filter(Boolean).join(' ') || user.email;
  return user.enabled ? name : `${name} (Deactivated)`;
}

/** Whether a user matches a free-text search on name and email (case-insensitive). */
export function userMatchesSearch(
  user: { readonly givenName?: string | null; readonly familyName?: string | null; readonly email: string },
  search: string,
): boolean {
  const needle = search.trim().toLowerCase();
  if (needle === '') return true;
  const haystack = [user.givenName, user.familyName, [user.givenName, user.familyName].filter(Boolean).join(' '), user.email]
    .filter(Boolean)
    .join('\n')
    .toLowerCase();
  return haystack.includes(needle);
}
