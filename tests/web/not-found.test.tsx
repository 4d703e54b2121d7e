// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../web/src/app/AppRoutes';
import { fakeAuth, renderInApp, signedInAs } from './support/render';
import { renderWithApi } from './support/shell';

afterEach(cleanup);

describe('unknown paths', () => {
  it('show the Not Found page inside the shell, with the way back home', async () => {
    renderWithApi(<AppRoutes />, { auth: fakeAuth(signedInAs), at: '/no/such/page', permissions: ['SummaryRead'] });
    expect(await screen.findByText('Not all who wander are lost...')).toBeTruthy();
    expect((await screen.findByRole('link', { name: 'Back to Home' })).getAttribute('href')).toBe('/');
    expect(screen.getByRole('link', { name: 'Caracal home' })).toBeTruthy();
  });

  it('offer the way back home only to users who may read the overview', async () => {
    renderWithApi(<AppRoutes />, { auth: fakeAuth(signedInAs), at: '/no/such/page', permissions: ['AlertRead'] });
    expect(await screen.findByText('Not all who wander are lost...')).toBeTruthy();
    await screen.findByRole('button', { name: 'Profile menu' });
    expect(screen.queryByRole('link', { name: 'Back to Home' })).toBeNull();
  });

  it('send an anonymous visitor to sign in first', async () => {
    renderInApp(<AppRoutes />, { at: '/no/such/page' });
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByText('Not all who wander are lost...')).toBeNull();
  });
});

describe('the tab title', () => {
  it('names the page', async () => {
    renderWithApi(<AppRoutes />, { auth: fakeAuth(signedInAs), at: '/missing' });
    await screen.findByText('Not all who wander are lost...');
    expect(document.title).toBe('Not Found · Caracal');
  });
});
