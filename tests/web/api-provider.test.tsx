// @vitest-environment jsdom
import { gql, type TypedDocumentNode } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiProvider } from '../../web/src/app/ApiProvider';
import { AuthContext, type Auth } from '../../web/src/lib/auth/AuthContext';
import { fakeAuth, signedInAs, testUser } from './support/render';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ME: TypedDocumentNode<{ me: { id: string; email: string } }, Record<string, never>> = gql`
  query Me {
    me {
      id
      email
    }
  }
`;

function Me() {
  const { data, error } = useQuery(ME);
  if (error) return <p>failed</p>;
  return <p>{data ? `me ${data.me.email}` : 'loading'}</p>;
}

/** Renders the provider, with the query only while someone is signed in, as the route guards do. */
function renderWith(auth: Auth) {
  const tree = (value: Auth) => (
    <AuthContext.Provider value={value}>
      <ApiProvider graphqlUrl="http://api.test/graphql">{value.state.status === 'authenticated' && <Me />}</ApiProvider>
    </AuthContext.Provider>
  );
  const view = render(tree(auth));
  return (next: Auth) => view.rerender(tree(next));
}

function answering(status: number, body: unknown) {
  const fetchMock = vi.fn(
    async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('the API provider', () => {
  it('ends the session when the API refuses it', async () => {
    answering(401, { errors: [{ errorType: 'UnauthorizedException', message: 'You are not authorized to make this call.' }] });
    const endExpiredSession = vi.fn(async () => undefined);
    renderWith(fakeAuth(signedInAs, { endExpiredSession }));
    expect(await screen.findByText('failed')).toBeTruthy();
    expect(endExpiredSession).toHaveBeenCalledOnce();
  });

  it("forgets the signed-out user's data", async () => {
    const fetchMock = answering(200, { data: { me: { id: 'u-1', email: 'ada@example.com', __typename: 'User' } } });
    const rerender = renderWith(fakeAuth(signedInAs));
    expect(await screen.findByText('me ada@example.com')).toBeTruthy();

    expect(fetchMock).toHaveBeenCalledOnce();

    rerender(fakeAuth({ status: 'anonymous', reason: 'signed-out' }));
    const nextFetch = answering(200, { data: { me: { id: 'u-2', email: 'grace@example.com', __typename: 'User' } } });
    await waitFor(() => expect(screen.queryByText(/^me /)).toBeNull());
    rerender(fakeAuth({ status: 'authenticated', user: { ...testUser, id: 'u-2', email: 'grace@example.com' } }));
    expect(await screen.findByText('me grace@example.com')).toBeTruthy();
    expect(screen.queryByText('me ada@example.com')).toBeNull();
    expect(nextFetch).toHaveBeenCalledOnce();
  });
});
