import { CombinedGraphQLErrors } from '@apollo/client/errors';

/** The API's error type of a failed call (AlreadyExists, InUse, InvalidInput, ...), if the server gave one. */
export function apiErrorType(error: unknown): string | undefined {
  if (!CombinedGraphQLErrors.is(error)) return undefined;
  const first = error.errors[0] as { errorType?: unknown; extensions?: { errorType?: unknown } } | undefined;
  const type = first?.errorType ?? first?.extensions?.errorType;
  return typeof type === 'string' ? type : undefined;
}
