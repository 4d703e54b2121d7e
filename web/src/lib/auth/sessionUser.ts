import type { SessionUser } from './AuthContext';

/** Builds the session user from the claims of a Cognito ID token; null when the token lacks the user's id or email. */
export function sessionUserFromClaims(claims: Readonly<Record<string, unknown>>): SessionUser | null {
  const id = claims.sub;
  const email = claims.email;
  if (typeof id !== 'string' || typeof email !== 'string') return null;
  const groups = claims['cognito:groups'];
  return {
    id,
    email,
    givenName: typeof claims.given_name === 'string' ? claims.given_name : undefined,
    familyName: typeof claims.family_name === 'string' ? claims.family_name : undefined,
    roles: Array.isArray(groups) ? groups.filter((group): group is string => typeof group === 'string') : [],
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
