// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SignInOutcome } from '../../web/src/lib/auth/AuthContext';
import { describeSignInError } from '../../web/src/lib/auth/signInErrors';
import { SignInPage } from '../../web/src/screens/SignIn/SignInPage';
import { fakeAuth, renderInApp } from './support/render';

afterEach(cleanup);

const amplifyError = (name: string, message: string) => Object.assign(new Error(message), { name });

function renderSignIn(actions: Parameters<typeof fakeAuth>[1], reason: 'start' | 'expired' = 'start') {
  renderInApp(<SignInPage />, { auth: fakeAuth({ status: 'anonymous', reason }, actions), at: '/sign-in/' });
  return userEvent.setup();
}

async function enterCredentials(user: ReturnType<typeof userEvent.setup>, email: string, password: string) {
  await user.type(screen.getByRole('textbox', { name: 'Email' }), email);
  await user.type(screen.getByLabelText('Password', { selector: 'input' }), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('sign-in', () => {
  it('keeps the button disabled until an email and a password are entered', async () => {
    const user = renderSignIn({});
    const button = screen.getByRole('button', { name: 'Sign in' });
    expect(button.hasAttribute('disabled')).toBe(true);
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'not-an-email');
    await user.tab();
    expect(screen.getByText('Must be a valid email')).toBeTruthy();
    expect(button.hasAttribute('disabled')).toBe(true);
  });

  it.each([
    [amplifyError('NotAuthorizedException', 'Incorrect username or password.'), 'Incorrect email or password.'],
    [amplifyError('UserNotFoundException', 'User does not exist.'), 'No account exists with this email address.'],
    [
      amplifyError('NetworkError', 'A network error has occurred.'),
      "Can't reach the sign-in service. Check your network connection and try again.",
    ],
  ])('explains %s', async (error, message) => {
    const signIn = vi.fn(async () => Promise.reject(error));
    const user = renderSignIn({ signIn });
    await enterCredentials(user, 'ada@example.com', 'wrong');
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(signIn).toHaveBeenCalledWith('ada@example.com', 'wrong');
  });

  it('asks for a new password when the account has a temporary one, then sets it', async () => {
    const completeNewPassword = vi.fn(async (): Promise<SignInOutcome> => ({ kind: 'signed-in' }));
    const user = renderSignIn({
      signIn: async () => ({ kind: 'new-password-required' }),
      completeNewPassword,
    });
    await enterCredentials(user, 'ada@example.com', 'Temp-Passw0rd!');
    expect(await screen.findByRole('heading', { name: 'Set a new password' })).toBeTruthy();

    const password = screen.getByLabelText('New password', { selector: 'input' });
    const confirmation = screen.getByLabelText('Confirm new password', { selector: 'input' });
    const submit = screen.getByRole('button', { name: 'Set password and sign in' });
    await user.type(password, 'caracal2026');
    await user.type(confirmation, 'Caracal');
    await user.tab();
    expect(screen.getByText('Passwords must match')).toBeTruthy();
    expect(submit.hasAttribute('disabled')).toBe(true);

    await user.clear(password);
    await user.type(password, 'Caracal-2026-rocks');
    await user.clear(confirmation);
    await user.type(confirmation, 'Caracal-2026-rocks');
    await user.click(submit);
    await waitFor(() => expect(completeNewPassword).toHaveBeenCalledWith('Caracal-2026-rocks'));
  });

  it('shows why the identity provider refused the new password', async () => {
    const user = renderSignIn({
      signIn: async () => ({ kind: 'new-password-required' }),
      completeNewPassword: async () =>
        Promise.reject(amplifyError('InvalidPasswordException', 'Password does not conform to policy: Password not long enough')),
    });
    await enterCredentials(user, 'ada@example.com', 'Temp-Passw0rd!');
    await user.type(await screen.findByLabelText('New password', { selector: 'input' }), 'Caracal-2026-rocks');
    await user.type(screen.getByLabelText('Confirm new password', { selector: 'input' }), 'Caracal-2026-rocks');
    await user.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Password does not conform to policy: Password not long enough');
  });

  it('says plainly when the account needs a step this version cannot do', async () => {
    const user = renderSignIn({ signIn: async () => ({ kind: 'unsupported-step', step: 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP' }) });
    await enterCredentials(user, 'ada@example.com', 'Caracal-2026-rocks');
    expect((await screen.findByRole('alert')).textContent).toContain('CONTINUE_SIGN_IN_WITH_TOTP_SETUP');
  });

  it('tells a user whose session ended to sign in again', () => {
    renderSignIn({}, 'expired');
    expect(screen.getByText('Your session has ended. Sign in again to continue.')).toBeTruthy();
  });

  it('tells a user the server signed out why, in its words', () => {
    const auth = fakeAuth({ status: 'anonymous', reason: 'expired', message: 'Your account has been deactivated' }, {});
    renderInApp(<SignInPage />, { auth, at: '/sign-in/' });
    expect(screen.getByText('Your account has been deactivated')).toBeTruthy();
    expect(screen.queryByText('Your session has ended. Sign in again to continue.')).toBeNull();
  });
});

describe('sign-in error messages', () => {
  it.each([
    ['NotAuthorizedException', 'Incorrect username or password.', 'credentials', 'Incorrect email or password.'],
    [
      'NotAuthorizedException',
      'Password attempts exceeded',
      'credentials',
      'Too many attempts. Wait a few minutes, then try again.',
    ],
    [
      'NotAuthorizedException',
      'User is disabled.',
      'credentials',
      'This account has been deactivated. Contact your administrator.',
    ],
    ['InvalidPasswordException', 'Invalid password', 'credentials', 'Incorrect email or password.'],
    ['InvalidPasswordException', 'Password not long enough', 'new-password', 'Password not long enough'],
    ['UserNotFoundException', 'User does not exist.', 'credentials', 'No account exists with this email address.'],
    [
      'TypeError',
      'Failed to fetch',
      'credentials',
      "Can't reach the sign-in service. Check your network connection and try again.",
    ],
    ['LimitExceededException', 'slow down', 'new-password', 'Too many attempts. Wait a few minutes, then try again.'],
    ['SomethingNew', 'A new failure', 'credentials', 'A new failure'],
  ] as const)('%s "%s" while on %s reads "%s"', (name, message, step, expected) => {
    expect(describeSignInError(amplifyError(name, message), step)).toBe(expected);
  });
});
