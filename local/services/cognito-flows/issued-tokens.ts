// Every token cognito-local issues is signed again with the state folder's key (./keys.ts). On the way, the
// access and ID tokens gain the `origin_jti` claim Cognito gives the tokens of a client with token revocation:
// Amplify revokes the refresh token at sign-out (RevokeToken) only when the access token carries one, and
// cognito-local's tokens lack it (one per issue, shared by the access and ID tokens).
import { decodeJwt } from 'jose';
import { randomUUID } from 'node:crypto';
import type { SigningKey } from './keys';

export interface IssuedTokens {
  readonly AccessToken: string;
  readonly IdToken: string;
  readonly RefreshToken?: string;
}

export async function signIssuedTokens<T extends IssuedTokens>(tokens: T, key: SigningKey): Promise<T> {
  const originJti = randomUUID();
  return {
    ...tokens,
    AccessToken: await key.sign({ ...decodeJwt(tokens.AccessToken), origin_jti: originJti }),
    IdToken: await key.sign({ ...decodeJwt(tokens.IdToken), origin_jti: originJti }),
    ...(tokens.RefreshToken ? { RefreshToken: await key.sign(decodeJwt(tokens.RefreshToken)) } : {}),
  };
}
