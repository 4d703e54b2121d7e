import { ApolloProvider } from '@apollo/client/react';
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { createApolloClient } from '../lib/apollo/createApolloClient';
import { createErrorStatusChannel } from '../lib/apollo/errorStatusChannel';
import { currentIdToken } from '../lib/auth/AmplifyAuthProvider';
import { useAuth } from '../lib/auth/AuthContext';
import { ErrorStatusContext } from './errorStatus';

interface ApiProviderProps {
  readonly graphqlUrl: string;
  readonly children: ReactNode;
}

/**
 * The GraphQL client of the app. A request the API refuses for want of a valid session ends the session;
 * other failures with a status show their error page (ErrorStatusListener, inside the router); whatever one
 * user's session cached is forgotten when it ends.
 */
export function ApiProvider({ graphqlUrl, children }: ApiProviderProps) {
  const auth = useAuth();
  const endSession = useRef(auth.endExpiredSession);
  useEffect(() => {
    endSession.current = auth.endExpiredSession;
  }, [auth.endExpiredSession]);

  const errorStatus = useMemo(() => createErrorStatusChannel(), []);
  const client = useMemo(
    () =>
      createApolloClient({
        graphqlUrl,
        idToken: currentIdToken,
        onUnauthorized: (message) => void endSession.current(message),
        onErrorStatus: errorStatus.publish,
      }),
    [graphqlUrl, errorStatus],
  );

  const signedOut = auth.state.status === 'anonymous';
  useEffect(() => {
    if (signedOut) void client.clearStore();
  }, [client, signedOut]);

  return (
    <ErrorStatusContext.Provider value={errorStatus}>
      <ApolloProvider client={client}>{children}</ApolloProvider>
    </ErrorStatusContext.Provider>
  );
}
