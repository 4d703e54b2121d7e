// System alerts about a log source's data (SOURCE_CLASSIFICATION_FAILURES, SOURCE_LOG_PROCESSING_ERRORS),
// raised at most once per source, kind and hour however many objects fail, through functions/lib/alerts.
//
// Key: pk = CLASSFAIL#<sourceId>  sk = ALERTED#<kind>#<yyyy-mm-ddThh>  { expiresAt }   (the hour's gate)
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { createSystemAlert } from '../alerts';
import { dynamo } from '../clients';
import { writeIf } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';
import { failuresPartition } from './classification-failures';

export type SourceDataAlertKind = 'SOURCE_CLASSIFICATION_FAILURES' | 'SOURCE_LOG_PROCESSING_ERRORS';

const TITLES: Record<SourceDataAlertKind, (label: string) => string> = {
  SOURCE_CLASSIFICATION_FAILURES: (label) => `Log source ${label} has events that failed classification`,
  SOURCE_LOG_PROCESSING_ERRORS: (label) => `Log source ${label} has data that could not be processed`,
};

/** Takes this hour's gate for a source and kind; false when it was taken already. */
async function firstThisHour(sourceId: string, kind: SourceDataAlertKind, now: Date): Promise<boolean> {
  return writeIf(() =>
    dynamo().send(
      new PutCommand({
        TableName: requireEnv(ENV.entityTable),
        Item: {
          pk: failuresPartition(sourceId),
          sk: `ALERTED#${kind}#${now.toISOString().slice(0, 13)}`,
          expiresAt: Math.floor(now.getTime() / 1000) + 2 * 3600,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

export async function raiseSourceDataAlert(
  source: { id: string; label: string },
  kind: SourceDataAlertKind,
  description: string,
  now = new Date(),
): Promise<boolean> {
  if (!(await firstThisHour(source.id, kind, now))) return false;
  await createSystemAlert(
    {
      kind,
      title: TITLES[kind](source.label),
      description,
      severity: kind === 'SOURCE_LOG_PROCESSING_ERRORS' ? 'HIGH' : 'MEDIUM',
      sourceId: source.id,
      dedupKey: `${kind}:${source.id}`,
    },
    { now },
  );
  return true;
}
