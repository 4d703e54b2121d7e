// Destinations (graphql/destinations.graphql): reads with secrets masked, saves, delete, and the test alert.
import { sendTestAlert } from '../../../lib/delivery';
import {
  createDestination,
  deleteDestination,
  getDestination,
  listDestinations,
  updateDestination,
  type DestinationSave,
} from '../../../lib/destinations';
import { ApiError } from '../../../lib/errors';
import type * as Api from '../../../lib/graphql-types';
import { toApiDestination } from '../../presenters/destination';
import { idOf, inputOf } from '../arguments';
import { defineResolvers } from '../types';

/** The API's input (outputConfig) as the destinations area reads it (config). */
function destinationSave(input: Api.DestinationInput): DestinationSave {
  const { outputConfig, ...rest } = input;
  return { ...rest, config: outputConfig };
}

function revisionOf(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw new ApiError('InvalidInput', 'revision must be a whole number from 1');
  return value;
}

export const destinationResolvers = defineResolvers({
  'Query.destinations': async () => (await listDestinations()).map(toApiDestination),
  'Query.destination': async (event) => toApiDestination(await getDestination(idOf(event.arguments.id))),
  'Mutation.createDestination': async (event, caller) =>
    toApiDestination(await createDestination(destinationSave(inputOf(event)), caller)),
  'Mutation.updateDestination': async (event, caller) =>
    toApiDestination(
      await updateDestination(
        idOf(event.arguments.id),
        destinationSave(inputOf(event)),
        caller,
        revisionOf(event.arguments.revision),
      ),
    ),
  'Mutation.deleteDestination': (event) => deleteDestination(idOf(event.arguments.id)),
  'Mutation.sendTestAlert': (event) => {
    const input = inputOf(event);
    const id = input.id === undefined || input.id === null ? undefined : idOf(input.id);
    const { destination } = input;
    if (destination && typeof destination === 'object') return sendTestAlert({ id, input: destinationSave(destination) });
    if (id === undefined) throw new ApiError('InvalidInput', 'id or destination is required');
    return sendTestAlert({ id });
  },
});
