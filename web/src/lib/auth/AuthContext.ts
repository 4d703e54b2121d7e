import { createContext, useContext } from 'react';

/** The signed-in user, as the identity provider's ID token describes them. */
export interface SessionUser {
  readonly id: string;
  readonly email: string;
  readonly givenName?: string;
  readonly familyName?: string;
  /** The user's groups in the user pool; a group is a role. */
  readonly roles: readonly string[];
}

/** Why nobody is signed in: never was (start), chose to leave (signed-out), or the session ended (expired). */
export type SignedOutReason = 'start' | 'signed-out' | 'expired';

export type AuthState =
  | { readonly status: 'loading' }
  | { readonly status: 'anonymous'; readonly reason: SignedOutReason }
  | { readonly status: 'authenticated'; readonly user: SessionUser };

/** Where a sign-in attempt stands after one step. */
export type SignInOutcome =
  | { readonly kind: 'signed-in' }
  | { readonly kind: 'new-password-required' }
  /** The identity provider asks for a step this version of the app cannot answer (the step's name). */
  | { readonly kind: 'unsupported-step'; readonly step: string };

export interface Auth {
  readonly state: AuthState;
  signIn(email: string, password: string): Promise<SignInOutcome>;
  /** Answers the NEW_PASSWORD_REQUIRED challenge of the sign-in in progress. */
  completeNewPassword(newPassword: string): Promise<SignInOutcome>;
  /** Ends the session on this device. */
  signOut(): Promise<void>;
  /** The API refused the session: end it, keeping the current page to come back to. */
  endExpiredSession(): Promise<void>;
}

export const AuthContext = createContext<Auth | null>(null);

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth is used outside of an auth provider.');
  return auth;
}
