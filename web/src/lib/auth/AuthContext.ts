import { createContext, useContext } from 'react';
import type { Permission } from '../../../../core/permissions';

/** The user's role as the API resolved it when the session user was loaded. */
export interface SessionRole {
  readonly id: string;
  readonly name: string;
  readonly permissions: readonly Permission[];
}

/**
 * The signed-in user: who they are from the ID token, then their role and permissions from the API's `me`
 * (loaded right after sign-in and on every start with a live session; `refreshUser()` loads it again).
 * The server resolves the role per request, so for gating UI prefer `usePermissions()` (lib/permissions),
 * which follows role changes without a new sign-in; these fields are the snapshot taken at load.
 */
export interface SessionUser {
  readonly id: string;
  readonly email: string;
  readonly givenName?: string;
  readonly familyName?: string;
  /** Display name from the API: given and family name, else the email. */
  readonly name: string;
  /** The user's role with its permissions; null for a user without a role (or when the API could not be reached). */
  readonly role: SessionRole | null;
  /** The role's permissions (empty without a role). */
  readonly permissions: readonly Permission[];
  /** The role's name as a list of at most one (kept for readers written when roles came from groups). */
  readonly roles: readonly string[];
  /** When the user last authenticated with the identity provider (Unix ms). */
  readonly authenticationTime: number;
}

/** Why nobody is signed in: never was (start), chose to leave (signed-out), or the session ended (expired). */
export type SignedOutReason = 'start' | 'signed-out' | 'expired';

export type AuthState =
  | { readonly status: 'loading' }
  | {
      readonly status: 'anonymous';
      readonly reason: SignedOutReason;
      /** Why the server ended the session, in its words (a deactivated account, a sign-out from every device). */
      readonly message?: string;
    }
  | {
      readonly status: 'authenticated';
      readonly user: SessionUser;
      /**
       * The organisation requires MFA and this user has no authenticator yet: the app shows TOTP setup and
       * nothing else until it is done. Absent means false.
       */
      readonly mfaSetupRequired?: boolean;
    };

/** What an authenticator app needs to be set up: the secret, and the otpauth:// URI of the QR code. */
export interface TotpSetup {
  readonly secret: string;
  readonly uri: string;
}

/** Where a sign-in attempt stands after one step. */
export type SignInOutcome =
  | { readonly kind: 'signed-in' }
  | { readonly kind: 'new-password-required' }
  /** SOFTWARE_TOKEN_MFA: a code from the user's authenticator app. */
  | { readonly kind: 'totp-required' }
  /** MFA_SETUP (Cognito with MFA required): set up an authenticator, then answer with a code from it. */
  | { readonly kind: 'totp-setup-required'; readonly setup: TotpSetup }
  /** The identity provider asks for a step this version of the app cannot answer (the step's name). */
  | { readonly kind: 'unsupported-step'; readonly step: string };

export interface Auth {
  readonly state: AuthState;
  signIn(email: string, password: string): Promise<SignInOutcome>;
  /** Answers the NEW_PASSWORD_REQUIRED challenge of the sign-in in progress. */
  completeNewPassword(newPassword: string): Promise<SignInOutcome>;
  /** Answers the TOTP challenge (or the setup challenge) of the sign-in in progress with a 6-digit code. */
  confirmTotp(code: string): Promise<SignInOutcome>;
  /** Starts setting up an authenticator app for the signed-in user. */
  setUpTotp(): Promise<TotpSetup>;
  /** Checks a code from the new authenticator, then makes TOTP the user's preferred MFA. */
  verifyTotpSetup(code: string): Promise<void>;
  /** Whether the signed-in user has an authenticator app set up. */
  totpEnabled(): Promise<boolean>;
  /** Changes the password, then signs the user out of every device. */
  changePassword(currentPassword: string, newPassword: string): Promise<void>;
  /** Sends a password reset code; resolves to where it went (masked), when the identity provider says. */
  forgotPassword(email: string): Promise<string | undefined>;
  /** Sets a new password with the reset code. */
  resetPassword(email: string, code: string, newPassword: string): Promise<void>;
  /** Ends the session on this device, or on every device with `global`. */
  signOut(options?: { readonly global?: boolean }): Promise<void>;
  /** The API refused the session (`message`: why, when it said): end it, keeping the current page to come back to. */
  endExpiredSession(message?: string): Promise<void>;
  /** Loads the session user's profile, role and permissions again (after editing the profile, say). */
  refreshUser(): Promise<void>;
}

export const AuthContext = createContext<Auth | null>(null);

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth is used outside of an auth provider.');
  return auth;
}
