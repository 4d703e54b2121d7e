// Errors a resolver may raise on purpose. Their names are the error types of the API contract: a Direct
// Lambda resolver's thrown error reaches the client as `errorType` (the name) and `message`.
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
  | 'Unauthorized';

/** What a caller is told of a failure nobody raised on purpose (the details go to the function's log). */
export const UNEXPECTED_ERROR = 'An unexpected server error has occurred';

export class ApiError extends Error {
  constructor(
    readonly errorType: ErrorType,
    message: string,
  ) {
    super(message);
    this.name = errorType;
  }
}
