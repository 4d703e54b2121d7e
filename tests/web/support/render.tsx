import { MantineProvider } from '@mantine/core';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, type InitialEntry } from 'react-router-dom';
import { theme } from '../../../web/src/app/theme';
import { WebConfigProvider } from '../../../web/src/app/webConfig';
import { AuthContext, type Auth, type AuthState, type SessionUser } from '../../../web/src/lib/auth/AuthContext';
import { testConfig } from './config';

/** jsdom lacks the layout APIs Mantine reads; these stand-ins answer as a wide desktop screen would. */
export function installBrowserStandIns(): void {
  if (!window.matchMedia) {
    window.matchMedia = (query: string) =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => undefined,
        removeListener: () => undefined,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        dispatchEvent: () => false,
      }) as MediaQueryList;
  }
  if (typeof window.ResizeObserver === 'undefined') {
    window.ResizeObserver = class {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
  }
}

export const testUser: SessionUser = {
  id: 'u-1',
  email: 'ada@example.com',
  givenName: 'Ada',
  familyName: 'Lovelace',
  name: 'Ada Lovelace',
  role: { id: 'admin', name: 'Admin', permissions: ['UserRead', 'UserModify'] },
  permissions: ['UserRead', 'UserModify'],
  roles: ['Admin'],
  authenticationTime: Date.UTC(2026, 10, 21, 9, 0),
};

export const signedInAs: AuthState = { status: 'authenticated', user: testUser };

/** An auth whose state is fixed and whose actions fail unless a test gives them. */
export function fakeAuth(state: AuthState, actions: Partial<Omit<Auth, 'state'>> = {}): Auth {
  const notExpected = (name: string) => () => Promise.reject(new Error(`${name} was not expected`));
  return {
    state,
    signIn: notExpected('signIn'),
    completeNewPassword: notExpected('completeNewPassword'),
    signOut: notExpected('signOut'),
    endExpiredSession: notExpected('endExpiredSession'),
    confirmTotp: notExpected('confirmTotp'),
    setUpTotp: notExpected('setUpTotp'),
    verifyTotpSetup: notExpected('verifyTotpSetup'),
    totpEnabled: notExpected('totpEnabled'),
    changePassword: notExpected('changePassword'),
    forgotPassword: notExpected('forgotPassword'),
    resetPassword: notExpected('resetPassword'),
    refreshUser: notExpected('refreshUser'),
    ...actions,
  };
}

interface Options {
  readonly auth?: Auth;
  readonly at?: InitialEntry;
}

/** Renders inside the app's providers: theme, config, a fixed auth and a router at a given entry. */
export function renderInApp(
  ui: ReactElement,
  { auth = fakeAuth({ status: 'anonymous', reason: 'start' }), at = '/' }: Options = {},
): RenderResult {
  installBrowserStandIns();
  return render(
    <MantineProvider theme={theme} defaultColorScheme="dark" env="test">
      <WebConfigProvider value={testConfig}>
        <AuthContext.Provider value={auth}>
          <MemoryRouter initialEntries={[at]}>{ui}</MemoryRouter>
        </AuthContext.Provider>
      </WebConfigProvider>
    </MantineProvider>,
  );
}
