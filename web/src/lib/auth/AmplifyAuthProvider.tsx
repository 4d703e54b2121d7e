import {
  confirmSignIn,
  fetchAuthSession,
  signIn as amplifySignIn,
  signOut as amplifySignOut,
  type SignInOutput,
} from 'aws-amplify/auth';
import { Hub } from 'aws-amplify/utils';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { WebConfig } from '../../../../core/web-config';
import { AuthContext, type Auth, type AuthState, type SignedOutReason, type SignInOutcome } from './AuthContext';
import { sessionUserFromClaims } from './sessionUser';

interface AmplifyAuthProviderProps {
  readonly authFlowType: WebConfig['authFlowType'];
  readonly children: ReactNode;
}

/** The ID token of the current session (refreshed when due), or '' when nobody is signed in. */
export async function currentIdToken(): Promise<string> {
  try {
    const session = await fetchAuthSession();
    return session.tokens?.idToken?.toString() ?? '';
  } catch {
    return '';
  }
}

/** Sign-in, session and sign-out through Amplify Auth (Cognito user pools). */
export function AmplifyAuthProvider({ authFlowType, children }: AmplifyAuthProviderProps) {
  const [state, setState] = useState<AuthState>({ status: 'loading' });

  const readSession = useCallback(async (reasonIfNone: SignedOutReason): Promise<boolean> => {
    let claims: Record<string, unknown> | undefined;
    try {
      claims = (await fetchAuthSession()).tokens?.idToken?.payload;
    } catch {
      claims = undefined;
    }
    const user = claims ? sessionUserFromClaims(claims) : null;
    setState(user ? { status: 'authenticated', user } : { status: 'anonymous', reason: reasonIfNone });
    return user !== null;
  }, []);

  useEffect(() => {
    void readSession('start');
    return Hub.listen('auth', ({ payload }) => {
      if (payload.event === 'tokenRefresh_failure') setState({ status: 'anonymous', reason: 'expired' });
    });
  }, [readSession]);

  const afterStep = useCallback(
    async ({ isSignedIn, nextStep }: SignInOutput): Promise<SignInOutcome> => {
      if (isSignedIn || nextStep.signInStep === 'DONE') {
        if (await readSession('start')) return { kind: 'signed-in' };
        throw new Error('Signed in, but the session has no ID token with an email address.');
      }
      if (nextStep.signInStep === 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED') return { kind: 'new-password-required' };
      return { kind: 'unsupported-step', step: nextStep.signInStep };
    },
    [readSession],
  );

  const auth = useMemo<Auth>(() => {
    const signInOnce = (email: string, password: string) =>
      amplifySignIn({ username: email.trim(), password, options: { authFlowType } });
    return {
      state,
      async signIn(email, password) {
        try {
          return await afterStep(await signInOnce(email, password));
        } catch (error) {
          if ((error as { name?: unknown }).name !== 'UserAlreadyAuthenticatedException') throw error;
          await amplifySignOut();
          return afterStep(await signInOnce(email, password));
        }
      },
      async completeNewPassword(newPassword) {
        return afterStep(await confirmSignIn({ challengeResponse: newPassword }));
      },
      async signOut() {
        await amplifySignOut();
        setState({ status: 'anonymous', reason: 'signed-out' });
      },
      async endExpiredSession() {
        try {
          await amplifySignOut();
        } finally {
          setState({ status: 'anonymous', reason: 'expired' });
        }
      },
    };
  }, [state, authFlowType, afterStep]);

  return <AuthContext.Provider value={auth}>{children}</AuthContext.Provider>;
}
