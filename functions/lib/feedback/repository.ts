// Feedback in the entity table (ENTITY_TABLE):
//   pk = FEEDBACK#<id>  sk = FEEDBACK  { id, featureName, text, usefulness, locationUrl, screenWidth, userId, createdAt }
// Written once and never listed by the product (read by the team from the table), so it needs no index.
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { FeedbackInput } from '../../../core/validation/feedback';
import { dynamo } from '../clients';
import { ENV, requireEnv } from '../env';

export const feedbackKey = (id: string) => ({ pk: `FEEDBACK#${id}`, sk: 'FEEDBACK' });

export interface StoredFeedback {
  readonly id: string;
  readonly featureName: string;
  readonly text: string;
  readonly usefulness: number | null;
  readonly locationUrl: string;
  readonly screenWidth: number;
  readonly userId: string;
  readonly createdAt: string;
}

/** Stores valid feedback under a new id (a conditional write: an id is never reused). */
export async function putFeedback(input: FeedbackInput, userId: string, now = new Date()): Promise<StoredFeedback> {
  const feedback: StoredFeedback = {
    id: randomUUID(),
    featureName: input.feature.name,
    text: input.feedback.text,
    usefulness: input.usefulness,
    locationUrl: input.locationUrl,
    screenWidth: input.screenWidth,
    userId,
    createdAt: now.toISOString(),
  };
  await dynamo().send(
    new PutCommand({
      TableName: requireEnv(ENV.entityTable),
      Item: { ...feedbackKey(feedback.id), ...feedback },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return feedback;
}
