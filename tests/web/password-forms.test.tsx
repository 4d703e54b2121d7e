// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccountSecurity } from '../../web/src/app/shell/account/AccountSecurity';
import { PasswordForgotPage } from '../../web/src/screens/SignIn/PasswordForgotPage';
import { PasswordResetPage } from '../../web/src/screens/SignIn/PasswordResetPage';
import { PasswordStrengthMeter } from '../../web/src/features/account/PasswordStrengthMeter';
import { fakeAuth, renderInApp, signedInAs } from './support/render';

afterEach(cleanup);

const amplifyError = (name: string, message: string) => Object.assign(new Error(message), { name });
const anonymous = (actions: Parameters<typeof fakeAuth>[1]) => fakeAuth({ status: 'anonymous', reason: 'start' }, actions);

function Where() {
  const location = useLocation();
  return <output aria-label="where">{`${location.pathname} ${JSON.stringify(location.state ?? null)}`}</output>;
}

describe('the strength meter', () => {
  it.each([
    ['', '—'],
    ['abc', 'Too weak'],
    ['Caracal-2026', 'Weak'],
    ['Tq7!vLm2#Rz9', 'Good'],
    ['Tq7!vLm2#Rz9&Kp4$Wx', 'Strong'],
  ])('reads %j as %s', (password, label) => {
    renderInApp(<PasswordStrengthMeter password={password} minLength={12} />);
    expect(screen.getByTestId('password-strength').textContent).toBe(label);
    expect(screen.getByRole('progressbar', { name: 'Password strength' })).toBeTruthy();
  });
});

describe('forgot password', () => {
  it('sends a code to the email and hands it over to the reset screen', async () => {
    const forgotPassword = vi.fn(async () => 'a***@e***.com');
    renderInApp(
      <Routes>
        <Route path="/password-forgot/" element={<PasswordForgotPage />} />
        <Route path="/password-reset/" element={<Where />} />
      </Routes>,
      { auth: anonymous({ forgotPassword }), at: '/password-forgot/' },
    );
    const user = userEvent.setup();
    const send = screen.getByRole('button', { name: 'Send reset code' });
    expect(send.hasAttribute('disabled')).toBe(true);
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'not-an-email');
    await user.tab();
    expect(screen.getByText('Must be a valid email')).toBeTruthy();
    await user.clear(screen.getByRole('textbox', { name: 'Email' }));
    await user.type(screen.getByRole('textbox', { name: 'Email' }), ' ada@example.com ');
    await user.click(send);
    expect((await screen.findByLabelText('where')).textContent).toBe(
      '/password-reset/ {"email":"ada@example.com","destination":"a***@e***.com"}',
    );
    expect(forgotPassword).toHaveBeenCalledWith('ada@example.com');
  });

  it('explains a refusal', async () => {
    const forgotPassword = vi.fn(async () =>
      Promise.reject(amplifyError('NotAuthorizedException', 'User password cannot be reset in the current state.')),
    );
    renderInApp(<PasswordForgotPage />, { auth: anonymous({ forgotPassword }), at: '/password-forgot/' });
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'new@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset code' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This account has not chosen a password yet. Sign in with the temporary password from your invitation.',
    );
  });
});

describe('reset password', () => {
  function renderReset(resetPassword: NonNullable<Parameters<typeof fakeAuth>[1]>['resetPassword']) {
    renderInApp(
      <Routes>
        <Route path="/password-reset/" element={<PasswordResetPage />} />
        <Route path="/sign-in/" element={<Where />} />
      </Routes>,
      {
        auth: anonymous({ resetPassword }),
        at: { pathname: '/password-reset/', state: { email: 'ada@example.com', destination: 'a***@e***.com' } },
      },
    );
    return userEvent.setup();
  }

  it('needs the code and a new password that follows the rule, then sends the user to sign in', async () => {
    const resetPassword = vi.fn(async () => undefined);
    const user = renderReset(resetPassword);
    expect(screen.getByText('If an account exists for ada@example.com, a code is on its way to a***@e***.com.')).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Email' }) as HTMLInputElement).value).toBe('ada@example.com');
    const submit = screen.getByRole('button', { name: 'Reset password' });
    await user.type(screen.getByLabelText('New password', { selector: 'input' }), 'weakpassword');
    const rules = within(screen.getByRole('list', { name: 'Password rules' })).getAllByRole('listitem');
    expect(rules.filter((rule) => rule.getAttribute('data-passed') === 'false')).toHaveLength(3);
    expect(submit.hasAttribute('disabled')).toBe(true);

    await user.clear(screen.getByLabelText('New password', { selector: 'input' }));
    await user.type(screen.getByLabelText('New password', { selector: 'input' }), 'Reset-Pass-2026!');
    await user.type(screen.getByLabelText('Confirm new password', { selector: 'input' }), 'Reset-Pass-2026?');
    await user.tab();
    expect(screen.getByText('Passwords must match')).toBeTruthy();
    await user.clear(screen.getByLabelText('Confirm new password', { selector: 'input' }));
    await user.type(screen.getByLabelText('Confirm new password', { selector: 'input' }), 'Reset-Pass-2026!');
    expect(submit.hasAttribute('disabled')).toBe(true);
    await user.type(screen.getByRole('textbox', { name: 'Code' }), '123456');
    await user.click(submit);
    expect((await screen.findByLabelText('where')).textContent).toBe(
      '/sign-in/ {"notice":"Your password has been reset. Sign in with your new password."}',
    );
    expect(resetPassword).toHaveBeenCalledWith('ada@example.com', '123456', 'Reset-Pass-2026!');
  });

  it('explains a wrong or expired code', async () => {
    const resetPassword = vi
      .fn()
      .mockRejectedValueOnce(amplifyError('CodeMismatchException', 'Invalid verification code provided, please try again.'))
      .mockRejectedValueOnce(amplifyError('ExpiredCodeException', 'Invalid code provided, please request a code again.'));
    const user = renderReset(resetPassword);
    await user.type(screen.getByRole('textbox', { name: 'Code' }), '000000');
    await user.type(screen.getByLabelText('New password', { selector: 'input' }), 'Reset-Pass-2026!');
    await user.type(screen.getByLabelText('Confirm new password', { selector: 'input' }), 'Reset-Pass-2026!');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'That code is not right. Use the latest code we sent to your email.',
    );
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('That code has expired. Request a new one.'));
  });
});

describe('account security', () => {
  function renderAccountSecurity(actions: Parameters<typeof fakeAuth>[1]) {
    renderInApp(<AccountSecurity />, { auth: fakeAuth(signedInAs, { totpEnabled: async () => false, ...actions }) });
    return userEvent.setup();
  }

  async function fill(user: ReturnType<typeof userEvent.setup>, current: string, next: string, confirmation: string) {
    await user.type(screen.getByLabelText('Current password', { selector: 'input' }), current);
    await user.type(screen.getByLabelText('New password', { selector: 'input' }), next);
    await user.type(screen.getByLabelText('Confirm new password', { selector: 'input' }), confirmation);
  }

  it('changes the password with the current one (which signs out everywhere)', async () => {
    const changePassword = vi.fn(async () => undefined);
    const user = renderAccountSecurity({ changePassword });
    const submit = screen.getByRole('button', { name: 'Update password' });
    await fill(user, 'Old-Pass-2026!', 'New-Pass-2026!', 'New-Pass-2026');
    await user.tab();
    expect(screen.getByText('Passwords must match')).toBeTruthy();
    expect(submit.hasAttribute('disabled')).toBe(true);
    await user.type(screen.getByLabelText('Confirm new password', { selector: 'input' }), '!');
    await user.click(submit);
    await waitFor(() => expect(changePassword).toHaveBeenCalledWith('Old-Pass-2026!', 'New-Pass-2026!'));
  });

  it('requires the current password', async () => {
    const user = renderAccountSecurity({});
    await user.click(screen.getByLabelText('Current password', { selector: 'input' }));
    await user.tab();
    expect(screen.getByText('This field is required')).toBeTruthy();
  });

  it('says "Update password failed." with the server message', async () => {
    const changePassword = vi.fn(async () =>
      Promise.reject(amplifyError('NotAuthorizedException', 'Incorrect username or password.')),
    );
    const user = renderAccountSecurity({ changePassword });
    await fill(user, 'Wrong-Pass-2026!', 'New-Pass-2026!', 'New-Pass-2026!');
    await user.click(screen.getByRole('button', { name: 'Update password' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Update password failed.Incorrect username or password.');
  });

  it('shows whether two-step verification is on and sets up an authenticator', async () => {
    const setUpTotp = vi.fn(async () => ({ secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/Caracal:ada' }));
    const verifyTotpSetup = vi.fn(async () => undefined);
    const user = renderAccountSecurity({ setUpTotp, verifyTotpSetup });
    expect(await screen.findByText('Off')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Set up authenticator' }));
    await user.type(await screen.findByRole('textbox', { name: /Authentication code/ }), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify and turn on' }));
    expect(await screen.findByText('On')).toBeTruthy();
    expect(screen.getByText(/Two-step verification is on/)).toBeTruthy();
    expect(verifyTotpSetup).toHaveBeenCalledWith('123456');
  });
});
