// The one authorization guard every GraphQL operation goes through, enforcing core's permission map.
import { hasPermissions, operationAccess } from '../../../core/permissions';
import type { AppSyncResolverEvent } from '../appsync';
import { ApiError } from '../errors';
import { loadCaller, type Caller } from './caller';

export const NOT_AUTHORIZED = 'You are not authorized to perform this request';
export const DEACTIVATED = 'Your account has been deactivated';

/** The caller of an operation, once the permission map allows it; refuses with Unauthorized otherwise. */
export async function authorize(event: AppSyncResolverEvent): Promise<Caller> {
  const access = operationAccess(event.info.parentTypeName, event.info.fieldName);
  if (!access || !event.identity) throw new ApiError('Unauthorized', NOT_AUTHORIZED);
  const caller = await loadCaller(event.identity);
  if (!caller.enabled) throw new ApiError('Unauthorized', DEACTIVATED);
  const allowed =
    'signedIn' in access ||
    ('anyOf' in access
      ? hasPermissions(caller.permissions, access.anyOf)
      : hasPermissions(caller.permissions, access.allOf, { all: true }));
  if (!allowed) throw new ApiError('Unauthorized', NOT_AUTHORIZED);
  return caller;
}
