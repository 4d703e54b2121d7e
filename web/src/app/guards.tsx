import { Navigate, Outlet, useLocation, type Location } from 'react-router-dom';
import { SplashScreen } from '../components/SplashScreen';
import { useAuth } from '../lib/auth/AuthContext';
import { HOME_PATH, SIGN_IN_PATH } from './constants';

/** The location state the sign-in route receives: the page to go back to once signed in. */
export interface SignInLocationState {
  readonly referrer?: string;
}

function pathOf(location: Location): string {
  return `${location.pathname}${location.search}${location.hash}`;
}

/** The remembered referrer if it is a path of this app, else the home page. */
export function postSignInPath(state: unknown): string {
  const referrer = (state as SignInLocationState | null)?.referrer;
  const isLocalPath = typeof referrer === 'string' && referrer.startsWith('/') && !referrer.startsWith('//');
  return isLocalPath ? referrer : HOME_PATH;
}

/** Authenticated routes: an anonymous user goes to sign-in, which remembers where they were going. */
export function RequireAuth() {
  const { state } = useAuth();
  const location = useLocation();
  if (state.status === 'loading') return <SplashScreen />;
  if (state.status === 'anonymous') {
    const signInState: SignInLocationState = state.reason === 'signed-out' ? {} : { referrer: pathOf(location) };
    return <Navigate to={SIGN_IN_PATH} replace state={signInState} />;
  }
  return <Outlet />;
}

/** Anonymous-only routes: a signed-in user goes back to the remembered referrer, else home. */
export function AnonymousOnly() {
  const { state } = useAuth();
  const location = useLocation();
  if (state.status === 'loading') return <SplashScreen />;
  if (state.status === 'authenticated') return <Navigate to={postSignInPath(location.state)} replace />;
  return <Outlet />;
}
