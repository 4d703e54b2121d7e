// The server enforces the permission map for every operation of the API: for each root field of
// graphql/*.graphql, a user whose role lacks the required permission is refused by the server, and a user
// whose role holds it is not. The role is changed between requests without signing in again, so this also
// proves that permission changes take effect on the next request.
import {
  AdminCreateUserCommand,
  AdminGetUserCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_ACCESS, PERMISSIONS, pairedModify, type OperationAccess, type Permission } from '../../core/permissions';
import { localClientConfig } from '../../local/services/net';
import { graphql, signIn, startTestRuntime, type TestRuntime } from '../local/harness';
import { apiOperations } from './operations';

const EMAIL = 'authorization-check@caracal.local';
const PASSWORD = 'Authorization-Check-42!';
const ROLE_ID = 'authorization-check';

let runtime: TestRuntime;
let token: string;
let setAccess: (permissions: readonly Permission[], enabled?: boolean) => Promise<void>;

beforeAll(async () => {
  runtime = await startTestRuntime();
  const region = runtime.stack.region;
  const UserPoolId = runtime.webConfig!.userPoolId;
  const cognito = new CognitoIdentityProviderClient(localClientConfig(runtime.endpoints.cognito, region));
  await cognito.send(
    new AdminCreateUserCommand({
      UserPoolId,
      Username: EMAIL,
      TemporaryPassword: 'Temporary-Password-42!',
      MessageAction: 'SUPPRESS',
      UserAttributes: [{ Name: 'email', Value: EMAIL }],
    }),
  );
  const user = await cognito.send(new AdminGetUserCommand({ UserPoolId, Username: EMAIL }));
  const sub = user.UserAttributes!.find((a) => a.Name === 'sub')!.Value!;
  ({ idToken: token } = await signIn(runtime, EMAIL, 'Temporary-Password-42!', PASSWORD));

  const db = DynamoDBDocumentClient.from(new DynamoDBClient(localClientConfig(runtime.endpoints.dynamodb, region)));
  const tables = await db.send(new ListTablesCommand({}));
  const TableName = tables.TableNames!.find((name) => name.includes('EntityTable'))!;
  setAccess = async (permissions, enabled = true) => {
    await db.send(new PutCommand({ TableName, Item: { pk: `ROLE#${ROLE_ID}`, sk: 'ROLE', name: 'Check', permissions } }));
    await db.send(new PutCommand({ TableName, Item: { pk: `USER#${sub}`, sk: 'USER', roleId: ROLE_ID, enabled, email: EMAIL } }));
  };
}, 120_000);
afterAll(() => runtime?.stop());

/** Every permission except those that would satisfy the requirement (a Modify satisfies its Read). */
function lacking(required: readonly Permission[]): Permission[] {
  const excluded = new Set(required.flatMap((p) => [p, pairedModify(p)].filter((x): x is Permission => !!x)));
  return PERMISSIONS.filter((p) => !excluded.has(p));
}

function cases(access: OperationAccess): { lacks: readonly Permission[] | 'deactivated'; holds: readonly Permission[] } {
  if ('signedIn' in access) return { lacks: 'deactivated', holds: [] };
  if ('anyOf' in access) return { lacks: lacking(access.anyOf), holds: [access.anyOf[0]] };
  return { lacks: lacking([access.allOf[0]]), holds: access.allOf };
}

function errorTypes(body: { errors?: Array<Record<string, unknown>> }): unknown[] {
  return (body.errors ?? []).map((e) => e.errorType);
}

describe('the server enforces every operation', () => {
  it.each(apiOperations().map((op) => [`${op.typeName}.${op.fieldName}`, op]))(
    '%s',
    async (key, op) => {
      const access = OPERATION_ACCESS[key];
      expect(access, `add '${key}' to core/permissions/operations.ts`).toBeDefined();
      const { lacks, holds } = cases(access);

      if (lacks === 'deactivated') await setAccess(PERMISSIONS, false);
      else await setAccess(lacks);
      const refused = await graphql(runtime, op.request, token);
      // A deactivated user's session is refused as a whole (the client signs them out), the rest per operation.
      const refusal = lacks === 'deactivated' ? 'UnauthorizedException' : 'Unauthorized';
      expect(errorTypes(refused.body), JSON.stringify(refused.body)).toContain(refusal);
      expect(refused.body.data?.[op.fieldName] ?? null).toBeNull();

      await setAccess(holds);
      const allowed = await graphql(runtime, op.request, token);
      expect(errorTypes(allowed.body), JSON.stringify(allowed.body)).not.toContain('Unauthorized');
    },
    60_000,
  );
});

describe('running code needs the Modify permission', () => {
  const TEST_SCHEMA = `query($input: TestSchemaInput!) { testSchema(input: $input) { events { event } failures { message } } }`;
  const script = `parser:
  script:
    function: |
      def parse(log):
          return {'user': log}
fields:
  - name: user
    type: string
`;
  const request = { query: TEST_SCHEMA, variables: { input: { spec: script, samples: 'alice', streamType: 'Lines' } } };

  it('refuses a schema test with a script parser to a role that only reads log sources', async () => {
    await setAccess(['LogSourceRead']);
    const refused = await graphql(runtime, request, token);
    expect(refused.body.errors?.[0]).toMatchObject({ errorType: 'Unauthorized' });
    expect(refused.body.data?.testSchema ?? null).toBeNull();

    await setAccess(['LogSourceModify']);
    const allowed = await graphql(runtime, request, token);
    expect(errorTypes(allowed.body), JSON.stringify(allowed.body)).toEqual([]);
  }, 60_000);
});
