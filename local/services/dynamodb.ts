// DynamoDB stand-in: dynalite on loopback, persisted under the state folder, with every table of the template.
import {
  CreateTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import { ensureTableDefinition } from './dynamodb-rebuild';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { listenPreferring, closeServer, localClientConfig } from './net';
import { physicalName, resourcesOfType, type Resolver, type StackTemplate } from '../template';

const require = createRequire(import.meta.url);
const dynalite = require('dynalite') as (options: Record<string, unknown>) => Server;

export interface DynamoService {
  readonly endpoint: string;
  stop(): Promise<void>;
}

/** `port`: the port to listen on when free (the state folder's last one), else any free port. */
export async function startDynamo(path: string | undefined, port = 0): Promise<DynamoService> {
  const server = dynalite({ path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  const endpoint = await listenPreferring(server, port);
  return { endpoint, stop: () => closeServer(server) };
}

type IndexDef = { IndexName: string; KeySchema: unknown; Projection: unknown };

/**
 * Creates every table of the template; a table the state folder already holds with other indexes than the
 * template's (dynalite cannot add an index to a table) is rebuilt with the template's definition, its items kept
 * (dynamodb-rebuild.ts). Answers the names of the tables rebuilt.
 */
export async function provisionTables(stack: StackTemplate, resolver: Resolver, endpoint: string): Promise<string[]> {
  const rebuilt: string[] = [];
  const client = new DynamoDBClient(localClientConfig(endpoint, stack.region));
  const tables = [...resourcesOfType(stack, 'AWS::DynamoDB::Table'), ...resourcesOfType(stack, 'AWS::DynamoDB::GlobalTable')];
  for (const [logicalId, resource] of tables) {
    const props = resolver.resolve(resource.Properties ?? {}) as Record<string, unknown>;
    const TableName = (props.TableName as string) ?? physicalName(stack, logicalId, 255);
    const input: CreateTableCommandInput = {
      TableName,
      KeySchema: props.KeySchema as CreateTableCommandInput['KeySchema'],
      AttributeDefinitions: props.AttributeDefinitions as CreateTableCommandInput['AttributeDefinitions'],
      BillingMode: 'PAY_PER_REQUEST',
    };
    const gsis = props.GlobalSecondaryIndexes as IndexDef[] | undefined;
    if (gsis?.length) {
      input.GlobalSecondaryIndexes = gsis.map((g) => ({
        IndexName: g.IndexName,
        KeySchema: g.KeySchema,
        Projection: g.Projection,
      })) as CreateTableCommandInput['GlobalSecondaryIndexes'];
    }
    const lsis = props.LocalSecondaryIndexes as IndexDef[] | undefined;
    if (lsis?.length) input.LocalSecondaryIndexes = lsis as CreateTableCommandInput['LocalSecondaryIndexes'];
    try {
      await client.send(new CreateTableCommand(input));
    } catch (err) {
      if (!(err instanceof ResourceInUseException)) throw err;
    }
    if (await ensureTableDefinition(client, input)) rebuilt.push(TableName);
    const arn = `arn:aws:dynamodb:${stack.region}:${stack.account}:table/${TableName}`;
    resolver.register(logicalId, { ref: TableName, attributes: { Arn: arn, StreamArn: `${arn}/stream/local` } });
  }
  client.destroy();
  return rebuilt;
}
