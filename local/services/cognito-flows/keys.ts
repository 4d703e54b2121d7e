// The user pool's signing key. cognito-local signs every token with the RSA key inside its npm package, which
// anyone can read, so anyone could mint a token for any user and group. Every token it issues is signed again
// with a key pair made for the state folder on its first start (kept in the folder, readable by its owner
// only; a key file an earlier version left readable by others is made so), whose public half the stand-in
// serves as the pool's JWKS; a token signed with any other key is refused.
import { calculateJwkThumbprint, exportJWK, jwtVerify, SignJWT, type JWK, type JWTPayload } from 'jose';
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { ownerOnlyFile } from './state-files';

/** A token's claims, or why it is refused. */
export type Verification = JWTPayload | 'expired' | 'invalid';

function readOrCreatePem(file: string): string {
  try {
    const pem = readFileSync(file, 'utf8');
    ownerOnlyFile(file);
    return pem;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  writeFileSync(file, pem, { mode: 0o600, flag: 'wx' });
  return pem;
}

export class SigningKey {
  private constructor(
    private readonly privateKey: KeyObject,
    private readonly publicKey: KeyObject,
    /** The public half, as the pool's JWKS lists it. */
    readonly jwk: JWK & { readonly kid: string },
  ) {}

  /** The key pair kept in `file` (PEM), made when the state folder has none yet. */
  static async load(file: string): Promise<SigningKey> {
    const privateKey = createPrivateKey(readOrCreatePem(file));
    const publicKey = createPublicKey(privateKey);
    const jwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(jwk);
    return new SigningKey(privateKey, publicKey, { ...jwk, kid, alg: 'RS256', use: 'sig' });
  }

  sign(claims: JWTPayload): Promise<string> {
    return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: this.jwk.kid }).sign(this.privateKey);
  }

  /** Every token must carry an expiry, and must not be issued in the future (`nbf` or `iat` ahead of now). */
  async verify(token: string): Promise<Verification> {
    try {
      const { payload } = await jwtVerify(token, this.publicKey, { algorithms: ['RS256'], requiredClaims: ['exp'] });
      if (typeof payload.iat === 'number' && payload.iat > Math.floor(Date.now() / 1000)) return 'invalid';
      return payload;
    } catch (err) {
      return (err as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'expired' : 'invalid';
    }
  }
}
