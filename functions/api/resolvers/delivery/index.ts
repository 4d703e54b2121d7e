// Alert delivery (graphql/destinations.graphql, the delivery part): an alert's deliveries and a retry.
import { alertDeliveries, retryAlertDelivery } from '../../../lib/delivery';
import { toApiDelivery } from '../../presenters/delivery';
import { idOf, inputOf } from '../arguments';
import { defineResolvers } from '../types';

export const deliveryResolvers = defineResolvers({
  'Query.alertDeliveries': async (event) => (await alertDeliveries(idOf(event.arguments.alertId, 'alertId'))).map(toApiDelivery),
  'Mutation.retryAlertDelivery': async (event) => {
    const input = inputOf(event);
    return toApiDelivery(await retryAlertDelivery(idOf(input.alertId, 'alertId'), idOf(input.destinationId, 'destinationId')));
  },
});
