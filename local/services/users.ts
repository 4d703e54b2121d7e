// Users the template declares (AWS::Cognito::UserPoolUser): created once with a temporary password, which
// the runtime prints, as Cognito would email it; group memberships from UserPoolUserToGroupAttachment.
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminGetUserCommand,
  CognitoIdentityProviderClient,
  DescribeUserPoolCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { randomInt } from 'node:crypto';
import { localClientConfig } from './net';
import { resourcesOfType, type Resolver, type StackTemplate } from '../template';

export interface CreatedUser {
  readonly username: string;
  readonly temporaryPassword: string;
}

const SETS = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '!#%+-=?@^_'];

/** A password meeting the pool's policy: every character class, at least `length` long. */
export function temporaryPassword(length: number): string {
  const all = SETS.join('');
  const chars = SETS.map((set) => set[randomInt(set.length)]);
  while (chars.length < Math.max(length, 16)) chars.push(all[randomInt(all.length)]);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}

export async function provisionUsers(stack: StackTemplate, resolver: Resolver, endpoint: string): Promise<CreatedUser[]> {
  const client = new CognitoIdentityProviderClient(localClientConfig(endpoint, stack.region));
  const created: CreatedUser[] = [];
  for (const [, r] of resourcesOfType(stack, 'AWS::Cognito::UserPoolUser')) {
    const props = resolver.resolve(r.Properties ?? {}) as Record<string, unknown>;
    const UserPoolId = props.UserPoolId as string;
    const Username = props.Username as string;
    const exists = await client.send(new AdminGetUserCommand({ UserPoolId, Username })).then(
      () => true,
      (err: Error) => {
        if (err.name === 'UserNotFoundException') return false;
        throw err;
      },
    );
    if (exists) continue;
    const pool = await client.send(new DescribeUserPoolCommand({ UserPoolId }));
    const minLength = pool.UserPool?.Policies?.PasswordPolicy?.MinimumLength ?? 12;
    const TemporaryPassword = temporaryPassword(minLength);
    await client.send(
      new AdminCreateUserCommand({
        UserPoolId,
        Username,
        TemporaryPassword,
        MessageAction: 'SUPPRESS',
        UserAttributes: props.UserAttributes as Array<{ Name: string; Value: string }> | undefined,
      }),
    );
    created.push({ username: Username, temporaryPassword: TemporaryPassword });
  }
  for (const [, r] of resourcesOfType(stack, 'AWS::Cognito::UserPoolUserToGroupAttachment')) {
    const props = resolver.resolve(r.Properties ?? {}) as Record<string, string>;
    await client.send(
      new AdminAddUserToGroupCommand({ UserPoolId: props.UserPoolId, Username: props.Username, GroupName: props.GroupName }),
    );
  }
  client.destroy();
  return created;
}
