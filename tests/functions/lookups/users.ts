// Users for lookup-table tests against the entity-table stand-in: a user record naming a role of its own (the
// keys functions/lib/users reads, as the guard and a lookup refresh do), and the Caller the API would hand the
// lookups door for them.
import { randomUUID } from 'node:crypto';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Permission } from '../../../core/permissions';
import type { Caller } from '../../../functions/lib/auth';
import { localClientConfig } from '../../../local/services/net';

export interface TestUser {
  readonly caller: Caller;
  /** Gives the user's role these permissions, or enables/deactivates the user. */
  set(permissions: readonly Permission[], enabled?: boolean): Promise<void>;
  /** Deletes the user record (as deleting the user does). */
  remove(): Promise<void>;
}

function db(): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(new DynamoDBClient(localClientConfig(process.env.AWS_ENDPOINT_URL_DYNAMODB!, 'us-east-1')));
}

/** A user whose role holds `permissions` (stored in ENTITY_TABLE of the running stand-in). */
export async function testUser(email: string, permissions: readonly Permission[]): Promise<TestUser> {
  const id = randomUUID();
  const roleId = randomUUID();
  const TableName = process.env.ENTITY_TABLE!;
  let current = [...permissions];
  const set = async (next: readonly Permission[], enabled = true) => {
    current = [...next];
    const client = db();
    await client.send(
      new PutCommand({ TableName, Item: { pk: `ROLE#${roleId}`, sk: 'ROLE', name: email, permissions: current } }),
    );
    await client.send(new PutCommand({ TableName, Item: { pk: `USER#${id}`, sk: 'USER', roleId, enabled, email } }));
    client.destroy();
  };
  await set(permissions);
  return {
    get caller(): Caller {
      return { id, username: email, email, enabled: true, role: { id: roleId, name: email }, permissions: current };
    },
    set,
    remove: async () => {
      const client = db();
      await client.send(new DeleteCommand({ TableName, Key: { pk: `USER#${id}`, sk: 'USER' } }));
      client.destroy();
    },
  };
}
