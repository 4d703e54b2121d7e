import { AdminGetUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import type { AppSyncResolverEvent } from '../../lib/appsync';
import type { Caller } from '../../lib/auth/caller';
import { cognito } from '../../lib/clients';
import { ENV, requireEnv } from '../../lib/env';
import type { User } from '../../lib/graphql-types';

/** The signed-in user, read fresh from the user pool, with the role and permissions the guard resolved. */
export async function me(event: AppSyncResolverEvent, caller: Caller): Promise<User> {
  const user = await cognito().send(
    new AdminGetUserCommand({ UserPoolId: requireEnv(ENV.userPoolId), Username: caller.username }),
  );
  const attr = (name: string) => user.UserAttributes?.find((a) => a.Name === name)?.Value ?? null;
  const email = attr('email') ?? caller.email;
  const givenName = attr('given_name');
  const familyName = attr('family_name');
  return {
    id: caller.id,
    email,
    givenName,
    familyName,
    name: [givenName, familyName].filter(Boolean).join(' ') || email,
    enabled: user.Enabled !== false,
    status: user.UserStatus ?? 'UNKNOWN',
    role: caller.role ? { ...caller.role, permissions: [...caller.permissions] } : null,
    createdAt: user.UserCreateDate ? user.UserCreateDate.toISOString() : null,
    lastLoggedInAt: null,
  };
}
