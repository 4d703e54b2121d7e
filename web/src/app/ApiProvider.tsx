import { ApolloProvider } from '@apollo/client/react';
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { createApolloClient } from '../lib/apollo/createApolloClient';
import { currentIdToken } from '../lib/auth/AmplifyAuthProvider';
import { useAuth } from '../lib/auth/AuthContext';

interface ApiProviderProps {
  readonly graphqlUrl: string;
  readonly children: ReactNode;
}

/**
 * The GraphQL client of the app. A request the API refuses for want of a valid session ends the session, and
 * whatever one user's session cached is forgotten when it ends.
 */
export function ApiProvider({ graphqlUrl, children }: ApiProviderProps) {
  const auth = useAuth();
  const endSession = useRef(auth.endExpiredSession);
  useEffect(() => {
    endSession.current = auth.endExpiredSession;
  }, [auth.endExpiredSession]);

  const client = useMemo(
    () =>
      createApolloClient({
        graphqlUrl,
        idToken: currentIdToken,
        onUnauthorized: () => void endSession.current(),
      }),
    [graphqlUrl],
  );

  const signedOut = auth.state.status === 'anonymous';
  useEffect(() => {
    if (signedOut) void client.clearStore();
  }, [client, signedOut]);

  return <ApolloProvider client={client}>{children}</ApolloProvider>;
}
