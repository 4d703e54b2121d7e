import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../lib/clients';
import { ENV, requireEnv } from '../../lib/env';
import type { AppConfig } from '../../lib/graphql-types';
import { mfaRequired } from '../../lib/settings/general';

const KEY = { pk: 'deployment', sk: 'deployment' };

/** When this deployment was first used: written once with a conditional put, read ever after. */
async function deploymentCreated(): Promise<string> {
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

export async function appConfig(): Promise<AppConfig> {
  return {
    accountId: requireEnv(ENV.accountId),
    awsPartition: requireEnv(ENV.awsPartition),
    region: requireEnv(ENV.awsRegion),
    stage: requireEnv(ENV.stage),
    version: requireEnv(ENV.version),
    created: await deploymentCreated(),
    passwordMinLength: Number(requireEnv(ENV.passwordMinLength)),
    mfaMode: requireEnv(ENV.mfaMode),
    mfaRequired: await mfaRequired(),
  };
}
