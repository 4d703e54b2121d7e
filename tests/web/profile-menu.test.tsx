// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOG_OUT_DEBOUNCE_MS } from '../../web/src/app/constants';
import { ProfileMenu } from '../../web/src/app/shell/ProfileMenu';
import { fakeAuth, signedInAs } from './support/render';
import { renderWithApi } from './support/shell';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('the profile menu', () => {
  it('shows who is signed in, their role and the product version', async () => {
    renderWithApi(<ProfileMenu />, { auth: fakeAuth(signedInAs) });
    fireEvent.click(screen.getByRole('button', { name: 'Profile menu' }));
    expect(await screen.findByText('Ada Lovelace')).toBeTruthy();
    expect(screen.getByText('ada@example.com')).toBeTruthy();
    expect(screen.getByText('Admin')).toBeTruthy();
    expect(screen.getByText('Caracal 0.0.0-test')).toBeTruthy();
  });

  it('logs out once for a burst of clicks, 350 ms after the last', async () => {
    const signOut = vi.fn(async () => undefined);
    renderWithApi(<ProfileMenu />, { auth: fakeAuth(signedInAs, { signOut }) });
    vi.useFakeTimers();
    for (let click = 0; click < 3; click += 1) {
      fireEvent.click(screen.getByRole('button', { name: 'Profile menu' }));
      await vi.advanceTimersByTimeAsync(50);
      fireEvent.click(screen.getByRole('menuitem', { name: 'Log Out' }));
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(signOut).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(LOG_OUT_DEBOUNCE_MS);
    expect(signOut).toHaveBeenCalledOnce();
    expect(LOG_OUT_DEBOUNCE_MS).toBe(350);
  });
});
