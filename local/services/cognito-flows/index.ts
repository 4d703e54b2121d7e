// Caracal's extensions of cognito-local: the calls it lacks or answers differently from Cognito, wrapped
// around its router target by target (see each module for what differs and why).
import { AccountFlows } from './account';
import type { SigningKey } from './keys';
import { revokeByDigest } from './refresh-tokens';
import { SignInFlows } from './sign-in';
import type { CognitoErrors, Route, Router, UserPools } from './types';

export type { Router } from './types';

/** Calls cognito-local answers after decoding (not verifying) the access token. */
const ACCESS_TOKEN_CALLS = [
  'GetUser',
  'VerifySoftwareToken',
  'SetUserMFAPreference',
  'UpdateUserAttributes',
  'DeleteUserAttributes',
  'DeleteUser',
  'GetUserAttributeVerificationCode',
  'VerifyUserAttribute',
];

export function extendRouter(
  base: Router,
  pools: UserPools,
  errors: CognitoErrors,
  key: SigningKey,
  now: () => number = Date.now,
): Router {
  const signIn = new SignInFlows(pools, errors, key, now);
  const account = new AccountFlows(pools, errors, key, now);
  const wrappers: Record<string, (route: Route) => Route> = {
    InitiateAuth: (route) => signIn.initiateAuth(route),
    AdminInitiateAuth: (route) => signIn.initiateAuth(route),
    RespondToAuthChallenge: (route) => signIn.respondToAuthChallenge(route),
    GetTokensFromRefreshToken: () => signIn.getTokensFromRefreshToken(signIn.initiateAuth(base('InitiateAuth'))),
    RevokeToken: (route) => revokeByDigest(route),
    ChangePassword: (route) => account.changePassword(route),
    AssociateSoftwareToken: (route) => account.associateSoftwareToken(route),
    ForgotPassword: (route) => account.forgotPassword(route),
    ConfirmForgotPassword: (route) => account.confirmForgotPassword(route),
    GlobalSignOut: () => account.globalSignOut(),
    AdminUserGlobalSignOut: () => account.adminUserGlobalSignOut(),
    AdminDisableUser: (route) => account.adminDisableUser(route),
    AdminCreateUser: (route) => account.adminCreateUser(route),
    AdminSetUserPassword: (route) => account.adminSetUserPassword(route),
    ...Object.fromEntries(ACCESS_TOKEN_CALLS.map((call) => [call, (route: Route) => account.withAccessToken(route)])),
  };
  return (target) => {
    const wrap = wrappers[target];
    return wrap ? wrap(base(target)) : base(target);
  };
}
