// How the users area refuses a request: input with its first broken rule (the message the forms show, on its
// field), and a change beyond the actor's own permissions (core/permissions/grants.ts).
import { ApiError, type ErrorType } from '../errors';

/** Refuses input breaking a rule: the first broken rule of `errors` (field → message, in field order). */
export function refuseFirst(errors: Readonly<Record<string, string | undefined>>, errorType: ErrorType = 'InvalidInput'): void {
  const broken = Object.entries(errors).find((entry): entry is [string, string] => !!entry[1]);
  if (broken) throw new ApiError(errorType, broken[1], [{ path: broken[0], message: broken[1] }]);
}

/** Refuses a change the actor's own permissions do not cover. */
export function refuseBeyond(message: string | undefined): void {
  if (message) throw new ApiError('Unauthorized', message);
}
