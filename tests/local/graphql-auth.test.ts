// The local GraphQL endpoint's token check, against a user pool's JWKS served over HTTP as the stand-in
// serves it: a token needs an expiry, one issued for later is refused as not yet valid, and each refusal
// says why.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type GenerateKeyPairResult, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserPoolVerifier } from '../../local/graphql/auth';

let server: Server;
let issuer: string;
let privateKey: GenerateKeyPairResult['privateKey'];
let verifier: UserPoolVerifier;
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  privateKey = pair.privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k-1', alg: 'RS256', use: 'sig' };
  server = createServer((req, res) => {
    res.writeHead(req.url === '/pool/.well-known/jwks.json' ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pool`;
  verifier = new UserPoolVerifier({ issuer, clientIds: ['client-1'] });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const token = (claims: JWTPayload) =>
  new SignJWT({ iss: issuer, token_use: 'id', aud: 'client-1', sub: 'u-1', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: 'k-1' })
    .sign(privateKey);

describe("the local GraphQL endpoint's token check", () => {
  it('accepts a token of the pool with an expiry, issued now', async () => {
    const verified = await verifier.verify(await token({ iat: now(), exp: now() + 3600 }));
    expect(verified.claims.sub).toBe('u-1');
  });

  it.each<[string, () => JWTPayload, string]>([
    ['without an expiry', () => ({ iat: now() }), 'Token has no expiration time.'],
    ['issued in the future', () => ({ iat: now() + 600, exp: now() + 4200 }), 'Token is not yet valid.'],
    ['valid only from later', () => ({ iat: now(), nbf: now() + 600, exp: now() + 4200 }), 'Token is not yet valid.'],
    ['expired', () => ({ iat: now() - 7200, exp: now() - 3600 }), 'Token has expired.'],
    [
      'of another issuer',
      () => ({ iss: 'http://127.0.0.1:1/other', iat: now(), exp: now() + 3600 }),
      'Token has an invalid issuer.',
    ],
    [
      'with an expiry that is not a time',
      () => ({ iat: now(), exp: 'later' as unknown as number }),
      'Unable to parse JWT token.',
    ],
  ])('refuses a token %s', async (_case, claims, message) => {
    await expect(verifier.verify(await token(claims()))).rejects.toMatchObject({ errorType: 'UnauthorizedException', message });
  });
});
