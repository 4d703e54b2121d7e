// Cognito user-pool authorization as AppSync applies it: the Authorization header holds an ID or access
// token of the API's user pool, verified against the pool's JWKS. A token must carry an expiry, and one
// issued for later (`nbf` or `iat` in the future) is refused as not yet valid.
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';

export interface UserPoolAuthConfig {
  /** Issuer URL of the user pool (`<cognito endpoint>/<pool id>`). */
  readonly issuer: string;
  /** App client ids allowed to call the API. */
  readonly clientIds: readonly string[];
}

const NOT_YET_VALID = 'Token is not yet valid.';

function claimFailure(err: errors.JWTClaimValidationFailed): string {
  if (err.claim === 'iss') return 'Token has an invalid issuer.';
  if (err.claim === 'exp' && err.reason === 'missing') return 'Token has no expiration time.';
  if (err.claim === 'nbf' && err.reason === 'check_failed') return NOT_YET_VALID;
  return 'Unable to parse JWT token.';
}

export class AuthError extends Error {
  readonly errorType = 'UnauthorizedException';
}

export interface VerifiedToken {
  readonly claims: JWTPayload & Record<string, unknown>;
}

export class UserPoolVerifier {
  private readonly jwks: ReturnType<typeof createRemoteJWKSet>;

  constructor(private readonly config: UserPoolAuthConfig) {
    this.jwks = createRemoteJWKSet(new URL(`${config.issuer}/.well-known/jwks.json`));
  }

  async verify(header: string | undefined): Promise<VerifiedToken> {
    if (!header || !header.trim()) throw new AuthError('Valid authorization header not provided.');
    const token = header.replace(/^Bearer\s+/i, '').trim();
    if (token.split('.').length !== 3) throw new AuthError('Unable to parse JWT token.');
    let claims: JWTPayload & Record<string, unknown>;
    try {
      ({ payload: claims } = await jwtVerify(token, this.jwks, {
        issuer: this.config.issuer,
        algorithms: ['RS256'],
        requiredClaims: ['exp'],
      }));
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw new AuthError('Token has expired.');
      if (err instanceof errors.JWTClaimValidationFailed) throw new AuthError(claimFailure(err));
      throw new AuthError('Unable to parse JWT token.');
    }
    if (typeof claims.iat === 'number' && claims.iat > Math.floor(Date.now() / 1000)) throw new AuthError(NOT_YET_VALID);
    const use = claims.token_use;
    const client = use === 'id' ? claims.aud : use === 'access' ? claims.client_id : undefined;
    const clients = Array.isArray(client) ? client : [client];
    if (!clients.some((c) => typeof c === 'string' && this.config.clientIds.includes(c))) {
      throw new AuthError('Valid authorization header not provided.');
    }
    return { claims };
  }
}
