import {
  confirmResetPassword,
  confirmSignIn,
  fetchAuthSession,
  fetchMFAPreference,
  resetPassword,
  setUpTOTP,
  signIn as amplifySignIn,
  signOut as amplifySignOut,
  updateMFAPreference,
  updatePassword,
  verifyTOTPSetup,
  type SignInOutput,
} from 'aws-amplify/auth';
import { Hub } from 'aws-amplify/utils';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { WebConfig } from '../../../../core/web-config';
import { useWebConfig } from '../../app/webConfig';
import { AuthContext, type Auth, type AuthState, type SignedOutReason, type SignInOutcome, type TotpSetup } from './AuthContext';
import { loadCurrentUser, SessionRefusedError, signOutEverywhere, type CurrentUser } from './currentUser';
import {
  clearSessionRecord,
  hasLastUser,
  readSessionRecord,
  savePostLoginPath,
  sessionMayBeAlive,
  writeSessionRecord,
} from './sessionStore';
import { sessionUserFrom } from './sessionUser';

/** The issuer name authenticator apps show beside the account. */
export const TOTP_ISSUER = 'Caracal';

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

async function hasTotp(): Promise<boolean> {
  try {
    return (await fetchMFAPreference()).enabled?.includes('TOTP') ?? false;
  } catch {
    return false;
  }
}

/**
 * Sign-in, session and sign-out through Amplify Auth (Cognito user pools). After every sign-in, and on start
 * with a live session, the session user is loaded from the API (`me`: role and permissions). When the
 * organisation requires MFA, a user without an authenticator sets one up right after signing in (and is held
 * there across reloads); a session begun before MFA became required goes on until the next sign-in.
 */
export function AmplifyAuthProvider({ authFlowType, children }: AmplifyAuthProviderProps) {
  const { graphqlUrl, userPoolClientId, refreshTokenHours } = useWebConfig();
  const [state, setState] = useState<AuthState>({ status: 'loading' });
  /** The email of the sign-in in progress, for the authenticator's account name. */
  const signingInAs = useRef('');

  const endSession = useCallback(async (reason: SignedOutReason, global = false, message?: string) => {
    try {
      await amplifySignOut({ global });
    } finally {
      clearSessionRecord();
      setState({ status: 'anonymous', reason, ...(message ? { message } : {}) });
    }
  }, []);
  /** Why the API last refused the session, in its words, for the sign-in page. */
  const refusal = useRef<string | undefined>(undefined);

  /**
   * Reads the tokens, loads the user from the API and decides whether MFA setup must come first: at a sign-in
   * (`signingIn`) when MFA is required and the user has no authenticator, afterwards only while that holds.
   */
  const establish = useCallback(
    async (authenticationTime: number, signingIn = false): Promise<boolean> => {
      refusal.current = undefined;
      const idToken = (await fetchAuthSession().catch(() => undefined))?.tokens?.idToken;
      if (!idToken) return false;
      let current: CurrentUser | null = null;
      try {
        current = await loadCurrentUser(graphqlUrl, idToken.toString());
      } catch (error) {
        if (error instanceof SessionRefusedError) {
          refusal.current = error.reason;
          return false;
        }
      }
      const user = sessionUserFrom(idToken.payload, current, authenticationTime);
      if (!user) return false;
      const setupDue = signingIn || readSessionRecord()?.mfaSetupPending === true;
      const mfaSetupRequired = setupDue && current?.mfaRequired === true && !(await hasTotp());
      writeSessionRecord({
        userId: user.id,
        email: user.email,
        authenticatedAt: authenticationTime,
        mfaSetupPending: mfaSetupRequired,
      });
      setState({ status: 'authenticated', user, mfaSetupRequired });
      return true;
    },
    [graphqlUrl],
  );

  useEffect(() => {
    const start = async () => {
      const record = readSessionRecord();
      if (!record || !sessionMayBeAlive(userPoolClientId, refreshTokenHours, Date.now())) {
        const leftovers = record !== null || hasLastUser(userPoolClientId);
        if (leftovers) await endSession('expired').catch(() => undefined);
        else setState({ status: 'anonymous', reason: 'start' });
        return;
      }
      if (!(await establish(record.authenticatedAt))) await endSession('expired', false, refusal.current).catch(() => undefined);
    };
    void start();
    return Hub.listen('auth', ({ payload }) => {
      if (payload.event === 'tokenRefresh_failure') void endSession('expired').catch(() => undefined);
    });
  }, [establish, endSession, userPoolClientId, refreshTokenHours]);

  const afterStep = useCallback(
    async ({ isSignedIn, nextStep }: SignInOutput): Promise<SignInOutcome> => {
      if (isSignedIn || nextStep.signInStep === 'DONE') {
        if (await establish(Date.now(), true)) return { kind: 'signed-in' };
        throw new Error('Signed in, but the session has no ID token with an email address.');
      }
      switch (nextStep.signInStep) {
        case 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED':
          return { kind: 'new-password-required' };
        case 'CONFIRM_SIGN_IN_WITH_TOTP_CODE':
          return { kind: 'totp-required' };
        case 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP': {
          const details = nextStep.totpSetupDetails;
          const setup: TotpSetup = {
            secret: details.sharedSecret,
            uri: details.getSetupUri(TOTP_ISSUER, signingInAs.current).toString(),
          };
          return { kind: 'totp-setup-required', setup };
        }
        case 'CONTINUE_SIGN_IN_WITH_MFA_SETUP_SELECTION':
          return afterStep(await confirmSignIn({ challengeResponse: 'TOTP' }));
        default:
          return { kind: 'unsupported-step', step: nextStep.signInStep };
      }
    },
    [establish],
  );

  const auth = useMemo<Auth>(() => {
    const signInOnce = (email: string, password: string) =>
      amplifySignIn({ username: email.trim(), password, options: { authFlowType } });
    return {
      state,
      async signIn(email, password) {
        signingInAs.current = email.trim();
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
      async confirmTotp(code) {
        return afterStep(await confirmSignIn({ challengeResponse: code.trim() }));
      },
      async setUpTotp() {
        const details = await setUpTOTP();
        const account = state.status === 'authenticated' ? state.user.email : signingInAs.current;
        return { secret: details.sharedSecret, uri: details.getSetupUri(TOTP_ISSUER, account).toString() };
      },
      async verifyTotpSetup(code) {
        await verifyTOTPSetup({ code: code.trim() });
        await updateMFAPreference({ totp: 'PREFERRED' });
        setState((current) => (current.status === 'authenticated' ? { ...current, mfaSetupRequired: false } : current));
      },
      totpEnabled: hasTotp,
      async changePassword(currentPassword, newPassword) {
        await updatePassword({ oldPassword: currentPassword, newPassword });
        // The password has changed whatever happens next; this device's session ends either way. The API
        // refuses the tokens every other device holds (Cognito's global sign-out leaves ID tokens valid).
        await signOutEverywhere(graphqlUrl, await currentIdToken()).catch(() => undefined);
        await endSession('signed-out', true).catch(() => undefined);
      },
      async forgotPassword(email) {
        const output = await resetPassword({ username: email.trim() });
        return output.nextStep.codeDeliveryDetails?.destination;
      },
      async resetPassword(email, code, newPassword) {
        await confirmResetPassword({ username: email.trim(), confirmationCode: code.trim(), newPassword });
      },
      signOut(options) {
        return endSession('signed-out', options?.global === true);
      },
      async endExpiredSession(message) {
        savePostLoginPath(`${window.location.pathname}${window.location.search}${window.location.hash}`);
        await endSession('expired', false, message);
      },
      async refreshUser() {
        if (state.status === 'authenticated') await establish(state.user.authenticationTime);
      },
    };
  }, [state, authFlowType, afterStep, endSession, establish, graphqlUrl]);

  return <AuthContext.Provider value={auth}>{children}</AuthContext.Provider>;
}
