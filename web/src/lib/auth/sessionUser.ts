import type { SessionUser } from './AuthContext';
import type { CurrentUser } from './currentUser';

/** The user's id and email from the claims of a Cognito ID token; null when the token lacks either. */
export function identityFromClaims(
  claims: Readonly<Record<string, unknown>>,
): Pick<SessionUser, 'id' | 'email' | 'givenName' | 'familyName'> | null {
  const id = claims.sub;
  const email = claims.email;
  if (typeof id !== 'string' || typeof email !== 'string') return null;
  return {
    id,
    email,
    givenName: typeof claims.given_name === 'string' ? claims.given_name : undefined,
    familyName: typeof claims.family_name === 'string' ? claims.family_name : undefined,
  };
}

/**
 * The session user from the ID token's claims and, when the API answered, `me` (profile, role, permissions).
 * Without `me` the user has no role and no permissions: the UI then shows nothing gated.
 */
export function sessionUserFrom(
  claims: Readonly<Record<string, unknown>>,
  current: CurrentUser | null,
  authenticationTime: number,
): SessionUser | null {
  const identity = identityFromClaims(claims);
  if (!identity) return null;
  const me = current?.me;
  const role = me?.role ? { id: me.role.id, name: me.role.name, permissions: me.role.permissions } : null;
  const givenName = me ? (me.givenName ?? undefined) : identity.givenName;
  const familyName = me ? (me.familyName ?? undefined) : identity.familyName;
  return {
    ...identity,
    email: me?.email ?? identity.email,
    givenName,
    familyName,
    name: me?.name ?? displayName({ email: identity.email, givenName, familyName }),
    role,
    permissions: role?.permissions ?? [],
    roles: role ? [role.name] : [],
    authenticationTime,
  };
}

/** "Ada Lovelace", else the email. */
export function displayName(user: Pick<SessionUser, 'email' | 'givenName' | 'familyName'>): string {
  const name = [user.givenName, user.familyName].filter(Boolean).join(' ').trim();
  return name || user.email;
}

/** Up to two letters for the avatar: the initials of the name, else the first letter of the email. */
export function initials(user: Pick<SessionUser, 'email' | 'givenName' | 'familyName'>): string {
  const fromName = [user.givenName, user.familyName].map((part) => part?.trim().charAt(0) ?? '').join('');
  return (fromName || user.email.charAt(0)).toUpperCase();
}
