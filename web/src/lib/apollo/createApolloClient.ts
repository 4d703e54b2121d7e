import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { SetContextLink } from '@apollo/client/link/context';
import { ErrorLink } from '@apollo/client/link/error';
import { isUnauthorized } from './apiErrors';

interface ApolloClientOptions {
  /** The GraphQL endpoint: AppSync on AWS, `/graphql` of the local runtime. */
  readonly graphqlUrl: string;
  /** The current session's ID token, '' when there is none. */
  readonly idToken: () => Promise<string>;
  /** Called when the API refuses the session (HTTP 401, or AppSync's UnauthorizedException). */
  readonly onUnauthorized: () => void;
}

/** One client per app: every request carries the session's ID token in `Authorization`, as AppSync expects. */
export function createApolloClient({ graphqlUrl, idToken, onUnauthorized }: ApolloClientOptions): ApolloClient {
  const authorization = new SetContextLink(async (previous) => ({
    headers: { ...previous.headers, Authorization: await idToken() },
  }));
  const unauthorized = new ErrorLink(({ error }) => {
    if (isUnauthorized(error)) onUnauthorized();
  });
  return new ApolloClient({
    link: ApolloLink.from([unauthorized, authorization, new HttpLink({ uri: graphqlUrl })]),
    cache: new InMemoryCache(),
  });
}
