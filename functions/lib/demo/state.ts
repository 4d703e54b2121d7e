// What the demo has done, in the entity table (ENTITY_TABLE):
//   pk = DEMO#STATE  sk = STATE  { s3SourceId, httpSourceId, detectionsLoadedAt? }
// The item is claimed before the demo sources are created, so two concurrent first runs do not both create them.
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../clients';
import { ENV, requireEnv } from '../env';

export interface DemoState {
  readonly s3SourceId: string;
  readonly httpSourceId: string;
  readonly detectionsLoadedAt?: string;
}

const table = () => requireEnv(ENV.entityTable);
const STATE_KEY = { pk: 'DEMO#STATE', sk: 'STATE' };

/** The state item as stored, or null before the first run. */
export async function demoState(): Promise<DemoState | null> {
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: STATE_KEY, ConsistentRead: true }));
  return (out.Item as DemoState | undefined) ?? null;
}

/** Names new demo sources: only over no state (`previous` null), or over the state the caller read. */
export async function claimDemoSources(next: DemoState, previous: DemoState | null): Promise<void> {
  await dynamo().send(
    new PutCommand({
      TableName: table(),
      Item: { ...STATE_KEY, ...next },
      ...(previous
        ? { ConditionExpression: 's3SourceId = :s3', ExpressionAttributeValues: { ':s3': previous.s3SourceId } }
        : { ConditionExpression: 'attribute_not_exists(pk)' }),
    }),
  );
}

/** Drops the Bearer token an earlier version kept in the state item. */
export async function forgetHttpToken(): Promise<void> {
  await dynamo().send(new UpdateCommand({ TableName: table(), Key: STATE_KEY, UpdateExpression: 'REMOVE httpToken' }));
}

export async function markDetectionsLoaded(at: Date): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: STATE_KEY,
      UpdateExpression: 'SET detectionsLoadedAt = :at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': at.toISOString() },
    }),
  );
}
