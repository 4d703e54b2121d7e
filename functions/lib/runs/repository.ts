// Correlation match keys in the entity table: a key is written once (attribute_not_exists), so overlapping
// lookback windows of later runs never raise the same match twice. (The scheduled detections' next-run index is
// the detections area's, functions/lib/detections run-index.ts.)
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../clients';
import { writeIf } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';

const table = () => requireEnv(ENV.entityTable);

/** Records a correlation match key once: true when it is new (raise the alert), false when an earlier run raised it. */
export async function recordMatchKey(detectionId: string, key: string, expiresAt: number): Promise<boolean> {
  return writeIf(() =>
    dynamo().send(
      new PutCommand({
        TableName: table(),
        Item: { pk: `RUNMATCH#${detectionId}`, sk: key, expiresAt: Math.floor(expiresAt / 1000) },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}
