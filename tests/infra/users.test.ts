// The api function may manage the user pool's people (users and roles area), and nothing beyond that pool.
import { Template } from 'aws-cdk-lib/assertions';
import type { Stack } from 'aws-cdk-lib';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../bin/app';
import { LOCAL_CONFIG, type DeploymentConfig } from '../../infra/config';

const USER_ACTIONS = [
  'cognito-idp:AdminCreateUser',
  'cognito-idp:AdminUpdateUserAttributes',
  'cognito-idp:AdminDisableUser',
  'cognito-idp:AdminEnableUser',
  'cognito-idp:AdminUserGlobalSignOut',
  'cognito-idp:AdminDeleteUser',
  'cognito-idp:AdminGetUser',
  'cognito-idp:AdminListGroupsForUser',
  'cognito-idp:ListUsers',
  'cognito-idp:ListUsersInGroup',
];

const config: DeploymentConfig = {
  ...LOCAL_CONFIG,
  local: false,
  account: '123456789012',
  regions: ['eu-west-1'],
  stage: 'prod',
};
let template: Template;

beforeAll(() => {
  const app = buildApp(config, { siteAssetPath: join(import.meta.dirname, 'fixtures', 'site'), bundle: false });
  template = Template.fromStack(app.node.findChild('Caracal-prod-eu-west-1') as Stack);
});

interface Statement {
  Action: string | string[];
  Resource: unknown;
}

/** Every statement of the policies attached to the api function's role. */
function apiFunctionStatements(): Statement[] {
  const functions = template.findResources('AWS::Lambda::Function', {
    Properties: { Description: 'Resolves every GraphQL operation (Direct Lambda resolver).' },
  });
  const [apiFunction] = Object.values(functions);
  const roleId = (apiFunction.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const policies = template.findResources('AWS::IAM::Policy');
  return Object.values(policies)
    .filter((p) => (p.Properties.Roles as Array<{ Ref: string }>).some((r) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
}

describe('users and roles', () => {
  it('lets the api function manage users of the user pool only', () => {
    const userPoolIds = Object.keys(template.findResources('AWS::Cognito::UserPool'));
    expect(userPoolIds).toHaveLength(1);
    const cognitoStatements = apiFunctionStatements().filter((s) =>
      [s.Action].flat().some((action) => action.startsWith('cognito-idp:')),
    );
    const granted = cognitoStatements.flatMap((s) => [s.Action].flat());
    for (const action of USER_ACTIONS) expect(granted).toContain(action);
    // Membership of the Admin group vouches for the first administrator's bootstrap: the API never grants it.
    expect(granted).not.toContain('cognito-idp:AdminAddUserToGroup');
    for (const statement of cognitoStatements) {
      expect(statement.Resource).toEqual({ 'Fn::GetAtt': [userPoolIds[0], 'Arn'] });
    }
  });

  it('gives the api function the user pool and the entity table the guard and repositories read', () => {
    const functions = template.findResources('AWS::Lambda::Function', {
      Properties: { Description: 'Resolves every GraphQL operation (Direct Lambda resolver).' },
    });
    const env = Object.values(functions)[0].Properties.Environment.Variables;
    expect(env.USER_POOL_ID).toBeDefined();
    expect(env.ENTITY_TABLE).toBeDefined();
  });
});
