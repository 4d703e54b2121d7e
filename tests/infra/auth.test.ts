// The Auth construct alone: the user pool takes its sign-in rules from its props, and the first
// administrator is created in the Admin group.
import { RemovalPolicy } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { Auth } from '../../infra/auth/auth';
import { bareStack, nagErrors } from './support';

describe('the Auth construct on a bare stack', () => {
  it('creates the user pool, its client and domain, and the first administrator, with no unsuppressed cdk-nag finding', () => {
    const { stack } = bareStack('AuthTest', { nag: true });
    new Auth(stack, 'Auth', {
      mfaMode: 'OPTIONAL',
      passwordMinLength: 10,
      refreshTokenHours: 8,
      domainPrefix: 'caracal-test',
      adminEmail: 'first@example.com',
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const template = Template.fromStack(stack);
    template.hasResource('AWS::Cognito::UserPool', {
      Properties: Match.objectLike({
        MfaConfiguration: 'OPTIONAL',
        Policies: { PasswordPolicy: Match.objectLike({ MinimumLength: 10 }) },
      }),
      DeletionPolicy: 'Delete',
    });
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', { RefreshTokenValidity: 480 });
    template.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'caracal-test' });
    template.hasResourceProperties('AWS::Cognito::UserPoolUserToGroupAttachment', {
      GroupName: Auth.ADMIN_GROUP,
      Username: 'first@example.com',
    });
    expect(nagErrors(stack)).toEqual([]);
  });
});
