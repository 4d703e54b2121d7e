import { useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation, type Location } from 'react-router-dom';
import { SplashScreen } from '../components/SplashScreen';
import { useAuth } from '../lib/auth/AuthContext';
import { clearPostLoginPath, peekPostLoginPath } from '../lib/auth/sessionStore';
import { MfaSetupPage } from '../screens/SignIn/MfaSetupPage';
import { HOME_PATH, SIGN_IN_ROUTES } from './routes';

/** The location state the anonymous routes receive: the page to go back to once signed in, and a notice. */
export interface SignInLocationState {
  readonly referrer?: string;
  /** A sentence for the sign-in screen, such as "Your password has been reset." */
  readonly notice?: string;
}

function pathOf(location: Location): string {
  return `${location.pathname}${location.search}${location.hash}`;
}

const isLocalPath = (path: unknown): path is string => typeof path === 'string' && path.startsWith('/') && !path.startsWith('//');

/** The remembered referrer if it is a path of this app, else the stored post-login path, else the home page. */
export function postSignInPath(state: unknown): string {
  const referrer = (state as SignInLocationState | null)?.referrer;
  if (isLocalPath(referrer)) return referrer;
  return peekPostLoginPath() ?? HOME_PATH;
}

/**
 * Authenticated routes: an anonymous user goes to sign-in, which remembers where they were going; a user who
 * must set up an authenticator (MFA required by the organisation) sees only that until it is done.
 */
export function RequireAuth() {
  const { state } = useAuth();
  const location = useLocation();
  if (state.status === 'loading') return <SplashScreen />;
  if (state.status === 'anonymous') {
    const signInState: SignInLocationState = state.reason === 'signed-out' ? {} : { referrer: pathOf(location) };
    return <Navigate to={SIGN_IN_ROUTES.signIn} replace state={signInState} />;
  }
  if (state.mfaSetupRequired) return <MfaSetupPage />;
  return <Outlet />;
}

/** Sends a signed-in user on, forgetting the stored post-login path once it has been used. */
function ReturnAfterSignIn({ state }: { readonly state: unknown }) {
  const [target] = useState(() => postSignInPath(state));
  useEffect(clearPostLoginPath, []);
  return <Navigate to={target} replace />;
}

/** Anonymous-only routes: a signed-in user goes back to the remembered referrer, else a stored path, else home. */
export function AnonymousOnly() {
  const { state } = useAuth();
  const location = useLocation();
  if (state.status === 'loading') return <SplashScreen />;
  if (state.status === 'authenticated') return <ReturnAfterSignIn state={location.state} />;
  return <Outlet />;
}
