// Screens against an API the test answers itself: each GraphQL operation goes to `answer(name, variables)`, whose
// return is the operation's result ({ data } or { errors }), delivered after a microtask as a network answer is.
import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client';
import { ApolloProvider } from '@apollo/client/react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, type InitialEntry } from 'react-router-dom';
import { Observable } from 'rxjs';
import { theme } from '../../../web/src/app/theme';
import { WebConfigProvider } from '../../../web/src/app/webConfig';
import { AuthContext, type Auth } from '../../../web/src/lib/auth/AuthContext';
import { testConfig } from './config';
import { fakeAuth, signedInAs } from './render';

export type Answer = (name: string, variables: Record<string, unknown>) => unknown;

/** An Apollo client whose every operation `answer` answers. */
export function answeringClient(answer: Answer): ApolloClient {
  const link = new ApolloLink(
    (operation) =>
      new Observable((observer) => {
        const result = answer(operation.operationName ?? '', operation.variables as Record<string, unknown>);
        queueMicrotask(() => {
          observer.next(result as never);
          observer.complete();
        });
      }),
  );
  return new ApolloClient({ link, cache: new InMemoryCache() });
}

interface Options {
  readonly auth?: Auth;
  readonly at?: InitialEntry;
}

/** Renders `ui` (a screen, or its routes) inside the app's providers and notifications, over `answer`'s API, signed in. */
export function renderWithAnswers(
  ui: ReactElement,
  answer: Answer,
  { auth = fakeAuth(signedInAs), at = '/' }: Options = {},
): RenderResult {
  return render(
    <MantineProvider theme={theme} env="test">
      <Notifications />
      <WebConfigProvider value={testConfig}>
        <AuthContext.Provider value={auth}>
          <ApolloProvider client={answeringClient(answer)}>
            <MemoryRouter initialEntries={[at]}>{ui}</MemoryRouter>
          </ApolloProvider>
        </AuthContext.Provider>
      </WebConfigProvider>
    </MantineProvider>,
  );
}
