// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { AnonymousOnly, postSignInPath, RequireAuth } from '../../web/src/app/guards';
import type { AuthState } from '../../web/src/lib/auth/AuthContext';
import { fakeAuth, renderInApp, signedInAs } from './support/render';

afterEach(cleanup);

/** Prints where the router is and the state it was given, so a test can read both. */
function Where({ name }: { readonly name: string }) {
  const location = useLocation();
  return (
    <output aria-label="where">
      {name} {location.pathname}
      {location.search} {JSON.stringify(location.state ?? null)}
    </output>
  );
}

function renderRoutes(state: AuthState, at: string | { pathname: string; state: unknown }) {
  renderInApp(
    <Routes>
      <Route element={<AnonymousOnly />}>
        <Route path="/sign-in/" element={<Where name="sign-in" />} />
      </Route>
      <Route element={<RequireAuth />}>
        <Route path="/" element={<Where name="home" />} />
        <Route path="*" element={<Where name="page" />} />
      </Route>
    </Routes>,
    { auth: fakeAuth(state), at },
  );
  return screen.findByRole('status', { name: 'where' }).catch(() => screen.getByLabelText('where'));
}

describe('route guards', () => {
  it('send an anonymous user to sign-in and remember the referrer', async () => {
    const where = await renderRoutes({ status: 'anonymous', reason: 'start' }, '/alerts-and-errors/?severity=HIGH');
    expect(where.textContent).toBe('sign-in /sign-in/ {"referrer":"/alerts-and-errors/?severity=HIGH"}');
  });

  it('remember the referrer when the session expired', async () => {
    const where = await renderRoutes({ status: 'anonymous', reason: 'expired' }, '/investigate/search/');
    expect(where.textContent).toBe('sign-in /sign-in/ {"referrer":"/investigate/search/"}');
  });

  it('remember nothing after the user logged out', async () => {
    const where = await renderRoutes({ status: 'anonymous', reason: 'signed-out' }, '/investigate/search/');
    expect(where.textContent).toBe('sign-in /sign-in/ {}');
  });

  it('let an authenticated user through', async () => {
    const where = await renderRoutes(signedInAs, '/investigate/search/');
    expect(where.textContent).toBe('page /investigate/search/ null');
  });

  it('send a signed-in user away from sign-in, back to the referrer', async () => {
    const where = await renderRoutes(signedInAs, { pathname: '/sign-in/', state: { referrer: '/alerts/?page=2' } });
    expect(where.textContent).toBe('page /alerts/?page=2 null');
  });

  it('send a signed-in user away from sign-in to the root when there is no referrer', async () => {
    const where = await renderRoutes(signedInAs, '/sign-in/');
    expect(where.textContent).toBe('home / null');
  });

  it('show the logo placeholder while the session is being read', async () => {
    renderInApp(
      <Routes>
        <Route element={<RequireAuth />}>
          <Route path="*" element={<Where name="page" />} />
        </Route>
      </Routes>,
      { auth: fakeAuth({ status: 'loading' }), at: '/alerts/' },
    );
    expect(await screen.findByRole('status', { name: 'Loading Caracal' })).toBeTruthy();
    expect(screen.queryByLabelText('where')).toBeNull();
  });
});

describe('the path after sign-in', () => {
  it.each([
    [{ referrer: '/alerts/?page=2#top' }, '/alerts/?page=2#top'],
    [{ referrer: '//evil.example/phish' }, '/'],
    [{ referrer: 'https://evil.example/' }, '/'],
    [{ referrer: 42 }, '/'],
    [null, '/'],
    [undefined, '/'],
  ])('from %j is %s', (state, expected) => {
    expect(postSignInPath(state)).toBe(expected);
  });
});
