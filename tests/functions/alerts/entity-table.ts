// A throwaway entity table on dynalite for repository tests: same keys and indexes as the deployed one.
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { startDynamo, type DynamoService } from '../../../local/services/dynamodb';
import { localClientConfig, LOCAL_ACCESS_KEY } from '../../../local/services/net';

export async function startEntityTable(name = 'entities'): Promise<DynamoService> {
  const service = await startDynamo(undefined);
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_DYNAMODB: service.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: LOCAL_ACCESS_KEY,
    AWS_SECRET_ACCESS_KEY: LOCAL_ACCESS_KEY,
    ENTITY_TABLE: name,
  });
  const client = new DynamoDBClient(localClientConfig(service.endpoint, 'us-east-1'));
  const S = 'S' as const;
  await client.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      AttributeDefinitions: ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk'].map((AttributeName) => ({
        AttributeName,
        AttributeType: S,
      })),
      GlobalSecondaryIndexes: ['gsi1', 'gsi2', 'gsi3'].map((IndexName) => ({
        IndexName,
        KeySchema: [
          { AttributeName: `${IndexName}pk`, KeyType: 'HASH' },
          { AttributeName: `${IndexName}sk`, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
  );
  client.destroy();
  return service;
}
