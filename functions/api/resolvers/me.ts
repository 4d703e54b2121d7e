import type { AppSyncResolverEvent } from '../../lib/appsync';
import type { Caller } from '../../lib/auth';
import { getSignedInUser, type UserView } from '../../lib/users';

/** The signed-in user, read fresh from the user pool, with the role and permissions the guard resolved. */
export const me = (_event: AppSyncResolverEvent, caller: Caller): Promise<UserView> => getSignedInUser(caller);
