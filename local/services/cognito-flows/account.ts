// Password and session calls, as Cognito answers them and cognito-local does not:
// - ChangePassword verifies the access token and the current password against its hash ("Incorrect
//   username or password.") and checks the new one against the policy;
// - ForgotPassword keeps quiet about unknown emails when the client prevents user-existence errors, refuses
//   users who never chose a password or are disabled, and masks the destination;
// - ConfirmForgotPassword needs the code that was sent, within the hour Cognito keeps it (cognito-local
//   accepted a missing code for a user with no pending one, and kept codes forever), and a new password that
//   follows the policy;
// - GlobalSignOut and AdminUserGlobalSignOut (missing in cognito-local) revoke every refresh token and every
//   access token issued so far; AdminDisableUser does the same, as Cognito does;
// - AssociateSoftwareToken disassociates the current authenticator at once, as Cognito does: until the new one
//   is verified the user signs in without TOTP (cognito-local kept TOTP on with an unverified key, which
//   refused every code and locked the user out);
// - AdminCreateUser without a temporary password makes one that follows the policy (cognito-local's has 6
//   characters) and checks a given one; AdminSetUserPassword checks the policy.
import { temporaryPassword } from '../users';
import { verifyAccessToken } from './access-tokens';
import type { SigningKey } from './keys';
import { assertConforms } from './password-policy';
import { passwordMatches } from './passwords';
import type { CognitoErrors, Route, StoredUser, UserPool, UserPools } from './types';

/** "a***@e***.com", as Cognito shows where a code went. */
/** How long a password reset code stays valid. */
export const RESET_CODE_MS = 60 * 60 * 1000;

export function maskEmail(email: string): string {
  const [local, domain = ''] = email.split('@');
  const dot = domain.lastIndexOf('.');
  const tld = dot >= 0 ? domain.slice(dot) : '';
  return `${local.charAt(0)}***@${domain.charAt(0)}***${tld}`;
}

function emailOf(user: StoredUser): string {
  return user.Attributes?.find((attribute) => attribute.Name === 'email')?.Value ?? user.Username;
}

export class AccountFlows {
  constructor(
    private readonly pools: UserPools,
    private readonly errors: CognitoErrors,
    private readonly key: SigningKey,
    private readonly now: () => number = Date.now,
  ) {}

  changePassword(route: Route): Route {
    return async (ctx, req) => {
      const { pool, user } = await this.verifiedAccess(ctx, req.AccessToken);
      if (!(await passwordMatches(req.PreviousPassword, user.Password))) {
        throw new this.errors.NotAuthorizedError('Incorrect username or password.');
      }
      assertConforms(this.errors, req.ProposedPassword, pool.options.Policies?.PasswordPolicy);
      return route(ctx, { ...req, PreviousPassword: user.Password });
    };
  }

  /** Calls that only need a valid, unrevoked access token before cognito-local answers them. */
  withAccessToken(route: Route): Route {
    return async (ctx, req) => {
      await this.verifiedAccess(ctx, req.AccessToken);
      return route(ctx, req);
    };
  }

  associateSoftwareToken(route: Route): Route {
    return async (ctx, req) => {
      const { pool, user } = await this.verifiedAccess(ctx, req.AccessToken);
      const result = await route(ctx, req);
      const current = (await pool.getUserByUsername(ctx, user.Username)) ?? user;
      const methods = (current.UserMFASettingList ?? []).filter((method) => method !== 'SOFTWARE_TOKEN_MFA');
      const preferred = current.PreferredMfaSetting === 'SOFTWARE_TOKEN_MFA' ? undefined : current.PreferredMfaSetting;
      await pool.saveUser(ctx, { ...current, UserMFASettingList: methods, PreferredMfaSetting: preferred });
      return result;
    };
  }

  forgotPassword(route: Route): Route {
    return async (ctx, req) => {
      const clientId = String(req.ClientId ?? '');
      const pool = await this.pools.getUserPoolForClientId(ctx, clientId);
      const user = await pool.getUserByUsername(ctx, String(req.Username ?? ''));
      if (!user) {
        const client = await this.pools.getAppClient(ctx, clientId);
        if (client?.PreventUserExistenceErrors !== 'ENABLED')
          throw new this.errors.UserNotFoundError('Username/client id combination not found.');
        return {
          CodeDeliveryDetails: { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: maskEmail(String(req.Username)) },
        };
      }
      if (user.Enabled === false) throw new this.errors.NotAuthorizedError('User is disabled.');
      if (user.UserStatus === 'FORCE_CHANGE_PASSWORD') {
        throw new this.errors.NotAuthorizedError('User password cannot be reset in the current state.');
      }
      await route(ctx, req);
      const sent = await pool.getUserByUsername(ctx, user.Username);
      if (sent) await pool.saveUser(ctx, { ...sent, ConfirmationCodeSentAt: this.now() });
      return { CodeDeliveryDetails: { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: maskEmail(emailOf(user)) } };
    };
  }

  confirmForgotPassword(route: Route): Route {
    return async (ctx, req) => {
      const pool = await this.pools.getUserPoolForClientId(ctx, String(req.ClientId ?? ''));
      const user = await pool.getUserByUsername(ctx, String(req.Username ?? ''));
      const code = req.ConfirmationCode;
      if (!user || typeof code !== 'string' || code === '' || typeof user.ConfirmationCode !== 'string') {
        throw new this.errors.CodeMismatchError();
      }
      if (user.ConfirmationCode !== code) throw new this.errors.CodeMismatchError();
      const sentAt = user.ConfirmationCodeSentAt;
      if (typeof sentAt === 'number' && this.now() - sentAt > RESET_CODE_MS) {
        throw new this.errors.CognitoError('ExpiredCodeException', 'Invalid code provided, please request a code again.');
      }
      assertConforms(this.errors, req.Password, pool.options.Policies?.PasswordPolicy);
      return route(ctx, req);
    };
  }

  globalSignOut(): Route {
    return async (ctx, req) => {
      const { pool, user } = await this.verifiedAccess(ctx, req.AccessToken);
      await this.signOutEverywhere(ctx, pool, user);
      return {};
    };
  }

  adminUserGlobalSignOut(): Route {
    return async (ctx, req) => {
      const { pool, user } = await this.adminTarget(ctx, req);
      await this.signOutEverywhere(ctx, pool, user);
      return {};
    };
  }

  adminDisableUser(route: Route): Route {
    return async (ctx, req) => {
      const result = await route(ctx, req);
      const { pool, user } = await this.adminTarget(ctx, req);
      await this.signOutEverywhere(ctx, pool, user);
      return result;
    };
  }

  adminCreateUser(route: Route): Route {
    return async (ctx, req) => {
      const pool = await this.pools.getUserPool(ctx, String(req.UserPoolId ?? ''));
      const policy = pool.options.Policies?.PasswordPolicy;
      if (req.TemporaryPassword !== undefined) assertConforms(this.errors, req.TemporaryPassword, policy);
      const TemporaryPassword = req.TemporaryPassword ?? temporaryPassword(policy?.MinimumLength ?? 8);
      return route(ctx, { ...req, TemporaryPassword });
    };
  }

  adminSetUserPassword(route: Route): Route {
    return async (ctx, req) => {
      const pool = await this.pools.getUserPool(ctx, String(req.UserPoolId ?? ''));
      assertConforms(this.errors, req.Password, pool.options.Policies?.PasswordPolicy);
      return route(ctx, req);
    };
  }

  private verifiedAccess(ctx: unknown, token: unknown) {
    return verifyAccessToken(ctx, token, this.pools, this.errors, this.key);
  }

  private async adminTarget(ctx: unknown, req: Record<string, unknown>): Promise<{ pool: UserPool; user: StoredUser }> {
    const pool = await this.pools.getUserPool(ctx, String(req.UserPoolId ?? ''));
    const user = await pool.getUserByUsername(ctx, String(req.Username ?? ''));
    if (!user) throw new this.errors.UserNotFoundError('User does not exist.');
    return { pool, user };
  }

  private async signOutEverywhere(ctx: unknown, pool: UserPool, user: StoredUser): Promise<void> {
    await pool.saveUser(ctx, { ...user, RefreshTokens: [], SignedOutAt: Math.floor(this.now() / 1000) });
  }
}
