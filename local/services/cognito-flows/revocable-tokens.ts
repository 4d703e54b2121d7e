// Cognito marks the tokens of a client with token revocation by an `origin_jti` claim, and Amplify revokes the
// refresh token at sign-out (RevokeToken) only when the access token carries one. cognito-local's tokens lack
// it, so a local Log Out left the refresh token working. This adds the claim (one per issue, shared by the
// access and ID tokens) and re-signs both with cognito-local's key.
import { decodeJwt, SignJWT } from 'jose';
import { createPrivateKey, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const privateKey = createPrivateKey((require('cognito-local/lib/keys/cognitoLocal.private.json') as { pem: string }).pem);

export interface IssuedTokens {
  readonly AccessToken: string;
  readonly IdToken: string;
  readonly RefreshToken?: string;
}

async function withClaim(token: string, originJti: string): Promise<string> {
  return new SignJWT({ ...decodeJwt(token), origin_jti: originJti })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: 'CognitoLocal' })
    .sign(privateKey);
}

export async function revocable<T extends IssuedTokens>(tokens: T): Promise<T> {
  const originJti = randomUUID();
  return {
    ...tokens,
    AccessToken: await withClaim(tokens.AccessToken, originJti),
    IdToken: await withClaim(tokens.IdToken, originJti),
  };
}
