// What the app keeps in local storage about the session, beside Amplify's own token storage: who signed in
// and when they last authenticated (the session counts as ended once that is older than the refresh-token
// lifetime), and the page to return to after the API refused the session.

export const SESSION_KEY = 'caracal.session';
export const POST_LOGIN_PATH_KEY = 'caracal.postLoginPath';

export interface SessionRecord {
  readonly userId: string;
  readonly email: string;
  /** When the user last authenticated with the identity provider (Unix ms). */
  readonly authenticatedAt: number;
  /** MFA was required at this sign-in and the user had no authenticator: setup comes first, across reloads too. */
  readonly mfaSetupPending?: boolean;
}

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

export function readSessionRecord(): SessionRecord | null {
  try {
    const value = JSON.parse(storage()?.getItem(SESSION_KEY) ?? 'null') as Partial<SessionRecord> | null;
    if (typeof value?.userId !== 'string' || typeof value.email !== 'string' || typeof value.authenticatedAt !== 'number')
      return null;
    return {
      userId: value.userId,
      email: value.email,
      authenticatedAt: value.authenticatedAt,
      ...(value.mfaSetupPending === true ? { mfaSetupPending: true } : {}),
    };
  } catch {
    return null;
  }
}

export function writeSessionRecord(record: SessionRecord): void {
  storage()?.setItem(SESSION_KEY, JSON.stringify(record));
}

export function clearSessionRecord(): void {
  storage()?.removeItem(SESSION_KEY);
}

/** Amplify's record of the last user to sign in with this app client. */
export function hasLastUser(userPoolClientId: string): boolean {
  return Boolean(storage()?.getItem(`CognitoIdentityServiceProvider.${userPoolClientId}.LastAuthUser`));
}

/**
 * The session counts as authenticated on load only if a last-user record exists and the last authentication
 * plus the refresh-token lifetime is still in the future.
 */
export function sessionMayBeAlive(userPoolClientId: string, refreshTokenHours: number, now: number): boolean {
  const record = readSessionRecord();
  if (!record || !hasLastUser(userPoolClientId)) return false;
  return record.authenticatedAt + refreshTokenHours * 3_600_000 > now;
}

const isLocalPath = (path: unknown): path is string => typeof path === 'string' && path.startsWith('/') && !path.startsWith('//');

/** Keeps the page the user was on when the API refused their session. */
export function savePostLoginPath(path: string): void {
  if (isLocalPath(path)) storage()?.setItem(POST_LOGIN_PATH_KEY, path);
}

export function peekPostLoginPath(): string | null {
  const path = storage()?.getItem(POST_LOGIN_PATH_KEY);
  return isLocalPath(path) ? path : null;
}

export function clearPostLoginPath(): void {
  storage()?.removeItem(POST_LOGIN_PATH_KEY);
}
