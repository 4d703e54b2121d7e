// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Can } from '../../web/src/lib/permissions';
import { fakeAuth } from './support/render';
import { permissionsMock, renderWithApi } from './support/shell';

afterEach(cleanup);

describe('Can', () => {
  it('shows its content when the user holds any one of the permissions', async () => {
    renderWithApi(<Can permissions={['AlertRead', 'AlertModify']}>alerts</Can>, { permissions: ['AlertRead'] });
    expect(await screen.findByText('alerts')).toBeTruthy();
  });

  it('with `all`, needs every permission', async () => {
    renderWithApi(
      <>
        <Can permissions={['AlertRead', 'RuleRead']} all fallback={<span>not both</span>}>
          both
        </Can>
        <Can permissions={['AlertRead']}>
          <span>loaded</span>
        </Can>
      </>,
      { permissions: ['AlertRead'] },
    );
    expect(await screen.findByText('loaded')).toBeTruthy();
    expect(screen.getByText('not both')).toBeTruthy();
    expect(screen.queryByText('both')).toBeNull();
  });

  it('passes with `all` when every permission is held', async () => {
    renderWithApi(
      <Can permissions={['AlertRead', 'RuleRead']} all>
        both
      </Can>,
      { permissions: ['AlertRead', 'RuleRead'] },
    );
    expect(await screen.findByText('both')).toBeTruthy();
  });

  it('never passes an empty list', async () => {
    renderWithApi(
      <>
        <Can permissions={[]} fallback={<span>nothing required</span>}>
          shown
        </Can>
        <Can permissions={['UserRead']}>
          <span>loaded</span>
        </Can>
      </>,
      { permissions: ['UserRead'] },
    );
    expect(await screen.findByText('loaded')).toBeTruthy();
    expect(screen.getByText('nothing required')).toBeTruthy();
    expect(screen.queryByText('shown')).toBeNull();
  });

  it('shows the fallback to a user without the permission, and while permissions are unknown', async () => {
    renderWithApi(
      <>
        <Can permissions={['UserModify']} fallback={<span>no access</span>}>
          manage users
        </Can>
        <Can permissions={['AlertRead']}>
          <span>loaded</span>
        </Can>
      </>,
      { permissions: ['AlertRead'] },
    );
    expect(screen.getByText('no access')).toBeTruthy();
    expect(await screen.findByText('loaded')).toBeTruthy();
    expect(screen.getByText('no access')).toBeTruthy();
    expect(screen.queryByText('manage users')).toBeNull();
  });
});

describe('usePermissions', () => {
  it('holds nothing, and asks nothing, while nobody is signed in', async () => {
    const asked = vi.fn(() => permissionsMock(['AlertRead']).result as never);
    renderWithApi(
      <Can permissions={['AlertRead']} fallback={<span>signed out</span>}>
        alerts
      </Can>,
      { auth: fakeAuth({ status: 'anonymous', reason: 'start' }), mocks: [{ ...permissionsMock(['AlertRead']), result: asked }] },
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(asked).not.toHaveBeenCalled();
    expect(screen.getByText('signed out')).toBeTruthy();
    expect(screen.queryByText('alerts')).toBeNull();
  });
});
