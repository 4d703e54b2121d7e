// Cognito never keeps a refresh token; cognito-local kept each one it issued in the user's record (`RefreshTokens`),
// in clear in its state file, so whoever read the file could refresh any session in it. Here a refresh token is
// kept as its SHA-256 digest: the user pool's store digests each new one before it reaches the file (./passwords.ts),
// and every lookup by token (the refresh flows, GetTokensFromRefreshToken, RevokeToken) digests the token presented
// and looks for that digest, so the digest read from the file is not a token. A refresh token is a JWT signed with
// the state folder's key around a random id, far too long to guess: an unsalted digest is enough, and lets a token
// be found by its digest. A state folder from an earlier version has its clear tokens digested when it is opened.
import { createHash } from 'node:crypto';
import type { Route, StoredUser, UserPool } from './types';

const PREFIX = 'sha256$';

/** `sha256$<digest>`, base64url. */
export function refreshTokenDigest(token: string): string {
  return PREFIX + createHash('sha256').update(token, 'utf8').digest('base64url');
}

const isDigest = (value: unknown): boolean => typeof value === 'string' && value.startsWith(PREFIX);

/** The user with each refresh token as its digest (the same object when there is nothing to digest). */
export function digestRefreshTokens(user: StoredUser): StoredUser {
  const tokens = user.RefreshTokens;
  if (!Array.isArray(tokens) || tokens.every(isDigest)) return user;
  return { ...user, RefreshTokens: tokens.map((token) => (isDigest(token) ? token : refreshTokenDigest(String(token)))) };
}

interface UserPoolFactory {
  create(...args: unknown[]): Promise<UserPool>;
}

/** cognito-local's user pool factory, with every pool finding a user by the digest of the refresh token presented. */
export function lookupByDigest<F extends UserPoolFactory>(factory: F): F {
  const create = factory.create.bind(factory);
  factory.create = async (...args: unknown[]) => {
    const pool = await create(...args);
    const find = pool.getUserByRefreshToken.bind(pool);
    pool.getUserByRefreshToken = (ctx: unknown, token: string) =>
      typeof token === 'string' && token !== '' ? find(ctx, refreshTokenDigest(token)) : Promise.resolve(null);
    return pool;
  };
  return factory;
}

/** RevokeToken: cognito-local finds the user whose record holds the token, which is now its digest. */
export function revokeByDigest(route: Route): Route {
  return (ctx, req) =>
    route(ctx, { ...req, Token: typeof req.Token === 'string' && req.Token !== '' ? refreshTokenDigest(req.Token) : req.Token });
}
