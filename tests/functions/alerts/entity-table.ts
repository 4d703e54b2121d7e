// A throwaway entity table on dynalite for repository tests: same keys and indexes as the deployed one
// (the generic gsi1..gsi3 and the alert indexes of functions/lib/alerts/indexes.ts).
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ALERT_INDEXES, indexPk, indexSk, projectedBy, type AlertIndex } from '../../../functions/lib/alerts/indexes';
import { startDynamo, type DynamoService } from '../../../local/services/dynamodb';
import { localClientConfig, LOCAL_ACCESS_KEY } from '../../../local/services/net';

/** `alertIndexes`: the alert indexes the table has (all; fewer for a table still gaining them). */
export async function startEntityTable(
  name = 'entities',
  alertIndexes: readonly AlertIndex[] = ALERT_INDEXES,
): Promise<DynamoService> {
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
  const generic = ['gsi1', 'gsi2', 'gsi3'];
  const keys = [
    'pk',
    'sk',
    ...generic.flatMap((i) => [`${i}pk`, `${i}sk`]),
    ...alertIndexes.flatMap((i) => [indexPk(i), indexSk(i)]),
  ];
  await client.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      AttributeDefinitions: keys.map((AttributeName) => ({ AttributeName, AttributeType: S })),
      GlobalSecondaryIndexes: [
        ...generic.map((IndexName) => ({
          IndexName,
          KeySchema: [
            { AttributeName: `${IndexName}pk`, KeyType: 'HASH' as const },
            { AttributeName: `${IndexName}sk`, KeyType: 'RANGE' as const },
          ],
          Projection: { ProjectionType: 'ALL' as const },
        })),
        ...alertIndexes.map((IndexName) => ({
          IndexName,
          KeySchema: [
            { AttributeName: indexPk(IndexName), KeyType: 'HASH' as const },
            { AttributeName: indexSk(IndexName), KeyType: 'RANGE' as const },
          ],
          Projection: { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: projectedBy(IndexName) },
        })),
      ],
    }),
  );
  client.destroy();
  return service;
}
