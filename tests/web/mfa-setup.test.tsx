// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuthState, SignInOutcome } from '../../web/src/lib/auth/AuthContext';
import { MfaSetupPage } from '../../web/src/screens/SignIn/MfaSetupPage';
import { groupedSecret, TotpSetupPanel } from '../../web/src/features/account/TotpSetupPanel';
import { SignInPage } from '../../web/src/screens/SignIn/SignInPage';
import { totpCodeError } from '../../web/src/features/account/TotpCodeInput';
import { fakeAuth, renderInApp, signedInAs } from './support/render';

afterEach(cleanup);

const SETUP = { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', uri: 'otpauth://totp/Caracal:ada%40example.com?secret=JBSW' };
const amplifyError = (name: string, message: string) => Object.assign(new Error(message), { name });

describe('the authenticator code field', () => {
  it('wants exactly six digits', () => {
    expect(totpCodeError('')).toBe('This field is required');
    expect(totpCodeError('12345')).toBe('Enter the 6-digit code');
    expect(totpCodeError('1234567')).toBe('Enter the 6-digit code');
    expect(totpCodeError('12a456')).toBe('Enter the 6-digit code');
    expect(totpCodeError(' 123456 ')).toBeUndefined();
  });

  it('shows the key in groups of four', () => {
    expect(groupedSecret('JBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP');
    expect(groupedSecret('ABCDEF')).toBe('ABCD EF');
  });
});

describe('authenticator setup', () => {
  it('shows the QR code and the key, and verifies a code typed in', async () => {
    const onVerify = vi.fn(async () => undefined);
    renderInApp(<TotpSetupPanel heading="Set up" intro="Scan it" setup={SETUP} submitLabel="Verify" onVerify={onVerify} />);
    const user = userEvent.setup();
    expect(screen.getByRole('img', { name: 'QR code for your authenticator app' }).querySelector('svg')).toBeTruthy();
    expect(screen.getByTestId('totp-secret').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    const button = screen.getByRole('button', { name: 'Verify' });
    expect(button.hasAttribute('disabled')).toBe(true);
    await user.type(screen.getByRole('textbox', { name: /Authentication code/ }), '12ab3456');
    expect((screen.getByRole('textbox', { name: /Authentication code/ }) as HTMLInputElement).value).toBe('123456');
    await user.click(button);
    expect(onVerify).toHaveBeenCalledWith('123456');
  });

  it('says when the code is wrong and clears it, with the banner alone', async () => {
    const onVerify = vi.fn(async () => Promise.reject(amplifyError('EnableSoftwareTokenMFAException', 'Code mismatch')));
    renderInApp(<TotpSetupPanel heading="Set up" intro="Scan it" setup={SETUP} submitLabel="Verify" onVerify={onVerify} />);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: /Authentication code/ }), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'That code is not right. Enter the current 6-digit code from your authenticator app.',
    );
    expect((screen.getByRole('textbox', { name: /Authentication code/ }) as HTMLInputElement).value).toBe('');
    expect(screen.queryByText('This field is required')).toBeNull();
  });

  it('holds a user who must set up MFA on the setup page, and sets TOTP up with their code', async () => {
    const state: AuthState = { ...signedInAs, mfaSetupRequired: true } as AuthState;
    const setUpTotp = vi.fn(async () => SETUP);
    const verifyTotpSetup = vi.fn(async () => undefined);
    renderInApp(<MfaSetupPage />, { auth: fakeAuth(state, { setUpTotp, verifyTotpSetup }) });
    const user = userEvent.setup();
    expect(screen.getByRole('heading', { name: 'Set up two-step verification' })).toBeTruthy();
    expect(await screen.findByTestId('totp-secret')).toBeTruthy();
    expect(setUpTotp).toHaveBeenCalledOnce();
    await user.type(screen.getByRole('textbox', { name: /Authentication code/ }), '654321');
    await user.click(screen.getByRole('button', { name: 'Verify and continue' }));
    await waitFor(() => expect(verifyTotpSetup).toHaveBeenCalledWith('654321'));
  });

  it('says why setup could not start', async () => {
    const setUpTotp = vi.fn(async () => Promise.reject(new Error('Access Token has been revoked')));
    renderInApp(<MfaSetupPage />, { auth: fakeAuth({ ...signedInAs, mfaSetupRequired: true } as AuthState, { setUpTotp }) });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Could not start the authenticator setup: Access Token has been revoked',
    );
  });
});

describe('sign-in with an authenticator', () => {
  async function toChallenge(outcome: SignInOutcome, actions: Parameters<typeof fakeAuth>[1]) {
    renderInApp(<SignInPage />, {
      auth: fakeAuth({ status: 'anonymous', reason: 'start' }, { signIn: async () => outcome, ...actions }),
      at: '/sign-in/',
    });
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@example.com');
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'Caracal-2026-rocks');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    return user;
  }

  it('asks for the code (SOFTWARE_TOKEN_MFA) and answers with it', async () => {
    const confirmTotp = vi.fn(async (): Promise<SignInOutcome> => ({ kind: 'signed-in' }));
    const user = await toChallenge({ kind: 'totp-required' }, { confirmTotp });
    expect(await screen.findByRole('heading', { name: 'Two-step verification' })).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: /Authentication code/ }), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    await waitFor(() => expect(confirmTotp).toHaveBeenCalledWith('123456'));
  });

  it('says when the code is wrong with the banner alone, not an error under the cleared field', async () => {
    const confirmTotp = vi.fn(async () =>
      Promise.reject(amplifyError('CodeMismatchException', 'Invalid code received for user')),
    );
    const user = await toChallenge({ kind: 'totp-required' }, { confirmTotp });
    await user.type(await screen.findByRole('textbox', { name: /Authentication code/ }), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    expect((await screen.findByRole('alert')).textContent).toContain('That code is not right');
    expect((screen.getByRole('textbox', { name: /Authentication code/ }) as HTMLInputElement).value).toBe('');
    expect(screen.queryByText('This field is required')).toBeNull();
  });

  it('sets up an authenticator when the identity provider asks for it during sign-in (MFA_SETUP)', async () => {
    const confirmTotp = vi.fn(async (): Promise<SignInOutcome> => ({ kind: 'signed-in' }));
    const user = await toChallenge({ kind: 'totp-setup-required', setup: SETUP }, { confirmTotp });
    expect(await screen.findByTestId('totp-secret')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: /Authentication code/ }), '112233');
    await user.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    await waitFor(() => expect(confirmTotp).toHaveBeenCalledWith('112233'));
  });

  it('goes back to email and password', async () => {
    const user = await toChallenge({ kind: 'totp-required' }, {});
    await user.click(await screen.findByRole('button', { name: 'Back to sign in' }));
    expect(screen.getByRole('heading', { name: 'Sign in' })).toBeTruthy();
  });
});
