// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AmplifyAuthProvider } from '../../web/src/lib/auth/AmplifyAuthProvider';
import { useAuth, type Auth } from '../../web/src/lib/auth/AuthContext';

const amplify = vi.hoisted(() => ({
  signIn: vi.fn(),
  confirmSignIn: vi.fn(),
  signOut: vi.fn(),
  fetchAuthSession: vi.fn(),
  hubListeners: [] as Array<(capsule: { payload: { event: string } }) => void>,
}));

vi.mock('aws-amplify/auth', () => ({
  signIn: amplify.signIn,
  confirmSignIn: amplify.confirmSignIn,
  signOut: amplify.signOut,
  fetchAuthSession: amplify.fetchAuthSession,
}));
vi.mock('aws-amplify/utils', () => ({
  Hub: {
    listen: (_channel: string, listener: (capsule: { payload: { event: string } }) => void) => {
      amplify.hubListeners.push(listener);
      return () => undefined;
    },
  },
}));

const claims = { sub: 'u-1', email: 'ada@example.com', given_name: 'Ada', 'cognito:groups': ['Admin', 'Analyst'] };
const session = (withTokens: boolean) => ({
  tokens: withTokens ? { idToken: { payload: claims, toString: () => 'id' } } : undefined,
});
const step = (signInStep: string, isSignedIn = false) => ({ isSignedIn, nextStep: { signInStep } });

let auth: Auth;
function Probe() {
  auth = useAuth();
  const { state } = auth;
  const text =
    state.status === 'authenticated'
      ? `authenticated ${state.user.email} ${state.user.roles.join('+')}`
      : state.status === 'anonymous'
        ? `anonymous ${state.reason}`
        : 'loading';
  return <output aria-label="auth">{text}</output>;
}

function renderProvider() {
  render(
    <AmplifyAuthProvider authFlowType="USER_PASSWORD_AUTH">
      <Probe />
    </AmplifyAuthProvider>,
  );
  return () => screen.getByLabelText('auth').textContent;
}

beforeEach(() => {
  vi.resetAllMocks();
  amplify.hubListeners.length = 0;
  amplify.signOut.mockResolvedValue(undefined);
});
afterEach(cleanup);

describe('the Amplify auth provider', () => {
  it('starts authenticated from a stored session, with the groups as roles', async () => {
    amplify.fetchAuthSession.mockResolvedValue(session(true));
    const shown = renderProvider();
    expect(await screen.findByText('authenticated ada@example.com Admin+Analyst')).toBeTruthy();
    expect(shown()).toContain('authenticated');
  });

  it('starts anonymous without a session, and when reading it fails', async () => {
    amplify.fetchAuthSession.mockRejectedValueOnce(new Error('storage unavailable'));
    renderProvider();
    expect(await screen.findByText('anonymous start')).toBeTruthy();
  });

  it('signs in with the configured flow, then answers the new-password challenge', async () => {
    amplify.fetchAuthSession.mockResolvedValueOnce(session(false));
    renderProvider();
    await screen.findByText('anonymous start');

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
    await expect(act(() => auth.completeNewPassword('Caracal-2026-rocks'))).resolves.toEqual({ kind: 'signed-in' });
    expect(amplify.confirmSignIn).toHaveBeenCalledWith({ challengeResponse: 'Caracal-2026-rocks' });
    expect(await screen.findByText('authenticated ada@example.com Admin+Analyst')).toBeTruthy();
  });

  it('names a step it cannot answer', async () => {
    amplify.fetchAuthSession.mockResolvedValue(session(false));
    renderProvider();
    await screen.findByText('anonymous start');
    amplify.signIn.mockResolvedValue(step('CONTINUE_SIGN_IN_WITH_TOTP_SETUP'));
    await expect(act(() => auth.signIn('ada@example.com', 'pw'))).resolves.toEqual({
      kind: 'unsupported-step',
      step: 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP',
    });
  });

  it('clears a leftover session and tries once more when Amplify says someone is already signed in', async () => {
    amplify.fetchAuthSession.mockResolvedValueOnce(session(false));
    renderProvider();
    await screen.findByText('anonymous start');
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
    amplify.fetchAuthSession.mockResolvedValue(session(false));
    renderProvider();
    await screen.findByText('anonymous start');
    const refused = Object.assign(new Error('Incorrect username or password.'), { name: 'NotAuthorizedException' });
    amplify.signIn.mockRejectedValue(refused);
    await expect(act(() => auth.signIn('ada@example.com', 'pw'))).rejects.toBe(refused);
    expect(amplify.signOut).not.toHaveBeenCalled();
  });

  it('ends the session as expired when refreshing the tokens fails, and as signed out on Log Out', async () => {
    amplify.fetchAuthSession.mockResolvedValue(session(true));
    renderProvider();
    await screen.findByText(/^authenticated/);
    act(() => amplify.hubListeners.forEach((listener) => listener({ payload: { event: 'tokenRefresh_failure' } })));
    expect(await screen.findByText('anonymous expired')).toBeTruthy();

    await act(() => auth.signOut());
    expect(amplify.signOut).toHaveBeenCalledOnce();
    expect(screen.getByText('anonymous signed-out')).toBeTruthy();
  });
});
