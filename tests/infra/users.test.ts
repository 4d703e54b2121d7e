// The api function may manage the user pool's people (users and roles area), and nothing beyond that pool.
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { actionsOf, functionDescribed, statementsOf, synthesizedStack, variables } from './support';

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

let template: Template;

beforeAll(() => ({ template } = synthesizedStack()));

const apiFunction = () => functionDescribed(template, 'Resolves every GraphQL operation (Direct Lambda resolver).');

describe('users and roles', () => {
  it('lets the api function manage users of the user pool only', () => {
    const userPoolIds = Object.keys(template.findResources('AWS::Cognito::UserPool'));
    expect(userPoolIds).toHaveLength(1);
    const cognitoStatements = statementsOf(template, apiFunction()[0]).filter((s) =>
      [s.Action].flat().some((action) => action.startsWith('cognito-idp:')),
    );
    const granted = actionsOf(cognitoStatements);
    for (const action of USER_ACTIONS) expect(granted).toContain(action);
    // Membership of the Admin group vouches for the first administrator's bootstrap: the API never grants it.
    expect(granted).not.toContain('cognito-idp:AdminAddUserToGroup');
    for (const statement of cognitoStatements) {
      expect(statement.Resource).toEqual({ 'Fn::GetAtt': [userPoolIds[0], 'Arn'] });
    }
  });

  it('gives the api function the user pool and the entity table the guard and repositories read', () => {
    const env = variables(apiFunction()[1]);
    expect(env.USER_POOL_ID).toBeDefined();
    expect(env.ENTITY_TABLE).toBeDefined();
  });
});
