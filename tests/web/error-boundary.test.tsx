// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppLayout } from '../../web/src/app/shell/AppLayout';
import { fakeAuth, signedInAs } from './support/render';
import { renderWithApi } from './support/shell';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function Broken(): never {
  throw new Error('render failure');
}

describe('a screen that fails to render', () => {
  it('is contained inside the shell, and the next path renders again', async () => {
    const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderWithApi(
      <Routes>
        <Route element={<AppLayout />}>
          <Route index element={<p>Home page</p>} />
          <Route path="/broken" element={<Broken />} />
        </Route>
      </Routes>,
      { auth: fakeAuth(signedInAs), at: '/broken' },
    );
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Something went wrong and we could not correctly display this content',
    );
    expect(reported).toHaveBeenCalled();

    fireEvent.click(screen.getByRole('link', { name: 'Caracal home' }));
    expect(await screen.findByText('Home page')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
