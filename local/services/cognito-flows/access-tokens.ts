// cognito-local only decodes the access token of the calls that carry one (GetUser, ChangePassword, the TOTP
// calls, ...). Cognito verifies it, and refuses it once the user signed out globally or was disabled; so
// does this, before the call reaches cognito-local.
import type { JWTPayload } from 'jose';
import type { SigningKey } from './keys';
import type { CognitoErrors, StoredUser, UserPool, UserPools } from './types';

export interface AccessTokenClaims extends JWTPayload {
  readonly client_id: string;
  readonly username: string;
  readonly token_use: string;
}

export interface VerifiedAccess {
  readonly claims: AccessTokenClaims;
  readonly pool: UserPool;
  readonly user: StoredUser;
}

/** True when a token issued at `issuedAt` (Unix seconds) predates the user's last global sign-out. */
export function revokedBySignOut(user: StoredUser, issuedAt: number | undefined): boolean {
  return user.SignedOutAt !== undefined && (issuedAt ?? 0) <= user.SignedOutAt;
}

export async function verifyAccessToken(
  ctx: unknown,
  token: unknown,
  pools: UserPools,
  errors: CognitoErrors,
  key: SigningKey,
): Promise<VerifiedAccess> {
  if (typeof token !== 'string' || token === '') throw new errors.InvalidParameterError('Missing required parameter AccessToken');
  const verified = await key.verify(token);
  if (verified === 'expired') throw new errors.NotAuthorizedError('Access Token has expired');
  if (verified === 'invalid') throw new errors.NotAuthorizedError('Invalid Access Token');
  const claims = verified as AccessTokenClaims;
  if (claims.token_use !== 'access' || typeof claims.client_id !== 'string') {
    throw new errors.NotAuthorizedError('Invalid Access Token');
  }
  const pool = await pools.getUserPoolForClientId(ctx, claims.client_id);
  const user = await pool.getUserByUsername(ctx, claims.username);
  if (!user) throw new errors.NotAuthorizedError('Invalid Access Token');
  if (user.Enabled === false) throw new errors.NotAuthorizedError('User is disabled.');
  if (revokedBySignOut(user, claims.iat)) throw new errors.NotAuthorizedError('Access Token has been revoked');
  return { claims, pool, user };
}
