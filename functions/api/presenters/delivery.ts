// An alert's delivery to one destination as the API answers it: the record without its alert id and timestamps.
import type { DeliveryRecord } from '../../lib/delivery';
import type * as Api from '../../lib/graphql-types';

export const toApiDelivery = (record: DeliveryRecord): Api.AlertDelivery => ({
  destinationId: record.destinationId,
  destinationName: record.destinationName,
  outputType: record.outputType,
  status: record.status,
  attempts: record.attempts,
  lastAttemptAt: record.lastAttemptAt,
  lastStatusCode: record.lastStatusCode,
  lastAnswer: record.lastAnswer,
});
