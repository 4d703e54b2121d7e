// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnonymousOnly, postSignInPath, RequireAuth } from '../../web/src/app/guards';
import type { AuthState } from '../../web/src/lib/auth/AuthContext';
import { loadCurrentUser, SessionRefusedError } from '../../web/src/lib/auth/currentUser';
import {
  peekPostLoginPath,
  POST_LOGIN_PATH_KEY,
  readSessionRecord,
  savePostLoginPath,
  sessionMayBeAlive,
  SESSION_KEY,
  writeSessionRecord,
} from '../../web/src/lib/auth/sessionStore';
import { sessionUserFrom } from '../../web/src/lib/auth/sessionUser';
import { OAuthPage } from '../../web/src/screens/SignIn/OAuthPage';
import { SignInPage, SupportSignInPage } from '../../web/src/screens/SignIn/SignInPage';
import { fakeAuth, renderInApp, signedInAs } from './support/render';

const CLIENT = 'client';
const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 21, 12, 0);

beforeEach(() => localStorage.clear());
afterEach(cleanup);

function Where({ name }: { readonly name: string }) {
  const location = useLocation();
  return <output aria-label="where">{`${name} ${location.pathname}${location.search}`}</output>;
}

describe('the stored session', () => {
  const lastUser = () => localStorage.setItem(`CognitoIdentityServiceProvider.${CLIENT}.LastAuthUser`, 'u-1');

  it('counts as alive only with a last-user record and an authentication within the refresh-token lifetime', () => {
    expect(sessionMayBeAlive(CLIENT, 24, NOW)).toBe(false);
    writeSessionRecord({ userId: 'u-1', email: 'ada@example.com', authenticatedAt: NOW - 23 * HOUR });
    expect(sessionMayBeAlive(CLIENT, 24, NOW)).toBe(false);
    lastUser();
    expect(sessionMayBeAlive(CLIENT, 24, NOW)).toBe(true);
    expect(sessionMayBeAlive(CLIENT, 23, NOW)).toBe(false);
    expect(sessionMayBeAlive('another-client', 24, NOW)).toBe(false);
  });

  it('ignores a damaged record', () => {
    lastUser();
    for (const damaged of ['{', 'null', '{"userId":1}', '{"userId":"u","email":"e","authenticatedAt":"soon"}']) {
      localStorage.setItem(SESSION_KEY, damaged);
      expect(readSessionRecord()).toBeNull();
      expect(sessionMayBeAlive(CLIENT, 24, NOW)).toBe(false);
    }
  });

  it('keeps only local paths to return to', () => {
    savePostLoginPath('//evil.example/phish');
    savePostLoginPath('https://evil.example/');
    expect(localStorage.getItem(POST_LOGIN_PATH_KEY)).toBeNull();
    savePostLoginPath('/alerts-and-errors/?status=OPEN');
    expect(peekPostLoginPath()).toBe('/alerts-and-errors/?status=OPEN');
  });
});

describe('the session user', () => {
  const claims = { sub: 'u-1', email: 'ada@example.com', 'cognito:groups': ['Admin'] };

  it('takes the role and permissions from me, and the role name as roles', () => {
    const user = sessionUserFrom(
      claims,
      {
        me: {
          id: 'u-1',
          email: 'ada@example.com',
          givenName: 'Ada',
          familyName: null,
          name: 'Ada',
          enabled: true,
          status: 'CONFIRMED',
          role: { id: 'r-1', name: 'Analyst', permissions: ['AlertRead'] },
        },
        mfaRequired: false,
      },
      NOW,
    );
    expect(user).toEqual({
      id: 'u-1',
      email: 'ada@example.com',
      givenName: 'Ada',
      familyName: undefined,
      name: 'Ada',
      role: { id: 'r-1', name: 'Analyst', permissions: ['AlertRead'] },
      permissions: ['AlertRead'],
      roles: ['Analyst'],
      authenticationTime: NOW,
    });
  });

  it('has no permissions without me, whatever the token groups say', () => {
    expect(sessionUserFrom(claims, null, NOW)).toMatchObject({ role: null, permissions: [], roles: [], name: 'ada@example.com' });
    expect(sessionUserFrom({ sub: 'u-1' }, null, NOW)).toBeNull();
  });
});

describe('loading the session user', () => {
  const respond = (status: number, body: unknown) => async () => new Response(JSON.stringify(body), { status });

  it('reads me and whether MFA is required', async () => {
    const me = {
      id: 'u-1',
      email: 'a@b.c',
      givenName: null,
      familyName: null,
      name: 'a@b.c',
      enabled: true,
      status: 'CONFIRMED',
      role: null,
    };
    const fetchApi = respond(200, { data: { me, appConfig: { mfaRequired: true } } });
    await expect(loadCurrentUser('/graphql', 'token', fetchApi)).resolves.toEqual({ me, mfaRequired: true });
  });

  it('tells a refused session from other failures', async () => {
    await expect(loadCurrentUser('/graphql', 't', respond(401, {}))).rejects.toBeInstanceOf(SessionRefusedError);
    await expect(
      loadCurrentUser(
        '/graphql',
        't',
        respond(200, { errors: [{ errorType: 'UnauthorizedException', message: 'Deactivated' }] }),
      ),
    ).rejects.toBeInstanceOf(SessionRefusedError);
    await expect(loadCurrentUser('/graphql', 't', respond(200, { errors: [{ message: 'boom' }] }))).rejects.toThrow('boom');
    await expect(loadCurrentUser('/graphql', 't', async () => new Response('<html>', { status: 502 }))).rejects.toThrow(
      'The API answered 502 without the signed-in user.',
    );
  });
});

describe('the guards', () => {
  function renderRoutes(state: AuthState, at: string | { pathname: string; state: unknown }) {
    renderInApp(
      <Routes>
        <Route element={<AnonymousOnly />}>
          <Route path="/sign-in/" element={<Where name="sign-in" />} />
        </Route>
        <Route element={<RequireAuth />}>
          <Route path="*" element={<Where name="page" />} />
        </Route>
      </Routes>,
      { auth: fakeAuth(state, { setUpTotp: () => new Promise(() => undefined) }), at },
    );
  }

  it('send a signed-in user to the stored post-login path when there is no referrer, once', async () => {
    savePostLoginPath('/investigate/search/?q=saved');
    expect(postSignInPath(null)).toBe('/investigate/search/?q=saved');
    expect(postSignInPath({ referrer: '/alerts/' })).toBe('/alerts/');
    renderRoutes(signedInAs, '/sign-in/');
    expect((await screen.findByLabelText('where')).textContent).toBe('page /investigate/search/?q=saved');
    expect(peekPostLoginPath()).toBeNull();
    expect(postSignInPath(null)).toBe('/');
  });

  it('show only authenticator setup to a user who must set up MFA', async () => {
    renderRoutes({ ...signedInAs, mfaSetupRequired: true } as AuthState, '/alerts/');
    expect(await screen.findByRole('heading', { name: 'Set up two-step verification' })).toBeTruthy();
    expect(screen.queryByLabelText('where')).toBeNull();
  });
});

describe('the anonymous screens', () => {
  it('support sign-in has its own heading and title', () => {
    renderInApp(<SupportSignInPage />, { at: '/support-sign-in/' });
    expect(screen.getByRole('heading', { name: 'Support sign in' })).toBeTruthy();
    expect(document.title).toBe('Support sign in · Caracal');
    expect(screen.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe('/password-forgot/');
  });

  it('sign-in shows a notice handed over by another screen', () => {
    renderInApp(<SignInPage />, { at: { pathname: '/sign-in/', state: { notice: 'Your password has been reset.' } } });
    expect(screen.getByText('Your password has been reset.')).toBeTruthy();
    expect(document.title).toBe('Sign in · Caracal');
  });

  it('the single sign-on return page says SSO is not configured and links back to sign-in', () => {
    renderInApp(<OAuthPage />, { at: '/oauth/' });
    expect(screen.getByText('Single sign-on is not configured')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/sign-in/');
  });
});
