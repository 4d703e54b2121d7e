// Signing in, as Cognito answers it and cognito-local does not:
// - the password is checked against its hash before any challenge (cognito-local offers a user with a
//   temporary password the new-password challenge without checking it), and a wrong one is "Incorrect
//   username or password."; cognito-local then receives the stored hash to compare with itself;
// - a disabled user is refused ("User is disabled."), at sign-in, at every challenge and on refresh;
// - a challenge can only be answered with the session its sign-in returned, for that user, within 3 minutes
//   (cognito-local accepts any session, so anyone could set a new user's password);
// - a new password must follow the pool's password policy;
// - the refresh token of a sign-in that went through a challenge is stored (cognito-local forgets it, so
//   the session ended at the first refresh); an expired or revoked refresh token is refused;
// - GetTokensFromRefreshToken, which Amplify refreshes sessions with and cognito-local lacks, answers as
//   the refresh flow of InitiateAuth (no refresh-token rotation: the client keeps its refresh token).
import type { SigningKey } from './keys';
import { assertConforms } from './password-policy';
import { passwordMatches } from './passwords';
import type { CognitoErrors, Request, Route, StoredUser, UserPool, UserPools } from './types';

const PASSWORD_FLOWS = new Set(['USER_PASSWORD_AUTH', 'ADMIN_USER_PASSWORD_AUTH', 'ADMIN_NO_SRP_AUTH']);
const REFRESH_FLOWS = new Set(['REFRESH_TOKEN_AUTH', 'REFRESH_TOKEN']);
/** How long Cognito keeps a challenge session open. */
export const CHALLENGE_SESSION_MS = 3 * 60 * 1000;

interface AuthResult {
  readonly ChallengeName?: string;
  readonly Session?: string;
  readonly AuthenticationResult?: { readonly RefreshToken?: string };
}

interface ChallengeSession {
  readonly username: string;
  readonly challenge: string;
  readonly expiresAt: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class SignInFlows {
  private readonly sessions = new Map<string, ChallengeSession>();

  constructor(
    private readonly pools: UserPools,
    private readonly errors: CognitoErrors,
    private readonly key: SigningKey,
    private readonly now: () => number = Date.now,
  ) {}

  /** InitiateAuth and AdminInitiateAuth. */
  initiateAuth(route: Route): Route {
    return async (ctx, req) => {
      const flow = String(req.AuthFlow);
      const params = (req.AuthParameters ?? {}) as Record<string, string>;
      const pool = await this.poolOf(ctx, req);
      let user: StoredUser | null = null;
      let checked = req;
      if (PASSWORD_FLOWS.has(flow) && params.USERNAME) {
        user = await pool.getUserByUsername(ctx, params.USERNAME);
        if (!(await passwordMatches(params.PASSWORD, user?.Password)) || !user)
          throw new this.errors.NotAuthorizedError('Incorrect username or password.');
        this.assertEnabled(user);
        await this.waitPastSignOut(user);
        checked = { ...req, AuthParameters: { ...params, PASSWORD: user.Password } };
      }
      if (REFRESH_FLOWS.has(flow)) await this.checkRefreshToken(ctx, pool, params.REFRESH_TOKEN);
      const result = (await route(ctx, checked)) as AuthResult;
      if (user && result.ChallengeName && result.Session) {
        this.sessions.set(result.Session, {
          username: user.Username,
          challenge: result.ChallengeName,
          expiresAt: this.now() + CHALLENGE_SESSION_MS,
        });
      }
      return result;
    };
  }

  /** RespondToAuthChallenge. */
  respondToAuthChallenge(route: Route): Route {
    return async (ctx, req) => {
      const sessionId = String(req.Session ?? '');
      const session = this.sessions.get(sessionId);
      if (!session || session.expiresAt < this.now() || session.challenge !== req.ChallengeName) {
        if (session && session.expiresAt < this.now()) this.sessions.delete(sessionId);
        throw new this.errors.NotAuthorizedError('Invalid session for the user, session is expired.');
      }
      const responses = (req.ChallengeResponses ?? {}) as Record<string, string>;
      const pool = await this.poolOf(ctx, req);
      const user = await pool.getUserByUsername(ctx, String(responses.USERNAME ?? ''));
      if (!user || user.Username !== session.username) throw new this.errors.NotAuthorizedError('Invalid session for the user.');
      this.assertEnabled(user);
      if (req.ChallengeName === 'NEW_PASSWORD_REQUIRED') {
        assertConforms(this.errors, responses.NEW_PASSWORD, pool.options.Policies?.PasswordPolicy);
      }
      await this.waitPastSignOut(user);
      const result = (await route(ctx, req)) as AuthResult;
      this.sessions.delete(sessionId);
      const refreshToken = result.AuthenticationResult?.RefreshToken;
      if (refreshToken) {
        const current = await pool.getUserByUsername(ctx, user.Username);
        if (current) await pool.storeRefreshToken(ctx, refreshToken, current);
      }
      return result;
    };
  }

  /** GetTokensFromRefreshToken, answered by the (wrapped) InitiateAuth refresh flow. */
  getTokensFromRefreshToken(initiateAuth: Route): Route {
    return async (ctx, req) => {
      if (typeof req.RefreshToken !== 'string' || req.RefreshToken === '') {
        throw new this.errors.InvalidParameterError('Missing required parameter RefreshToken');
      }
      const result = (await initiateAuth(ctx, {
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        ClientId: req.ClientId,
        AuthParameters: { REFRESH_TOKEN: req.RefreshToken },
        ClientMetadata: req.ClientMetadata,
      })) as { AuthenticationResult?: { AccessToken?: string; IdToken?: string } };
      const { AccessToken, IdToken } = result.AuthenticationResult ?? {};
      return { AuthenticationResult: { AccessToken, IdToken, TokenType: 'Bearer' } };
    };
  }

  private async poolOf(ctx: unknown, req: Request): Promise<UserPool> {
    return req.ClientId
      ? this.pools.getUserPoolForClientId(ctx, String(req.ClientId))
      : this.pools.getUserPool(ctx, String(req.UserPoolId));
  }

  private assertEnabled(user: StoredUser): void {
    if (user.Enabled === false) throw new this.errors.NotAuthorizedError('User is disabled.');
  }

  /** Tokens issued in the second of a global sign-out would count as revoked: issue them a second later. */
  private async waitPastSignOut(user: StoredUser): Promise<void> {
    if (user.SignedOutAt === undefined) return;
    const wait = (user.SignedOutAt + 1) * 1000 - this.now();
    if (wait > 0) await sleep(wait);
  }

  private async checkRefreshToken(ctx: unknown, pool: UserPool, token: string | undefined): Promise<void> {
    if (!token) throw new this.errors.InvalidParameterError('AuthParameters REFRESH_TOKEN is required');
    const verified = await this.key.verify(token);
    if (verified === 'expired') throw new this.errors.NotAuthorizedError('Refresh Token has expired');
    if (verified === 'invalid') throw new this.errors.NotAuthorizedError('Invalid Refresh Token');
    const user = await pool.getUserByRefreshToken(ctx, token);
    if (!user) throw new this.errors.NotAuthorizedError('Refresh Token has been revoked');
    this.assertEnabled(user);
  }
}
