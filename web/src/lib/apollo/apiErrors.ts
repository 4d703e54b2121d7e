import { CombinedGraphQLErrors, ServerError } from '@apollo/client/errors';

// What to tell a person when a call fails (the server's own message where it gave one), and which status
// code a failure stands for (which picks the error page the data layer shows).

export const NOT_AUTHORIZED = 'You are not authorized to perform this request';
export const NOT_FOUND = "The resource you requested couldn't be found on our servers";
export const UNEXPECTED = 'An unexpected server error has occurred';
const STATUS_MESSAGES: Readonly<Record<number, string>> = {
  422: 'Unable to forward request to the underlying services. Please try again',
  502: 'Request timed out',
};

/**
 * The status a GraphQL error stands for. AppSync errors carry an `errorType` rather than a status code: the
 * session's refusal (UnauthorizedException) is 401, the guard's refusal (Unauthorized) 403, NotFound 404, and
 * a server failure (ServerError, or a resolver that crashed: Lambda:Unhandled) 500. An explicit
 * `extensions.statusCode` wins.
 */
const ERROR_TYPE_STATUS: Readonly<Record<string, number>> = {
  UnauthorizedException: 401,
  Unauthorized: 403,
  NotFound: 404,
  ServerError: 500,
  'Lambda:Unhandled': 500,
};

interface GraphQLErrorLike {
  readonly message?: unknown;
  readonly errorType?: unknown;
  /** What the API adds to a refused input: each broken rule on its field. */
  readonly errorInfo?: { readonly fieldErrors?: unknown } | null;
  readonly path?: readonly (string | number)[];
  readonly extensions?: { readonly statusCode?: unknown; readonly errorType?: unknown };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function errorTypeOf(error: GraphQLErrorLike): string | undefined {
  return textOf(error.errorType) ?? textOf(error.extensions?.errorType);
}

/** The status code of one GraphQL error, if it carries one. */
export function graphQLErrorStatus(error: GraphQLErrorLike): number | undefined {
  const explicit = error.extensions?.statusCode;
  if (typeof explicit === 'number' && Number.isInteger(explicit)) return explicit;
  const type = errorTypeOf(error);
  return type === undefined ? undefined : ERROR_TYPE_STATUS[type];
}

/** The body of a failed HTTP response, when it is a JSON object (the "result" of a network error). */
function resultOf(error: ServerError): { errors?: unknown; message?: unknown } | undefined {
  try {
    const body: unknown = JSON.parse(error.bodyText);
    return typeof body === 'object' && body !== null && !Array.isArray(body) ? body : undefined;
  } catch {
    return undefined;
  }
}

function firstErrorMessage(errors: unknown): string | undefined {
  return Array.isArray(errors) ? textOf((errors[0] as GraphQLErrorLike | undefined)?.message) : undefined;
}

/** The API refused the session: HTTP 401, or a GraphQL error of type UnauthorizedException. */
export function isUnauthorized(error: unknown): boolean {
  if (ServerError.is(error)) return error.statusCode === 401;
  if (CombinedGraphQLErrors.is(error)) {
    return error.errors.some((graphQLError) => errorTypeOf(graphQLError as GraphQLErrorLike) === 'UnauthorizedException');
  }
  return false;
}

/** Why the API refused the session, in its words: the message of a GraphQL UnauthorizedException, if any. */
export function sessionRefusalMessage(error: unknown): string | undefined {
  if (!CombinedGraphQLErrors.is(error)) return undefined;
  const refusal = (error.errors as readonly GraphQLErrorLike[]).find((e) => errorTypeOf(e) === 'UnauthorizedException');
  return refusal && textOf(refusal.message);
}

function describeNetworkError(error: Error): string {
  if (ServerError.is(error)) {
    const result = resultOf(error);
    if (result) return firstErrorMessage(result.errors) ?? textOf(result.message) ?? error.message;
    const fixed = STATUS_MESSAGES[error.statusCode];
    if (fixed) return fixed;
  }
  return error.message || UNEXPECTED;
}

function describeGraphQLErrors(errors: readonly GraphQLErrorLike[]): string {
  const first = errors[0];
  if (!first) return UNEXPECTED;
  const message = textOf(first.message);
  switch (graphQLErrorStatus(first)) {
    case 401:
    case 403:
      return message ? capitalise(message) : NOT_AUTHORIZED;
    case 404:
      return message ?? NOT_FOUND;
    default:
      return message ? capitalise(message) : UNEXPECTED;
  }
}

/**
 * The message of a failed call: a network error with a result uses the first error message, else the
 * result's message, else the network error's message; without a result, 502 and 422 have fixed messages;
 * GraphQL errors give the first one's message (401/403 and 404 have fallbacks); nothing known gives
 * "An unexpected server error has occurred".
 */
export function describeApiError(error: unknown): string {
  if (CombinedGraphQLErrors.is(error)) return describeGraphQLErrors(error.errors as readonly GraphQLErrorLike[]);
  if (error instanceof Error) return describeNetworkError(error);
  return UNEXPECTED;
}

/** The status an error page is chosen by: an HTTP or GraphQL status code, or unknown for a failed fetch. */
export type ErrorStatus = number | 'unknown';

export interface ErrorStatusOptions {
  /** The call expects that what it asks for may be missing: a 404 is its own business. */
  readonly ignoreNotFound?: boolean;
}

/**
 * The status a failed call puts in the location (showing its error page), if any. A GraphQL error with a
 * status (except 404 when ignored) or a network error's HTTP status counts; a network error without a status
 * is unknown. A 401 is not a page: the session ends instead.
 */
export function errorStatusOf(error: unknown, { ignoreNotFound = false }: ErrorStatusOptions = {}): ErrorStatus | undefined {
  let status: ErrorStatus | undefined;
  if (CombinedGraphQLErrors.is(error)) {
    status = (error.errors as readonly GraphQLErrorLike[])
      .map(graphQLErrorStatus)
      .find((code) => code !== undefined && !(code === 404 && ignoreNotFound));
  } else if (ServerError.is(error)) {
    status = error.statusCode;
  } else if (error instanceof Error) {
    status = 'unknown';
  }
  return status === 401 ? undefined : status;
}

/** Errors of a nested field whose message is "access denied": the rest of the answer stands without them. */
export function isNestedAccessDenied(error: GraphQLErrorLike): boolean {
  return textOf(error.message)?.toLowerCase() === 'access denied' && (error.path?.length ?? 0) > 1;
}

/** The API's error type of a failed call (AlreadyExists, InUse, InvalidInput, ...), if the server gave one. */
export function apiErrorType(error: unknown): string | undefined {
  if (!CombinedGraphQLErrors.is(error)) return undefined;
  const first = error.errors[0] as GraphQLErrorLike | undefined;
  return first ? errorTypeOf(first) : undefined;
}

/**
 * The fields a refused input names, with why: an InvalidInput error carries them as `errorInfo.fieldErrors`
 * (`{ path, message }` each); an AlreadyExists error concerns the field `taken` names. Undefined when the
 * failure is about no field.
 */
export function fieldErrorsOf(error: unknown, taken: string): Record<string, string> | undefined {
  if (!CombinedGraphQLErrors.is(error)) return undefined;
  const first = error.errors[0] as GraphQLErrorLike | undefined;
  const message = textOf(first?.message);
  if (!first || !message) return undefined;
  const type = errorTypeOf(first);
  if (type === 'AlreadyExists') return { [taken]: message };
  if (type !== 'InvalidInput') return undefined;
  const listed = first.errorInfo?.fieldErrors;
  const found: Record<string, string> = {};
  for (const entry of Array.isArray(listed) ? (listed as unknown[]) : []) {
    const { path, message: why } = (entry ?? {}) as { path?: unknown; message?: unknown };
    const field = textOf(path);
    const text = textOf(why);
    if (field && text && !(field in found)) found[field] = text;
  }
  return Object.keys(found).length ? found : undefined;
}

/** The call's answer; a failure is thrown again as an Error whose message is the one to show a person. */
export async function describingFailure<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw new Error(describeApiError(error), { cause: error });
  }
}
