// The one authorization guard every GraphQL operation goes through, enforcing core's permission map.
import { hasPermissions, operationAccess } from '../../../core/permissions';
import type { AppSyncResolverEvent } from '../appsync';
import { ApiError } from '../errors';
import { bootstrapFirstAdmin } from '../users';
import { loadCaller, type Caller } from './caller';

export const NOT_AUTHORIZED = 'You are not authorized to perform this request';
export const DEACTIVATED = 'Your account has been deactivated';
export const ACCOUNT_GONE = 'Your account no longer exists. Ask an administrator to invite you.';
export const SIGNED_OUT_EVERYWHERE = 'You have been signed out of every device. Sign in again to continue.';

/** The token was issued at or before the user's last sign-out from every device (Cognito keeps ID tokens valid). */
function revoked(issuedAt: unknown, tokensValidAfter: number | null): boolean {
  return typeof tokensValidAfter === 'number' && (typeof issuedAt !== 'number' || issuedAt <= tokensValidAfter);
}

/**
 * The caller of an operation, once the permission map allows it; refuses with Unauthorized otherwise. A
 * session that may not go on (a deactivated user, a token from before a sign-out from every device) is
 * refused as AppSync refuses a token, UnauthorizedException, which signs the client out with the message.
 */
export async function authorize(event: AppSyncResolverEvent): Promise<Caller> {
  const access = operationAccess(event.info.parentTypeName, event.info.fieldName);
  if (!access || !event.identity) throw new ApiError('Unauthorized', NOT_AUTHORIZED);
  const identity = event.identity;
  // A valid token is not enough: a deleted user's tokens stay valid until they expire.
  const caller = (await loadCaller(identity)) ?? ((await bootstrapFirstAdmin(identity)) ? await loadCaller(identity) : null);
  if (!caller) throw new ApiError('Unauthorized', ACCOUNT_GONE);
  if (!caller.enabled) throw new ApiError('UnauthorizedException', DEACTIVATED);
  if (revoked(identity.claims.iat, caller.tokensValidAfter)) throw new ApiError('UnauthorizedException', SIGNED_OUT_EVERYWHERE);
  const allowed =
    'signedIn' in access ||
    ('anyOf' in access
      ? hasPermissions(caller.permissions, access.anyOf)
      : hasPermissions(caller.permissions, access.allOf, { all: true }));
  if (!allowed) throw new ApiError('Unauthorized', NOT_AUTHORIZED);
  return caller;
}
