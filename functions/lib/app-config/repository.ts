// The deployment's first use, in the settings table (SETTINGS_TABLE):
//   pk = deployment  sk = deployment  { created }
// Written once, with a conditional put, by the first request that asks; read ever after.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../clients';
import { ENV, requireEnv } from '../env';

const KEY = { pk: 'deployment', sk: 'deployment' };

/** When this deployment was first used. */
export async function deploymentCreated(): Promise<string> {
  const TableName = requireEnv(ENV.settingsTable);
  const existing = await dynamo().send(new GetCommand({ TableName, Key: KEY, ConsistentRead: true }));
  if (existing.Item?.created) return existing.Item.created as string;
  const created = new Date().toISOString();
  try {
    await dynamo().send(
      new PutCommand({ TableName, Item: { ...KEY, created }, ConditionExpression: 'attribute_not_exists(pk)' }),
    );
    return created;
  } catch (err) {
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
    const again = await dynamo().send(new GetCommand({ TableName, Key: KEY, ConsistentRead: true }));
    return again.Item?.created as string;
  }
}
