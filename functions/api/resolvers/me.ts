import { getSignedInUser } from '../../lib/users';
import type { Resolver } from './types';

/** The signed-in user, read fresh from the user pool, with the role and permissions the guard resolved. */
export const me: Resolver<'Query.me'> = (_event, caller) => getSignedInUser(caller);
