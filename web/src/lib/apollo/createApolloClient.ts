import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { SetContextLink } from '@apollo/client/link/context';
import { ErrorLink } from '@apollo/client/link/error';
import { map } from 'rxjs';
import { errorStatusOf, isNestedAccessDenied, isUnauthorized, sessionRefusalMessage, type ErrorStatus } from './apiErrors';

/** How a call takes part in the data-layer rule; set as the operation's `context`. */
export interface DataLayerContext {
  /** Failures of this call never change the page: the screen shows them itself. */
  readonly silent?: boolean;
  /** A 404 is expected (looking something up that may be missing): it does not show the Not Found page. */
  readonly ignoreNotFound?: boolean;
}

/** The context of a call whose failures the screen shows itself. */
export const SILENT: DataLayerContext = { silent: true };

interface ApolloClientOptions {
  /** The GraphQL endpoint: AppSync on AWS, `/graphql` of the local runtime. */
  readonly graphqlUrl: string;
  /** The current session's ID token, '' when there is none. */
  readonly idToken: () => Promise<string>;
  /** Called when the API refuses the session (HTTP 401, or AppSync's UnauthorizedException), with why when it said. */
  readonly onUnauthorized: (message?: string) => void;
  /** Called when a failed call should show an error page (the data-layer rule of the error catalogue). */
  readonly onErrorStatus?: (status: ErrorStatus) => void;
}

/** Drops the "access denied" errors of nested fields, keeping the rest of the answer. */
const dropNestedAccessDenied = new ApolloLink((operation, forward) =>
  forward(operation).pipe(
    map((result) => {
      if (!('errors' in result) || !result.errors) return result;
      const errors = result.errors.filter((error) => !isNestedAccessDenied(error));
      if (errors.length === result.errors.length) return result;
      const { errors: _dropped, ...rest } = result;
      return errors.length > 0 ? { ...rest, errors } : rest;
    }),
  ),
);

/**
 * One client per app: every request carries the session's ID token in `Authorization`, as AppSync expects; a
 * refused session ends it; other failures with a status show the matching error page unless the call is silent.
 */
export function createApolloClient({ graphqlUrl, idToken, onUnauthorized, onErrorStatus }: ApolloClientOptions): ApolloClient {
  const authorization = new SetContextLink(async (previous) => ({
    headers: { ...previous.headers, Authorization: await idToken() },
  }));
  const unauthorized = new ErrorLink(({ error }) => {
    if (isUnauthorized(error)) onUnauthorized(sessionRefusalMessage(error));
  });
  const errorPages = new ErrorLink(({ error, operation }) => {
    const context = operation.getContext() as DataLayerContext;
    if (context.silent || !onErrorStatus) return;
    const status = errorStatusOf(error, { ignoreNotFound: context.ignoreNotFound });
    if (status !== undefined) onErrorStatus(status);
  });
  return new ApolloClient({
    link: ApolloLink.from([unauthorized, errorPages, dropNestedAccessDenied, authorization, new HttpLink({ uri: graphqlUrl })]),
    cache: new InMemoryCache(),
  });
}
