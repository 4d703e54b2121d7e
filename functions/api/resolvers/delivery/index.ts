// Alert delivery (graphql/destinations.graphql, the delivery part): an alert's deliveries and a retry.
import type { AppSyncResolverEvent } from '../../../lib/appsync';
import { alertDeliveries, retryAlertDelivery, type DeliveryRecord } from '../../../lib/delivery';
import { idOf, inputOf } from '../arguments';
import type { ResolverMap } from '../types';

/** The API's AlertDelivery (the record without its alert id and timestamps). */
function toApiDelivery(record: DeliveryRecord) {
  return {
    destinationId: record.destinationId,
    destinationName: record.destinationName,
    outputType: record.outputType,
    status: record.status,
    attempts: record.attempts,
    lastAttemptAt: record.lastAttemptAt,
    lastStatusCode: record.lastStatusCode,
    lastAnswer: record.lastAnswer,
  };
}

export const deliveryResolvers: ResolverMap = {
  'Query.alertDeliveries': async (event: AppSyncResolverEvent<{ alertId?: unknown }>) =>
    (await alertDeliveries(idOf(event.arguments.alertId, 'alertId'))).map(toApiDelivery),
  'Mutation.retryAlertDelivery': async (event: AppSyncResolverEvent<{ input?: unknown }>) => {
    const input = inputOf(event);
    return toApiDelivery(await retryAlertDelivery(idOf(input.alertId, 'alertId'), idOf(input.destinationId, 'destinationId')));
  },
};
