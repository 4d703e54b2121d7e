// @vitest-environment jsdom
// The alert routes of the route map: the older /alerts addresses lead to /alerts-and-errors/, and the alert's
// page accepts a section suffix.
import { cleanup, screen } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../web/src/app/AppRoutes';
import { fakeAuth, signedInAs } from './support/render';
import { renderWithApi } from './support/shell';

afterEach(cleanup);

function Address() {
  const { pathname, search } = useLocation();
  return <output aria-label="address">{pathname + search}</output>;
}

function renderAt(at: string) {
  renderWithApi(
    <>
      <AppRoutes />
      <Address />
    </>,
    { auth: fakeAuth(signedInAs), at, permissions: ['AlertRead'] },
  );
}

const address = () => screen.getByRole('status', { name: 'address' }).textContent;

describe('alert routes', () => {
  it.each([
    ['/alerts', '/alerts-and-errors/'],
    ['/alerts/', '/alerts-and-errors/'],
    ['/alerts/?status=OPEN', '/alerts-and-errors/?status=OPEN'],
  ])('%s shows the alerts list at %s', async (at, to) => {
    renderAt(at);
    expect(await screen.findByRole('heading', { name: 'Alerts & Errors' })).toBeTruthy();
    expect(address()).toBe(to);
  });

  it.each([
    ['/alerts/a-1', '/alerts-and-errors/a-1/'],
    ['/alerts/a%2F1/', '/alerts-and-errors/a%2F1/'],
  ])('%s redirects to the alert details at %s', async (at, to) => {
    renderAt(at);
    expect(await screen.findByRole('link', { name: '← Alerts & Errors' })).toBeTruthy();
    expect(address()).toBe(to);
  });

  it('opens the alert details with a section suffix', async () => {
    renderAt('/alerts-and-errors/a-1/events/');
    expect(await screen.findByRole('link', { name: '← Alerts & Errors' })).toBeTruthy();
    expect(screen.queryByText('Not all who wander are lost...')).toBeNull();
    expect(address()).toBe('/alerts-and-errors/a-1/events/');
  });
});
