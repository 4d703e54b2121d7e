// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebConfigProvider } from '../../web/src/app/webConfig';
import { AmplifyAuthProvider } from '../../web/src/lib/auth/AmplifyAuthProvider';
import { useAuth, type Auth } from '../../web/src/lib/auth/AuthContext';
import { POST_LOGIN_PATH_KEY, readSessionRecord, SESSION_KEY } from '../../web/src/lib/auth/sessionStore';
import { testConfig } from './support/config';

const amplify = vi.hoisted(() => ({
  signIn: vi.fn(),
  confirmSignIn: vi.fn(),
  signOut: vi.fn(),
  fetchAuthSession: vi.fn(),
  fetchMFAPreference: vi.fn(),
  setUpTOTP: vi.fn(),
  verifyTOTPSetup: vi.fn(),
  updateMFAPreference: vi.fn(),
  updatePassword: vi.fn(),
  resetPassword: vi.fn(),
  confirmResetPassword: vi.fn(),
  hubListeners: [] as Array<(capsule: { payload: { event: string } }) => void>,
}));

vi.mock('aws-amplify/auth', () => ({
  signIn: amplify.signIn,
  confirmSignIn: amplify.confirmSignIn,
  signOut: amplify.signOut,
  fetchAuthSession: amplify.fetchAuthSession,
  fetchMFAPreference: amplify.fetchMFAPreference,
  setUpTOTP: amplify.setUpTOTP,
  verifyTOTPSetup: amplify.verifyTOTPSetup,
  updateMFAPreference: amplify.updateMFAPreference,
  updatePassword: amplify.updatePassword,
  resetPassword: amplify.resetPassword,
  confirmResetPassword: amplify.confirmResetPassword,
}));
vi.mock('aws-amplify/utils', () => ({
  Hub: {
    listen: (_channel: string, listener: (capsule: { payload: { event: string } }) => void) => {
      amplify.hubListeners.push(listener);
      return () => undefined;
    },
  },
}));

const HOUR = 3_600_000;
const claims = { sub: 'u-1', email: 'ada@example.com', given_name: 'Ada', 'cognito:groups': ['Admin'] };
const session = (withTokens: boolean) => ({
  tokens: withTokens ? { idToken: { payload: claims, toString: () => 'id-token' } } : undefined,
});
const step = (signInStep: string, isSignedIn = false, extra: Record<string, unknown> = {}) => ({
  isSignedIn,
  nextStep: { signInStep, ...extra },
});
const me = (mfaRequired = false) => ({
  data: {
    me: {
      id: 'u-1',
      email: 'ada@example.com',
      givenName: 'Ada',
      familyName: 'Lovelace',
      name: 'Ada Lovelace',
      enabled: true,
      status: 'CONFIRMED',
      role: { id: 'r-1', name: 'Analyst', permissions: ['AlertRead', 'DataAnalyticsRead'] },
    },
    appConfig: { mfaRequired },
  },
});
let api: ReturnType<typeof vi.fn>;
const answer = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status }));

let auth: Auth;
function Probe() {
  auth = useAuth();
  const { state } = auth;
  const text =
    state.status === 'authenticated'
      ? `authenticated ${state.user.email} ${state.user.role?.name ?? '-'} ${state.user.permissions.join('+')}${state.mfaSetupRequired ? ' mfa-setup' : ''}`
      : state.status === 'anonymous'
        ? `anonymous ${state.reason}${state.message ? `: ${state.message}` : ''}`
        : 'loading';
  return <output aria-label="auth">{text}</output>;
}

function renderProvider() {
  render(
    <WebConfigProvider value={testConfig}>
      <AmplifyAuthProvider authFlowType="USER_PASSWORD_AUTH">
        <Probe />
      </AmplifyAuthProvider>
    </WebConfigProvider>,
  );
}

function storeSession(authenticatedAt: number) {
  localStorage.setItem(SESSION_KEY, JSON.stringify({ userId: 'u-1', email: 'ada@example.com', authenticatedAt }));
  localStorage.setItem(`CognitoIdentityServiceProvider.${testConfig.userPoolClientId}.LastAuthUser`, 'u-1');
}

beforeEach(() => {
  vi.resetAllMocks();
  localStorage.clear();
  amplify.hubListeners.length = 0;
  amplify.signOut.mockResolvedValue(undefined);
  amplify.fetchMFAPreference.mockResolvedValue({});
  api = vi.fn(() => answer(200, me()));
  vi.stubGlobal('fetch', api);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('starting with a stored session', () => {
  it('is authenticated within the refresh-token lifetime, with the role and permissions from the API', async () => {
    storeSession(Date.now() - 2 * HOUR);
    amplify.fetchAuthSession.mockResolvedValue(session(true));
    renderProvider();
    expect(await screen.findByText('authenticated ada@example.com Analyst AlertRead+DataAnalyticsRead')).toBeTruthy();
    const [url, init] = api.mock.calls[0] as [string, RequestInit];
    expect(url).toBe(testConfig.graphqlUrl);
    expect((init.headers as Record<string, string>).authorization).toBe('id-token');
    expect(JSON.parse(String(init.body)).query).toContain('permissions');
  });

  it('is anonymous without a last-user record, without asking Amplify', async () => {
    renderProvider();
    expect(await screen.findByText('anonymous start')).toBeTruthy();
    expect(amplify.fetchAuthSession).not.toHaveBeenCalled();
  });

  it('has ended once the last authentication is older than the refresh-token lifetime', async () => {
    storeSession(Date.now() - (testConfig.refreshTokenHours + 1) * HOUR);
    renderProvider();
    expect(await screen.findByText('anonymous expired')).toBeTruthy();
    expect(amplify.signOut).toHaveBeenCalledOnce();
    expect(localStorage.getItem(SESSION_KEY)).toBeNull();
  });

  it('has ended when the API refuses the token', async () => {
    storeSession(Date.now());
    amplify.fetchAuthSession.mockResolvedValue(session(true));
    api.mockImplementation(() => answer(401, { errors: [{ errorType: 'UnauthorizedException', message: 'no' }] }));
    renderProvider();
    expect(await screen.findByText('anonymous expired')).toBeTruthy();
  });

  it('has ended with the reason the API gave when it refuses the session (a deactivated account)', async () => {
    storeSession(Date.now());
    amplify.fetchAuthSession.mockResolvedValue(session(true));
    api.mockImplementation(() =>
      answer(200, { data: null, errors: [{ errorType: 'UnauthorizedException', message: 'Your account has been deactivated' }] }),
    );
    renderProvider();
    expect(await screen.findByText('anonymous expired: Your account has been deactivated')).toBeTruthy();
    expect(amplify.signOut).toHaveBeenCalledOnce();
  });

  it('keeps the user signed in without permissions when the API cannot be reached', async () => {
    storeSession(Date.now());
    amplify.fetchAuthSession.mockResolvedValue(session(true));
    api.mockImplementation(() => Promise.reject(new TypeError('Failed to fetch')));
    renderProvider();
    expect(await screen.findByText(/^authenticated ada@example.com -$/)).toBeTruthy();
  });
});

describe('signing in', () => {
  async function anonymous() {
    renderProvider();
    await screen.findByText('anonymous start');
  }

  it('uses the configured flow, answers the new-password challenge and records the authentication time', async () => {
    await anonymous();
    amplify.signIn.mockResolvedValue(step('CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED'));
    await expect(act(() => auth.signIn(' ada@example.com ', 'Temp-Passw0rd!'))).resolves.toEqual({
      kind: 'new-password-required',
    });
    expect(amplify.signIn).toHaveBeenCalledWith({
      username: 'ada@example.com',
      password: 'Temp-Passw0rd!',
      options: { authFlowType: 'USER_PASSWORD_AUTH' },
    });
    amplify.confirmSignIn.mockResolvedValue(step('DONE', true));
    amplify.fetchAuthSession.mockResolvedValue(session(true));
    const before = Date.now();
    await expect(act(() => auth.completeNewPassword('Caracal-2026-rocks'))).resolves.toEqual({ kind: 'signed-in' });
    expect(amplify.confirmSignIn).toHaveBeenCalledWith({ challengeResponse: 'Caracal-2026-rocks' });
    expect(await screen.findByText(/^authenticated ada@example.com Analyst/)).toBeTruthy();
    expect(readSessionRecord()?.authenticatedAt).toBeGreaterThanOrEqual(before);
  });

  it('asks for an authenticator code, and answers with it', async () => {
    await anonymous();
    amplify.signIn.mockResolvedValue(step('CONFIRM_SIGN_IN_WITH_TOTP_CODE'));
    await expect(act(() => auth.signIn('ada@example.com', 'pw'))).resolves.toEqual({ kind: 'totp-required' });
    amplify.confirmSignIn.mockResolvedValue(step('DONE', true));
    amplify.fetchAuthSession.mockResolvedValue(session(true));
    await expect(act(() => auth.confirmTotp(' 123456 '))).resolves.toEqual({ kind: 'signed-in' });
    expect(amplify.confirmSignIn).toHaveBeenCalledWith({ challengeResponse: '123456' });
  });

  it('hands over the key and QR URI when the identity provider asks for authenticator setup', async () => {
    await anonymous();
    const getSetupUri = vi.fn((issuer: string, account: string) => new URL(`otpauth://totp/${issuer}:${account}?secret=KEY`));
    amplify.signIn.mockResolvedValue(
      step('CONTINUE_SIGN_IN_WITH_TOTP_SETUP', false, { totpSetupDetails: { sharedSecret: 'KEY', getSetupUri } }),
    );
    await expect(act(() => auth.signIn('ada@example.com', 'pw'))).resolves.toEqual({
      kind: 'totp-setup-required',
      setup: { secret: 'KEY', uri: 'otpauth://totp/Caracal:ada@example.com?secret=KEY' },
    });
  });

  it('names a step it cannot answer', async () => {
    await anonymous();
    amplify.signIn.mockResolvedValue(step('CONFIRM_SIGN_IN_WITH_SMS_CODE'));
    await expect(act(() => auth.signIn('ada@example.com', 'pw'))).resolves.toEqual({
      kind: 'unsupported-step',
      step: 'CONFIRM_SIGN_IN_WITH_SMS_CODE',
    });
  });

  it('clears a leftover session and tries once more when Amplify says someone is already signed in', async () => {
    await anonymous();
    amplify.signIn
      .mockRejectedValueOnce(
        Object.assign(new Error('There is already a signed in user.'), { name: 'UserAlreadyAuthenticatedException' }),
      )
      .mockResolvedValueOnce(step('DONE', true));
    amplify.fetchAuthSession.mockResolvedValue(session(true));
    await expect(act(() => auth.signIn('ada@example.com', 'pw'))).resolves.toEqual({ kind: 'signed-in' });
    expect(amplify.signOut).toHaveBeenCalledOnce();
    expect(amplify.signIn).toHaveBeenCalledTimes(2);
  });

  it('passes other sign-in errors on untouched', async () => {
    await anonymous();
    const refused = Object.assign(new Error('Incorrect username or password.'), { name: 'NotAuthorizedException' });
    amplify.signIn.mockRejectedValue(refused);
    await expect(act(() => auth.signIn('ada@example.com', 'pw'))).rejects.toBe(refused);
    expect(amplify.signOut).not.toHaveBeenCalled();
  });
});

describe('required MFA', () => {
  it('holds a user without an authenticator at setup right after signing in until a code verifies, then makes TOTP preferred', async () => {
    renderProvider();
    await screen.findByText('anonymous start');
    amplify.fetchAuthSession.mockResolvedValue(session(true));
    api.mockImplementation(() => answer(200, me(true)));
    amplify.fetchMFAPreference.mockResolvedValue({ enabled: [] });
    amplify.signIn.mockResolvedValue(step('DONE', true));
    await act(() => auth.signIn('ada@example.com', 'pw'));
    expect(await screen.findByText(/mfa-setup$/)).toBeTruthy();

    amplify.setUpTOTP.mockResolvedValue({
      sharedSecret: 'SECRET',
      getSetupUri: (i: string, a: string) => new URL(`otpauth://totp/${i}:${a}`),
    });
    await expect(act(() => auth.setUpTotp())).resolves.toEqual({
      secret: 'SECRET',
      uri: 'otpauth://totp/Caracal:ada@example.com',
    });
    await act(() => auth.verifyTotpSetup('654321'));
    expect(amplify.verifyTOTPSetup).toHaveBeenCalledWith({ code: '654321' });
    expect(amplify.updateMFAPreference).toHaveBeenCalledWith({ totp: 'PREFERRED' });
    expect(await screen.findByText('authenticated ada@example.com Analyst AlertRead+DataAnalyticsRead')).toBeTruthy();
  });

  it('keeps holding at setup across a reload until it is done', async () => {
    localStorage.setItem(
      SESSION_KEY,
      JSON.stringify({ userId: 'u-1', email: 'ada@example.com', authenticatedAt: Date.now(), mfaSetupPending: true }),
    );
    localStorage.setItem(`CognitoIdentityServiceProvider.${testConfig.userPoolClientId}.LastAuthUser`, 'u-1');
    amplify.fetchAuthSession.mockResolvedValue(session(true));
    api.mockImplementation(() => answer(200, me(true)));
    amplify.fetchMFAPreference.mockResolvedValue({ enabled: [] });
    renderProvider();
    expect(await screen.findByText(/mfa-setup$/)).toBeTruthy();
  });

  it('leaves a session begun before MFA became required alone until the next sign-in', async () => {
    storeSession(Date.now());
    amplify.fetchAuthSession.mockResolvedValue(session(true));
    amplify.fetchMFAPreference.mockResolvedValue({ enabled: [] });
    renderProvider();
    expect(await screen.findByText('authenticated ada@example.com Analyst AlertRead+DataAnalyticsRead')).toBeTruthy();

    // The administrator turns on "Require MFA": reloading the user or the page does not send them to setup.
    api.mockImplementation(() => answer(200, me(true)));
    await act(() => auth.refreshUser());
    cleanup();
    renderProvider();
    await waitFor(() => expect(api).toHaveBeenCalledTimes(3));
    expect(await screen.findByText('authenticated ada@example.com Analyst AlertRead+DataAnalyticsRead')).toBeTruthy();

    // The next sign-in does.
    amplify.signIn.mockResolvedValue(step('DONE', true));
    await act(() => auth.signIn('ada@example.com', 'pw'));
    expect(await screen.findByText(/mfa-setup$/)).toBeTruthy();
  });

  it('lets a user with an authenticator straight in', async () => {
    storeSession(Date.now());
    amplify.fetchAuthSession.mockResolvedValue(session(true));
    api.mockImplementation(() => answer(200, me(true)));
    amplify.fetchMFAPreference.mockResolvedValue({ enabled: ['TOTP'], preferred: 'TOTP' });
    renderProvider();
    expect(await screen.findByText('authenticated ada@example.com Analyst AlertRead+DataAnalyticsRead')).toBeTruthy();
    await expect(auth.totpEnabled()).resolves.toBe(true);
  });
});

describe('ending sessions and passwords', () => {
  async function signedIn() {
    storeSession(Date.now());
    amplify.fetchAuthSession.mockResolvedValue(session(true));
    renderProvider();
    await screen.findByText(/^authenticated/);
  }

  it('ends the session as expired when refreshing the tokens fails', async () => {
    await signedIn();
    act(() => amplify.hubListeners.forEach((listener) => listener({ payload: { event: 'tokenRefresh_failure' } })));
    expect(await screen.findByText('anonymous expired')).toBeTruthy();
    expect(amplify.signOut).toHaveBeenCalledOnce();
  });

  it('signs out on this device, or on every device', async () => {
    await signedIn();
    await act(() => auth.signOut({ global: true }));
    expect(amplify.signOut).toHaveBeenCalledWith({ global: true });
    expect(screen.getByText('anonymous signed-out')).toBeTruthy();
    expect(localStorage.getItem(SESSION_KEY)).toBeNull();
  });

  it('keeps the current page when the API refuses the session', async () => {
    await signedIn();
    window.history.pushState({}, '', '/alerts-and-errors/?status=OPEN');
    await act(() => auth.endExpiredSession());
    expect(localStorage.getItem(POST_LOGIN_PATH_KEY)).toBe('/alerts-and-errors/?status=OPEN');
    expect(screen.getByText('anonymous expired')).toBeTruthy();
  });

  it('changes the password, then signs out of every device', async () => {
    await signedIn();
    api.mockClear();
    api.mockImplementation(() => answer(200, { data: { signOutEverywhere: true } }));
    await act(() => auth.changePassword('Old-Pass-2026!', 'New-Pass-2026!'));
    expect(amplify.updatePassword).toHaveBeenCalledWith({ oldPassword: 'Old-Pass-2026!', newPassword: 'New-Pass-2026!' });
    // The server refuses every token issued so far, the other devices' too; then this device signs out.
    const [url, init] = api.mock.calls[0] as [string, RequestInit];
    expect(url).toBe(testConfig.graphqlUrl);
    expect((init.headers as Record<string, string>).authorization).toBe('id-token');
    expect(JSON.parse(String(init.body))).toMatchObject({ operationName: 'SignOutEverywhere' });
    expect(amplify.signOut).toHaveBeenCalledWith({ global: true });
    expect(screen.getByText('anonymous signed-out')).toBeTruthy();
  });

  it('keeps the session when the password change is refused', async () => {
    await signedIn();
    amplify.updatePassword.mockRejectedValue(
      Object.assign(new Error('Incorrect username or password.'), { name: 'NotAuthorizedException' }),
    );
    await expect(act(() => auth.changePassword('wrong', 'New-Pass-2026!'))).rejects.toThrow('Incorrect username or password.');
    expect(amplify.signOut).not.toHaveBeenCalled();
    expect(screen.getByText(/^authenticated/)).toBeTruthy();
  });

  it('sends a reset code and resets with it', async () => {
    renderProvider();
    await screen.findByText('anonymous start');
    amplify.resetPassword.mockResolvedValue({
      isPasswordReset: false,
      nextStep: { resetPasswordStep: 'CONFIRM_RESET_PASSWORD_WITH_CODE', codeDeliveryDetails: { destination: 'a***@e***.com' } },
    });
    await expect(auth.forgotPassword(' ada@example.com ')).resolves.toBe('a***@e***.com');
    expect(amplify.resetPassword).toHaveBeenCalledWith({ username: 'ada@example.com' });
    await auth.resetPassword('ada@example.com', ' 123456 ', 'New-Pass-2026!');
    expect(amplify.confirmResetPassword).toHaveBeenCalledWith({
      username: 'ada@example.com',
      confirmationCode: '123456',
      newPassword: 'New-Pass-2026!',
    });
  });
});
