// Loads the session user's profile, role and permissions from the API (`me`), with the organisation's MFA
// requirement, right after sign-in and on start. A plain request: the auth provider sits above Apollo.
import { print } from 'graphql';
import type { SessionUserQuery } from '../graphql/types';
import { SESSION_USER_QUERY } from './currentUser.operations';

const QUERY = print(SESSION_USER_QUERY);

/** The API refused the session's token. */
export class SessionRefusedError extends Error {
  override readonly name = 'SessionRefusedError';
}

export interface CurrentUser {
  readonly me: SessionUserQuery['me'];
  readonly mfaRequired: boolean;
}

interface GraphqlAnswer {
  readonly data?: SessionUserQuery | null;
  readonly errors?: ReadonlyArray<{ readonly message?: string; readonly errorType?: string }>;
}

export async function loadCurrentUser(graphqlUrl: string, idToken: string, fetchApi: typeof fetch = fetch): Promise<CurrentUser> {
  const response = await fetchApi(graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: idToken },
    body: JSON.stringify({ query: QUERY, operationName: 'SessionUser' }),
  });
  if (response.status === 401) throw new SessionRefusedError('The API refused the session.');
  const answer = (await response.json().catch(() => ({}))) as GraphqlAnswer;
  if (answer.errors?.some((error) => error.errorType === 'UnauthorizedException')) {
    throw new SessionRefusedError(answer.errors[0]?.message ?? 'The API refused the session.');
  }
  if (!answer.data?.me) {
    throw new Error(answer.errors?.[0]?.message ?? `The API answered ${response.status} without the signed-in user.`);
  }
  return { me: answer.data.me, mfaRequired: answer.data.appConfig.mfaRequired };
}
