// Who is calling: the signed-in user's role and permissions, read fresh on every request (through the users
// area) so that a role change or a deactivation takes effect on the next request, not the next sign-in. The
// token's groups play no part: a user without a user record is no caller (the guard refuses them, bar the
// first administrator's bootstrap, functions/lib/users/bootstrap.ts).
import type { CognitoIdentity } from '../appsync';
import { userAccess, type Caller } from '../users';

// The Caller type is the users area's (auth is above users: users takes the acting Caller without importing auth);
// every other area takes it from auth's door.
export type { Caller };

/** How a change is signed in audit stamps (createdBy, updatedBy) and notifications: the email, else the user name. */
export const actorName = (caller: Pick<Caller, 'email' | 'username'>) => caller.email || caller.username;

/** A caller as loaded, with the second (Unix) at or before which their tokens were revoked, if ever. */
export interface LoadedCaller extends Caller {
  readonly tokensValidAfter: number | null;
}

/** The caller behind a verified identity, or null when they have no user record. */
export async function loadCaller(identity: CognitoIdentity): Promise<LoadedCaller | null> {
  const access = await userAccess(identity.sub);
  if (!access) return null;
  return {
    id: identity.sub,
    username: identity.username,
    email: typeof identity.claims.email === 'string' ? identity.claims.email : '',
    ...access,
  };
}
