// Cognito user-pool authorization as AppSync applies it: the Authorization header holds an ID or access
// token of the API's user pool, verified against the pool's JWKS.
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';

export interface UserPoolAuthConfig {
  /** Issuer URL of the user pool (`<cognito endpoint>/<pool id>`). */
  readonly issuer: string;
  /** App client ids allowed to call the API. */
  readonly clientIds: readonly string[];
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
      ({ payload: claims } = await jwtVerify(token, this.jwks, { issuer: this.config.issuer, algorithms: ['RS256'] }));
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw new AuthError('Token has expired.');
      if (err instanceof errors.JWTClaimValidationFailed) throw new AuthError('Token has an invalid issuer.');
      throw new AuthError('Unable to parse JWT token.');
    }
    const use = claims.token_use;
    const client = use === 'id' ? claims.aud : use === 'access' ? claims.client_id : undefined;
    const clients = Array.isArray(client) ? client : [client];
    if (!clients.some((c) => typeof c === 'string' && this.config.clientIds.includes(c))) {
      throw new AuthError('Valid authorization header not provided.');
    }
    return { claims };
  }
}
