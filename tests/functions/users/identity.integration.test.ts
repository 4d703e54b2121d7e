// Who the API serves: users with a user record. The token's Admin group counts once, for the deployment's
// first administrator's first requests; a deleted user's still-valid token and any other record-less
// account are refused.
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localClientConfig } from '../../../local/services/net';
import { signIn, startTestRuntime, type TestRuntime } from '../../local/harness';
import { ADMIN_PASSWORD, INVITE, api, inviteAndSignIn, ok, refused } from './support';

let runtime: TestRuntime;
let adminToken: string;

const ACCOUNT_GONE = { errorType: 'Unauthorized', message: 'Your account no longer exists. Ask an administrator to invite you.' };
const invite = (email: string, roleId = 'Admin') => ({
  input: { email, givenName: 'New', familyName: 'Admin', role: { kind: 'Id', value: roleId } },
});

beforeAll(async () => {
  runtime = await startTestRuntime();
  const [admin] = runtime.createdUsers;
  ({ idToken: adminToken } = await signIn(runtime, admin.username, admin.temporaryPassword, ADMIN_PASSWORD));
});
afterAll(() => runtime?.stop());

describe("the deployment's first administrator", () => {
  it('is an Admin from the first requests, even when they arrive together', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => api(runtime, adminToken, '{ me { id role { id } } }')));
    for (const answer of answers) expect(answer).toMatchObject({ errors: [], data: { me: { role: { id: 'Admin' } } } });
    const { id } = answers[0].data!.me as { id: string };
    const record = (await ok(runtime, adminToken, 'query U($id: ID!) { userById(id: $id) { email role { id } } }', { id }))
      .userById;
    expect(record).toEqual({ email: 'admin@caracal.local', role: { id: 'Admin' } });
    const roles = (await ok(runtime, adminToken, '{ roles { id userCount } }')).roles;
    expect(roles[0]).toEqual({ id: 'Admin', userCount: 1 });
  });
});

describe('a user without a user record', () => {
  it('is refused when deleted, though their Admin token is still valid', async () => {
    const deleted = await inviteAndSignIn(runtime, adminToken, 'deleted-admin@example.com', 'Admin');
    expect((await ok(runtime, deleted.token, '{ me { role { id } } }')).me.role.id).toBe('Admin');
    await ok(runtime, adminToken, 'mutation D($id: ID!) { deleteUser(id: $id) }', { id: deleted.id });

    expect(await refused(runtime, deleted.token, INVITE, invite('new-admin@example.com'))).toEqual(ACCOUNT_GONE);
    expect(await refused(runtime, deleted.token, '{ me { id } }')).toEqual(ACCOUNT_GONE);
    const emails = (await ok(runtime, adminToken, '{ users { edges { node { email } } } }')).users.edges.map(
      (e: { node: { email: string } }) => e.node.email,
    );
    expect(emails).not.toContain('new-admin@example.com');
  });

  it('is refused though the user pool puts them in the Admin group', async () => {
    const region = runtime.stack.region;
    const UserPoolId = runtime.webConfig!.userPoolId;
    const cognito = new CognitoIdentityProviderClient(localClientConfig(runtime.endpoints.cognito, region));
    const email = 'group-only@example.com';
    await cognito.send(
      new AdminCreateUserCommand({
        UserPoolId,
        Username: email,
        TemporaryPassword: 'Temporary-Passw0rd-1!',
        MessageAction: 'SUPPRESS',
        UserAttributes: [{ Name: 'email', Value: email }],
      }),
    );
    await cognito.send(new AdminAddUserToGroupCommand({ UserPoolId, Username: email, GroupName: 'Admin' }));
    cognito.destroy();
    const { idToken } = await signIn(runtime, email, 'Temporary-Passw0rd-1!', 'Group-Only-Passw0rd-1!');
    const claims = JSON.parse(Buffer.from(idToken.split('.')[1], 'base64url').toString());
    expect(claims['cognito:groups']).toEqual(['Admin']);

    expect(await refused(runtime, idToken, INVITE, invite('another-admin@example.com'))).toEqual(ACCOUNT_GONE);
    expect(await refused(runtime, idToken, '{ me { id } }')).toEqual(ACCOUNT_GONE);
  });
});
