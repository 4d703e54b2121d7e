// Lets a test call functions/lib code as the api function would: with the api function's environment
// (tables, user pool, endpoints of the local runtime's stand-ins).
import { CognitoIdentityProviderClient, AdminCreateUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { saveUser } from '../../../functions/lib/users/records';
import { createRole, listRoles } from '../../../functions/lib/users/roles';
import { localClientConfig } from '../../../local/services/net';
import { signIn, type TestRuntime } from '../../local/harness';

export function useApiFunctionEnvironment(runtime: TestRuntime): Record<string, string> {
  const api = [...runtime.functions.values()].find((f) => f.spec.logicalId.startsWith('ApiApiFunction'));
  if (!api) throw new Error('the template has no api function');
  Object.assign(process.env, api.spec.environment);
  return api.spec.environment;
}

const SIGNED_IN_ONLY = 'Signed In Only';

/**
 * Creates a user in the user pool with a user record holding a role without permissions (the API serves only
 * users with a record), signs them in (setting their password) and answers their id and token. Needs
 * useApiFunctionEnvironment first.
 */
export async function createSignedInUser(runtime: TestRuntime, email: string, password = 'Another-Secret-77') {
  const client = new CognitoIdentityProviderClient(localClientConfig(runtime.endpoints.cognito, runtime.stack.region));
  await client.send(
    new AdminCreateUserCommand({
      UserPoolId: runtime.webConfig!.userPoolId,
      Username: email,
      TemporaryPassword: 'Temporary-Pass-123',
      MessageAction: 'SUPPRESS',
      UserAttributes: [{ Name: 'email', Value: email }],
    }),
  );
  client.destroy();
  const { idToken } = await signIn(runtime, email, 'Temporary-Pass-123', password);
  const { sub: id } = JSON.parse(Buffer.from(idToken.split('.')[1], 'base64url').toString()) as { sub: string };
  const role = (await listRoles()).find((r) => r.name === SIGNED_IN_ONLY) ?? (await createRole(SIGNED_IN_ONLY, []));
  await saveUser(null, { id, roleId: role.id, enabled: true, email, givenName: null, familyName: null });
  return { id, token: idToken };
}
