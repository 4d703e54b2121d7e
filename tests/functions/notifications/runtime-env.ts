// Lets a test call functions/lib code as the api function would: with the api function's environment
// (tables, user pool, endpoints of the local runtime's stand-ins).
import { CognitoIdentityProviderClient, AdminCreateUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { localClientConfig } from '../../../local/services/net';
import { graphql, signIn, type TestRuntime } from '../../local/harness';

export function useApiFunctionEnvironment(runtime: TestRuntime): Record<string, string> {
  const api = [...runtime.functions.values()].find((f) => f.spec.logicalId.startsWith('ApiApiFunction'));
  if (!api) throw new Error('the template has no api function');
  Object.assign(process.env, api.spec.environment);
  return api.spec.environment;
}

/** Creates a user in the user pool, signs them in (setting their password) and answers their id and token. */
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
  const me = await graphql(runtime, { query: '{ me { id } }' }, idToken);
  return { id: (me.body.data!.me as { id: string }).id, token: idToken };
}
