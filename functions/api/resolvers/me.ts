import { AdminGetUserCommand, AdminListGroupsForUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { cognito } from '../../lib/clients';
import { requireEnv } from '../../lib/env';
import { ApiError } from '../../lib/errors';
import type { AppSyncResolverEvent } from '../../lib/appsync';
import type { User } from '../../lib/graphql-types';

/** The signed-in user, read fresh from the user pool (attributes and groups change without a new sign-in). */
export async function me(event: AppSyncResolverEvent): Promise<User> {
  if (!event.identity) throw new ApiError('Unauthorized', 'You are not authorized to perform this request');
  const UserPoolId = requireEnv('USER_POOL_ID');
  const Username = event.identity.username;
  const user = await cognito().send(new AdminGetUserCommand({ UserPoolId, Username }));
  const groups = await cognito().send(new AdminListGroupsForUserCommand({ UserPoolId, Username }));
  const attr = (name: string) => user.UserAttributes?.find((a) => a.Name === name)?.Value ?? null;
  return {
    id: attr('sub') ?? event.identity.sub,
    email: attr('email') ?? '',
    givenName: attr('given_name'),
    familyName: attr('family_name'),
    roles: (groups.Groups ?? []).map((g) => g.GroupName ?? '').filter(Boolean),
    createdAt: user.UserCreateDate ? user.UserCreateDate.toISOString() : null,
  };
}
