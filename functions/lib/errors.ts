// Errors a service raises on purpose. Their names are the error types of the API contract; how they reach a
// client (errorType, message and, for refused input, the field errors) is the api function's business
// (functions/api/errors.ts).
export type ErrorType =
  | 'AlreadyExists'
  | 'InUse'
  | 'InvalidInput'
  | 'InvalidLogSchema'
  | 'InvalidSyntax'
  | 'InvalidUpdate'
  | 'NotFound'
  | 'RevisionConflict'
  | 'ServerError'
  | 'Unauthorized'
  /** The session itself is refused (AppSync's own type for a refused token): the client signs the user out. */
  | 'UnauthorizedException';

/** What a caller is told of a failure nobody raised on purpose (the details go to the function's log). */
export const UNEXPECTED_ERROR = 'An unexpected server error has occurred';

/** One broken rule of refused input: where (`label`, `s3Prefixes[2].prefix`, `body`) and what is wrong. */
export interface FieldError {
  readonly path: string;
  readonly message: string;
}

export class ApiError extends Error {
  constructor(
    readonly errorType: ErrorType,
    message: string,
    /** For refused input: every broken rule, each on its field, so a form can show each beside its field. */
    readonly fieldErrors: readonly FieldError[] = [],
  ) {
    super(message);
    this.name = errorType;
  }
}

/**
 * Refused input with every broken rule (from a list, or a record of path → message). The message lists them
 * as `path: message; path: message` for people and logs; forms read the field errors.
 */
export function invalidInput(
  errors: readonly FieldError[] | Readonly<Record<string, string>>,
  errorType: ErrorType = 'InvalidInput',
): ApiError {
  const list: FieldError[] = Array.isArray(errors)
    ? [...(errors as readonly FieldError[])]
    : Object.entries(errors as Record<string, string>).map(([path, message]) => ({ path, message }));
  return new ApiError(errorType, list.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; '), list);
}
