import { ApolloProvider } from '@apollo/client/react';
import { useMemo, useRef, type ReactNode } from 'react';
import { createApolloClient } from '../lib/apollo/createApolloClient';
import { currentIdToken } from '../lib/auth/AmplifyAuthProvider';
import { useAuth } from '../lib/auth/AuthContext';

interface ApiProviderProps {
  readonly graphqlUrl: string;
  readonly children: ReactNode;
}

/** The GraphQL client of the app; a request the API refuses for want of a valid session ends the session. */
export function ApiProvider({ graphqlUrl, children }: ApiProviderProps) {
  const auth = useAuth();
  const endSession = useRef(auth.endExpiredSession);
  endSession.current = auth.endExpiredSession;

  const client = useMemo(
    () =>
      createApolloClient({
        graphqlUrl,
        idToken: currentIdToken,
        onUnauthorized: () => void endSession.current(),
      }),
    [graphqlUrl],
  );

  return <ApolloProvider client={client}>{children}</ApolloProvider>;
}
