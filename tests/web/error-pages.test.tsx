// @vitest-environment jsdom
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import type { MockLink } from '@apollo/client/testing';
import { CombinedGraphQLErrors, ServerError } from '@apollo/client/errors';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { Link, Route, Routes, type InitialEntry } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Permission } from '../../core/permissions';
import { ErrorStatusContext } from '../../web/src/app/errorStatus';
import { RequirePermissions } from '../../web/src/app/RequirePermissions';
import { AppLayout } from '../../web/src/app/shell/AppLayout';
import { describeApiError, errorStatusOf, type ErrorStatus } from '../../web/src/lib/apollo/apiErrors';
import { createApolloClient } from '../../web/src/lib/apollo/createApolloClient';
import { createErrorStatusChannel } from '../../web/src/lib/apollo/errorStatusChannel';
import { Can } from '../../web/src/lib/permissions';
import { ErrorPage } from '../../web/src/app/errors/ErrorPage';
import { fakeAuth, signedInAs } from './support/render';
import { renderWithApi } from './support/shell';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function serverError(status: number, body: string): ServerError {
  return new ServerError(`Response not successful: Received status code ${status}`, {
    response: new Response(body, { status }),
    bodyText: body,
  });
}

const graphQLErrors = (...errors: object[]) => new CombinedGraphQLErrors({ errors: errors as never });

describe('the error page of a status', () => {
  it.each<[ErrorStatus, string, string]>([
    [404, 'Not Found', 'Not all who wander are lost...'],
    [
      403,
      "Oops! You don't have the proper permissions to view this page.",
      'If you think this is an error, please contact your admin for assistance.',
    ],
    [422, 'Unprocessable Content', 'Some requests could not be processed'],
    [500, 'Something went wrong', 'An error has occurred and our team has been notified'],
    [502, 'Bad Gateway', 'Failed to connect to the underlying origin server. Please try again in a few seconds.'],
    [503, 'Service Unavailable', 'One of our services seems to be down. Our team has already been notified about it.'],
    [504, 'Gateway Timeout', 'Request to upstream server has timed out. Please try again.'],
    [501, 'Something went wrong', 'An error has occurred and our team has been notified'],
    ['unknown', 'Failed to Fetch', 'Caracal could not get an answer from the server. This can happen when:'],
  ])('%s shows "%s"', async (status, title, text) => {
    renderWithApi(<ErrorPage status={status} />, { permissions: ['SummaryRead'] });
    expect(screen.getByRole('heading', { name: title })).toBeTruthy();
    expect(screen.getByText(text)).toBeTruthy();
    expect(
      await screen.findByRole('link', { name: status === 500 || status === 501 ? 'Back to somewhere stable' : 'Back to Home' }),
    ).toBeTruthy();
  });

  it('lists the likely reasons a fetch failed', () => {
    renderWithApi(<ErrorPage status="unknown" />);
    expect(screen.getByText('A firewall or browser extension may be blocking the request')).toBeTruthy();
    expect(screen.getByText('The server may not be responding')).toBeTruthy();
    expect(screen.getByText('Your network connection may be unstable')).toBeTruthy();
  });

  it.each<ErrorStatus>([404, 403, 500, 503, 'unknown'])(
    '%s offers the way home only with the overview permission',
    async (status) => {
      renderWithApi(
        <>
          <ErrorPage status={status} />
          <Can permissions={['AlertRead']}>
            <span>permissions loaded</span>
          </Can>
        </>,
        { permissions: ['AlertRead', 'RuleRead'] },
      );
      await screen.findByText('permissions loaded');
      expect(screen.queryByRole('link', { name: /Back to/ })).toBeNull();
    },
  );

  it('500 links to the root', async () => {
    renderWithApi(<ErrorPage status={500} />, { permissions: ['SummaryRead'] });
    expect((await screen.findByRole('link', { name: 'Back to somewhere stable' })).getAttribute('href')).toBe('/');
  });
});

describe('the server error derivation', () => {
  it.each<[string, unknown, string]>([
    ['a network error with a result: its first error', serverError(500, '{"errors":[{"message":"boom"}]}'), 'boom'],
    ['a network error with a result: its message', serverError(503, '{"message":"Service Unavailable"}'), 'Service Unavailable'],
    [
      'a network error with an empty result: the network message',
      serverError(500, '{}'),
      'Response not successful: Received status code 500',
    ],
    ['502 without a result', serverError(502, '<html>bad gateway</html>'), 'Request timed out'],
    ['422 without a result', serverError(422, ''), 'Unable to forward request to the underlying services. Please try again'],
    ['another status without a result', serverError(504, 'timeout'), 'Response not successful: Received status code 504'],
    ['a failed fetch', new TypeError('Failed to fetch'), 'Failed to fetch'],
    ['no errors at all', graphQLErrors(), 'An unexpected server error has occurred'],
    ['403 with a message, capitalised', graphQLErrors({ message: 'not allowed', errorType: 'Unauthorized' }), 'Not allowed'],
    [
      '403 without a message',
      graphQLErrors({ message: '', extensions: { statusCode: 403 } }),
      'You are not authorized to perform this request',
    ],
    [
      '401 without a message',
      graphQLErrors({ message: '', errorType: 'UnauthorizedException' }),
      'You are not authorized to perform this request',
    ],
    [
      '404 with a message, as it is',
      graphQLErrors({ message: 'log source abc not found', errorType: 'NotFound' }),
      'log source abc not found',
    ],
    [
      '404 without a message',
      graphQLErrors({ message: '', extensions: { statusCode: 404 } }),
      "The resource you requested couldn't be found on our servers",
    ],
    [
      'another error, capitalised',
      graphQLErrors({ message: 'name: already exists', errorType: 'AlreadyExists' }),
      'Name: already exists',
    ],
    ['the first of several errors', graphQLErrors({ message: 'first' }, { message: 'second' }), 'First'],
    ['nothing known', undefined, 'An unexpected server error has occurred'],
  ])('%s', (_name, error, message) => {
    expect(describeApiError(error)).toBe(message);
  });
});

describe('the status a failure stands for', () => {
  it.each<[string, unknown, ErrorStatus | undefined]>([
    ['Unauthorized (the guard refused)', graphQLErrors({ message: 'no', errorType: 'Unauthorized' }), 403],
    ['NotFound', graphQLErrors({ message: 'gone', errorType: 'NotFound' }), 404],
    ['ServerError', graphQLErrors({ message: 'db down', errorType: 'ServerError' }), 500],
    ['a crashed resolver', graphQLErrors({ message: 'x', errorType: 'Lambda:Unhandled' }), 500],
    ['an explicit statusCode', graphQLErrors({ message: 'x', extensions: { statusCode: 422 } }), 422],
    ['a validation error', graphQLErrors({ message: 'bad', errorType: 'InvalidInput' }), undefined],
    ['a refused session (401: the session ends instead)', serverError(401, ''), undefined],
    ['UnauthorizedException (401)', graphQLErrors({ message: 'x', errorType: 'UnauthorizedException' }), undefined],
    ['HTTP 503', serverError(503, ''), 503],
    ['a failed fetch', new TypeError('Failed to fetch'), 'unknown'],
    ['nothing', undefined, undefined],
  ])('%s', (_name, error, status) => {
    expect(errorStatusOf(error)).toBe(status);
  });

  it('ignores a 404 when the call expects one, but not other statuses', () => {
    expect(errorStatusOf(graphQLErrors({ message: 'gone', errorType: 'NotFound' }), { ignoreNotFound: true })).toBeUndefined();
    expect(
      errorStatusOf(graphQLErrors({ message: 'gone', errorType: 'NotFound' }, { message: 'no', errorType: 'Unauthorized' }), {
        ignoreNotFound: true,
      }),
    ).toBe(403);
  });
});

const LOG_SOURCE = gql`
  query LogSource {
    logSource {
      id
      owner {
        id
      }
    }
  }
`;

function answering(status: number, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })),
  );
}

function client() {
  const onErrorStatus = vi.fn();
  const onUnauthorized = vi.fn();
  const apollo = createApolloClient({
    graphqlUrl: 'http://api.test/graphql',
    idToken: async () => 't',
    onUnauthorized,
    onErrorStatus,
  });
  return { apollo, onErrorStatus, onUnauthorized };
}

describe('the data-layer rule', () => {
  it("shows the page of a GraphQL error's status", async () => {
    answering(200, {
      data: null,
      errors: [{ message: 'Not authorized to access logSource', errorType: 'Unauthorized', path: ['logSource'] }],
    });
    const { apollo, onErrorStatus } = client();
    await expect(apollo.query({ query: LOG_SOURCE })).rejects.toThrow('Not authorized');
    expect(onErrorStatus).toHaveBeenCalledExactlyOnceWith(403);
  });

  it('leaves a silent call alone, and a 404 the call expects', async () => {
    answering(200, { data: null, errors: [{ message: 'gone', errorType: 'NotFound', path: ['logSource'] }] });
    const { apollo, onErrorStatus } = client();
    await expect(apollo.query({ query: LOG_SOURCE, context: { silent: true } })).rejects.toThrow('gone');
    await expect(
      apollo.query({ query: LOG_SOURCE, context: { ignoreNotFound: true }, fetchPolicy: 'network-only' }),
    ).rejects.toThrow('gone');
    expect(onErrorStatus).not.toHaveBeenCalled();
    await expect(apollo.query({ query: LOG_SOURCE, fetchPolicy: 'network-only' })).rejects.toThrow('gone');
    expect(onErrorStatus).toHaveBeenCalledExactlyOnceWith(404);
  });

  it("shows the page of a network error's status, unknown without one, and none for a refused session", async () => {
    const { apollo, onErrorStatus, onUnauthorized } = client();
    answering(503, { message: 'Service Unavailable' });
    await expect(apollo.query({ query: LOG_SOURCE })).rejects.toThrow();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(apollo.query({ query: LOG_SOURCE, fetchPolicy: 'network-only' })).rejects.toThrow('Failed to fetch');
    answering(401, { errors: [{ errorType: 'UnauthorizedException', message: 'expired' }] });
    await expect(apollo.query({ query: LOG_SOURCE, fetchPolicy: 'network-only' })).rejects.toThrow();
    expect(onErrorStatus.mock.calls).toEqual([[503], ['unknown']]);
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('drops "access denied" errors of nested fields and keeps the answer', async () => {
    answering(200, {
      data: { logSource: { __typename: 'LogSource', id: 's-1', owner: null } },
      errors: [{ message: 'Access denied', path: ['logSource', 'owner'] }],
    });
    const { apollo, onErrorStatus } = client();
    const result = await apollo.query({ query: LOG_SOURCE });
    expect(result.data).toEqual({ logSource: { __typename: 'LogSource', id: 's-1', owner: null } });
    expect(result.error).toBeUndefined();
    expect(onErrorStatus).not.toHaveBeenCalled();
  });

  it('keeps "access denied" at the top level', async () => {
    answering(200, { data: null, errors: [{ message: 'access denied', path: ['logSource'] }] });
    const { apollo } = client();
    await expect(apollo.query({ query: LOG_SOURCE })).rejects.toThrow('access denied');
  });
});

describe('the shell', () => {
  function renderShell(at: string, permissions: Permission[]) {
    const channel = createErrorStatusChannel();
    renderWithApi(
      <ErrorStatusContext.Provider value={channel}>
        <Routes>
          <Route element={<AppLayout />}>
            <Route path="/" element={<Link to="/other/">Somewhere else</Link>} />
            <Route path="/other/" element={<p>The other page</p>} />
            <Route element={<RequirePermissions permissions={['LogSourceRead', 'LogSourceModify']} />}>
              <Route path="/configure/log-sources/" element={<p>Log sources list</p>} />
            </Route>
          </Route>
        </Routes>
      </ErrorStatusContext.Provider>,
      { auth: fakeAuth(signedInAs), at, permissions },
    );
    return channel;
  }

  it('shows the error page the data layer asks for, at the same address, until the path changes', async () => {
    const channel = renderShell('/', ['SummaryRead']);
    await screen.findByText('Somewhere else');
    act(() => channel.publish(503));
    expect(await screen.findByRole('heading', { name: 'Service Unavailable' })).toBeTruthy();
    expect(screen.queryByText('Somewhere else')).toBeNull();
    fireEvent.click(await screen.findByRole('link', { name: 'Back to Home' }));
    expect(await screen.findByText('Somewhere else')).toBeTruthy();
    fireEvent.click(screen.getByText('Somewhere else'));
    expect(await screen.findByText('The other page')).toBeTruthy();
  });

  it('shows the 403 page on a route the user may not use', async () => {
    renderShell('/configure/log-sources/', ['AlertRead']);
    expect(
      await screen.findByRole('heading', { name: "Oops! You don't have the proper permissions to view this page." }),
    ).toBeTruthy();
    expect(screen.queryByText('Log sources list')).toBeNull();
  });

  it('opens the route to a user holding one of its permissions', async () => {
    renderShell('/configure/log-sources/', ['LogSourceRead']);
    expect(await screen.findByText('Log sources list')).toBeTruthy();
  });
});

describe('leaving an error page', () => {
  const GREETING = gql`
    query Greeting {
      greeting
    }
  `;

  function Greeting() {
    const { data, error } = useQuery<{ greeting: string }>(GREETING);
    if (error) return <p>No greeting</p>;
    return <p>{data ? data.greeting : 'Asking'}</p>;
  }

  function renderShell(at: InitialEntry, mocks: MockLink.MockedResponse[] = []) {
    const channel = createErrorStatusChannel();
    renderWithApi(
      <ErrorStatusContext.Provider value={channel}>
        <Routes>
          <Route element={<AppLayout />}>
            <Route path="/" element={<Greeting />} />
          </Route>
        </Routes>
      </ErrorStatusContext.Provider>,
      { auth: fakeAuth(signedInAs), at, permissions: ['SummaryRead'], mocks },
    );
    return channel;
  }

  it.each<[ErrorStatus, string]>([
    [502, 'Bad Gateway'],
    [503, 'Service Unavailable'],
    [504, 'Gateway Timeout'],
    ['unknown', 'Failed to Fetch'],
  ])('"Try again" on %s asks the server again and shows the page once it answers', async (status, title) => {
    const channel = renderShell('/', [
      { request: { query: GREETING }, error: new Error('Failed to fetch') },
      { request: { query: GREETING }, result: { data: { greeting: 'Hello again' } } },
    ]);
    await screen.findByText('No greeting');
    act(() => channel.publish(status));
    expect(await screen.findByRole('heading', { name: title })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Hello again')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: title })).toBeNull();
  });

  it('a reload loads the page: the status another page load kept in the history is not shown', async () => {
    renderShell({ pathname: '/', state: { statusCode: 422, statusLoad: performance.timeOrigin - 60_000 } }, [
      { request: { query: GREETING }, result: { data: { greeting: 'Hello' } } },
    ]);
    expect(await screen.findByText('Hello')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Unprocessable Content' })).toBeNull();
  });

  it('keeps the 422 page, without "Try again", until the path changes', async () => {
    const channel = renderShell('/', [{ request: { query: GREETING }, result: { data: { greeting: 'Hello' } } }]);
    await screen.findByText('Hello');
    act(() => channel.publish(422));
    expect(await screen.findByRole('heading', { name: 'Unprocessable Content' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.queryByText('Hello')).toBeNull();
  });
});
