// Loads the session user's profile, role and permissions from the API (`me`), with the organisation's MFA
// requirement, right after sign-in and on start; and signs the user out of every device after a password
// change. Plain requests: the auth provider sits above Apollo.
import { print } from 'graphql';
import type { SessionUserQuery, SignOutEverywhereMutation } from '../graphql/types';
import { SESSION_USER_QUERY, SIGN_OUT_EVERYWHERE_MUTATION } from './currentUser.operations';

const QUERY = print(SESSION_USER_QUERY);
const SIGN_OUT_EVERYWHERE = print(SIGN_OUT_EVERYWHERE_MUTATION);

/** The API refused the session's token. */
export class SessionRefusedError extends Error {
  override readonly name = 'SessionRefusedError';

  constructor(
    message: string,
    /** Why, in the server's words, when it said (a deactivated account, a sign-out from every device). */
    readonly reason?: string,
  ) {
    super(message);
  }
}

export interface CurrentUser {
  readonly me: SessionUserQuery['me'];
  readonly mfaRequired: boolean;
}

interface GraphqlAnswer<T> {
  readonly data?: T | null;
  readonly errors?: ReadonlyArray<{ readonly message?: string; readonly errorType?: string }>;
}

async function request<T>(
  graphqlUrl: string,
  idToken: string,
  query: string,
  operationName: string,
  fetchApi: typeof fetch,
): Promise<{ status: number; answer: GraphqlAnswer<T> }> {
  const response = await fetchApi(graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: idToken },
    body: JSON.stringify({ query, operationName }),
  });
  if (response.status === 401) throw new SessionRefusedError('The API refused the session.');
  const answer = (await response.json().catch(() => ({}))) as GraphqlAnswer<T>;
  const refusal = answer.errors?.find((error) => error.errorType === 'UnauthorizedException');
  if (refusal) throw new SessionRefusedError(refusal.message ?? 'The API refused the session.', refusal.message);
  return { status: response.status, answer };
}

export async function loadCurrentUser(graphqlUrl: string, idToken: string, fetchApi: typeof fetch = fetch): Promise<CurrentUser> {
  const { status, answer } = await request<SessionUserQuery>(graphqlUrl, idToken, QUERY, 'SessionUser', fetchApi);
  if (!answer.data?.me) {
    throw new Error(answer.errors?.[0]?.message ?? `The API answered ${status} without the signed-in user.`);
  }
  return { me: answer.data.me, mfaRequired: answer.data.appConfig.mfaRequired };
}

/** Has the server refuse every token of the user issued so far and revoke their refresh tokens. */
export async function signOutEverywhere(graphqlUrl: string, idToken: string, fetchApi: typeof fetch = fetch): Promise<void> {
  const { status, answer } = await request<SignOutEverywhereMutation>(
    graphqlUrl,
    idToken,
    SIGN_OUT_EVERYWHERE,
    'SignOutEverywhere',
    fetchApi,
  );
  if (!answer.data?.signOutEverywhere) throw new Error(answer.errors?.[0]?.message ?? `The API answered ${status}.`);
}
