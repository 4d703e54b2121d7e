// cognito-local signs every token with one RSA key; its public half verifies them.
import { importJWK, jwtVerify, type JWTPayload } from 'jose';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const publicJwk = (require('cognito-local/lib/keys/cognitoLocal.public.json') as { jwk: Record<string, string> }).jwk;
const key = importJWK(publicJwk, 'RS256');

/** The token's claims, or 'expired' / 'invalid'. */
export async function verifyLocalJwt(token: string): Promise<JWTPayload | 'expired' | 'invalid'> {
  try {
    return (await jwtVerify(token, await key, { algorithms: ['RS256'] })).payload;
  } catch (err) {
    return (err as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'expired' : 'invalid';
  }
}
