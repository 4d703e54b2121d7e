import { gql } from '@apollo/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApolloClient } from '../../web/src/lib/apollo/createApolloClient';

afterEach(() => vi.unstubAllGlobals());

const ME = gql`
  query Me {
    me {
      id
    }
  }
`;

function answering(status: number, body: unknown) {
  const fetchMock = vi.fn(
    async (_url: string, _init: RequestInit) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('the GraphQL client', () => {
  it('sends the session ID token in Authorization to the configured endpoint', async () => {
    const fetchMock = answering(200, { data: { me: { id: 'u-1', __typename: 'User' } } });
    const onUnauthorized = vi.fn();
    const client = createApolloClient({
      graphqlUrl: 'http://api.test/graphql',
      idToken: async () => 'id.token.jwt',
      onUnauthorized,
    });
    const result = await client.query({ query: ME });
    expect(result.data).toEqual({ me: { id: 'u-1', __typename: 'User' } });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('http://api.test/graphql');
    expect(new Headers(init.headers).get('authorization')).toBe('id.token.jwt');
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('reports a refused session once the API answers 401', async () => {
    answering(401, { errors: [{ errorType: 'UnauthorizedException', message: 'You are not authorized to make this call.' }] });
    const onUnauthorized = vi.fn();
    const client = createApolloClient({ graphqlUrl: 'http://api.test/graphql', idToken: async () => '', onUnauthorized });
    await expect(client.query({ query: ME })).rejects.toThrow('Received status code 401');
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('reports a session the API refuses as a whole, with the reason it gave', async () => {
    answering(200, {
      data: null,
      errors: [{ errorType: 'UnauthorizedException', message: 'Your account has been deactivated' }],
    });
    const onUnauthorized = vi.fn();
    const client = createApolloClient({ graphqlUrl: 'http://api.test/graphql', idToken: async () => 't', onUnauthorized });
    await expect(client.query({ query: ME })).rejects.toThrow('Your account has been deactivated');
    expect(onUnauthorized).toHaveBeenCalledWith('Your account has been deactivated');
  });

  it('leaves the session alone on other failures', async () => {
    answering(200, { data: null, errors: [{ message: 'the resolver timed out', errorType: 'Lambda:Unhandled' }] });
    const onUnauthorized = vi.fn();
    const client = createApolloClient({ graphqlUrl: 'http://api.test/graphql', idToken: async () => 't', onUnauthorized });
    await expect(client.query({ query: ME })).rejects.toThrow('the resolver timed out');
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});
