// The deployment's first administrator. The deployment creates them in the user pool's Admin group (on AWS
// from the stack, locally from the template) but cannot write their user record; their first request does.
// The Admin group in a token counts for that, and only that: once, while no bootstrap has happened, for a
// user the pool still holds, enabled and in the group. Afterwards a token's groups confer nothing; a user
// without a record (deleted, or created outside Caracal) is refused whatever their token says.
import { ADMIN_ROLE } from '../../../core/permissions';
import type { CognitoIdentity } from '../appsync';
import { ApiError } from '../errors';
import { claimBootstrap, finishBootstrap, unfinishedBootstrap } from './admins';
import { ADMIN_GROUP, getDirectoryUser, inAdminGroup } from './directory';
import { getUserRecord, saveUser } from './records';

/**
 * Writes the first administrator's user record when this caller is them, on their first requests (several
 * may arrive together: one starts the bootstrap, all finish it). True when the caller now has a record.
 */
export async function bootstrapFirstAdmin(identity: CognitoIdentity): Promise<boolean> {
  if (!(identity.groups ?? []).includes(ADMIN_GROUP)) return false;
  const user = await getDirectoryUser(identity.sub);
  if (!user || !user.enabled || !(await inAdminGroup(user.id))) return false;
  if (!(await claimBootstrap(user.id)) && (await unfinishedBootstrap()) !== user.id) {
    // Another request of theirs may have just finished it.
    return (await getUserRecord(user.id)) !== null;
  }
  const record = {
    id: user.id,
    roleId: ADMIN_ROLE.id,
    enabled: true,
    email: user.email,
    givenName: user.givenName,
    familyName: user.familyName,
  };
  try {
    await saveUser(null, record);
  } catch (err) {
    if (!(err instanceof ApiError && err.errorType === 'RevisionConflict')) throw err;
  }
  await finishBootstrap(user.id);
  return true;
}
