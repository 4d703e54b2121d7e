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

export class ApiError extends Error {
  constructor(
    readonly errorType: ErrorType,
    message: string,
  ) {
    super(message);
    this.name = errorType;
  }
}
