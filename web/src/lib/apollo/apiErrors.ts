import { CombinedGraphQLErrors, ServerError, ServerParseError } from '@apollo/client/errors';

// What to tell a person when a GraphQL call fails (the specification's server error derivation, §8).

const STATUS_MESSAGES: Readonly<Record<number, string>> = {
  422: 'Unable to forward request to the underlying services. Please try again',
  502: 'Request timed out',
};
const NOT_AUTHORIZED = 'You are not authorized to perform this request';
const UNEXPECTED = 'An unexpected server error has occurred';
const UNREACHABLE = "Couldn't reach the Caracal API. Check your network connection and try again.";

interface GraphQLErrorLike {
  readonly message?: unknown;
  readonly errorType?: unknown;
  readonly extensions?: { readonly statusCode?: unknown; readonly errorType?: unknown };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function errorTypeOf(error: GraphQLErrorLike): string | undefined {
  const type = error.errorType ?? error.extensions?.errorType;
  return typeof type === 'string' ? type : undefined;
}

/** The `errors` of a GraphQL response body, if the body is one (AppSync answers 401 with such a body). */
function errorsInBody(bodyText: string): GraphQLErrorLike[] {
  try {
    const body: unknown = JSON.parse(bodyText);
    const errors = (body as { errors?: unknown }).errors;
    return Array.isArray(errors) ? (errors as GraphQLErrorLike[]) : [];
  } catch {
    return [];
  }
}

function messageOf(errors: readonly GraphQLErrorLike[]): string | undefined {
  const message = errors.find((error) => typeof error.message === 'string')?.message;
  return typeof message === 'string' && message !== '' ? capitalise(message) : undefined;
}

/** The API refused the session: HTTP 401, or a GraphQL error of type UnauthorizedException. */
export function isUnauthorized(error: unknown): boolean {
  if (ServerError.is(error)) return error.statusCode === 401;
  if (CombinedGraphQLErrors.is(error)) {
    return error.errors.some((graphQLError) => errorTypeOf(graphQLError as GraphQLErrorLike) === 'UnauthorizedException');
  }
  return false;
}

export function describeApiError(error: unknown): string {
  if (CombinedGraphQLErrors.is(error)) {
    const errors = error.errors as readonly GraphQLErrorLike[];
    const first = errors[0];
    const status = first?.extensions?.statusCode;
    if (status === 401 || status === 403 || (first && errorTypeOf(first) === 'UnauthorizedException')) {
      return messageOf(errors) ?? NOT_AUTHORIZED;
    }
    return messageOf(errors) ?? UNEXPECTED;
  }
  if (ServerError.is(error)) {
    const fixed = STATUS_MESSAGES[error.statusCode];
    if (fixed) return fixed;
    const fromBody = messageOf(errorsInBody(error.bodyText));
    if (fromBody) return fromBody;
    return error.statusCode === 401 || error.statusCode === 403 ? NOT_AUTHORIZED : UNEXPECTED;
  }
  if (ServerParseError.is(error)) return UNEXPECTED;
  if (error instanceof TypeError) return UNREACHABLE;
  if (error instanceof Error && error.message) return error.message;
  return UNEXPECTED;
}
