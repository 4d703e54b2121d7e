// Destinations (graphql/destinations.graphql): reads with secrets masked, saves, delete, and the test alert.
import type { Destination } from '../../../../core/destinations/types';
import type { AppSyncResolverEvent } from '../../../lib/appsync';
import type { Caller } from '../../../lib/auth';
import { sendTestAlert } from '../../../lib/delivery';
import {
  createDestination,
  deleteDestination,
  getDestination,
  listDestinations,
  updateDestination,
} from '../../../lib/destinations';
import { ApiError } from '../../../lib/errors';
import { idOf, inputOf, type Args } from '../arguments';
import type { ResolverMap } from '../types';

type WithId = { id?: unknown };
type WithInput = { input?: unknown };

/** The API's destination: the specification's outputId beside id, the config as outputConfig. */
export function toApiDestination(destination: Destination) {
  const { config, ...rest } = destination;
  return { ...rest, outputId: destination.id, outputConfig: config };
}

/** The API's input (outputConfig) as the service reads it (config). */
function destinationInput(input: Args): Args {
  const { outputConfig, ...rest } = input;
  return { ...rest, config: outputConfig };
}

function revisionOf(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw new ApiError('InvalidInput', 'revision must be a whole number from 1');
  return value;
}

async function sendTest(event: AppSyncResolverEvent<WithInput>) {
  const input = inputOf(event);
  const id = input.id === undefined || input.id === null ? undefined : idOf(input.id);
  const destination = input.destination as Args | null | undefined;
  if (destination && typeof destination === 'object') return sendTestAlert({ id, input: destinationInput(destination) });
  if (id === undefined) throw new ApiError('InvalidInput', 'id or destination is required');
  return sendTestAlert({ id });
}

export const destinationResolvers: ResolverMap = {
  'Query.destinations': async () => (await listDestinations()).map(toApiDestination),
  'Query.destination': async (event: AppSyncResolverEvent<WithId>) =>
    toApiDestination(await getDestination(idOf(event.arguments.id))),
  'Mutation.createDestination': async (event: AppSyncResolverEvent<WithInput>, caller: Caller) =>
    toApiDestination(await createDestination(destinationInput(inputOf(event)), caller)),
  'Mutation.updateDestination': async (
    event: AppSyncResolverEvent<WithId & WithInput & { revision?: unknown }>,
    caller: Caller,
  ) =>
    toApiDestination(
      await updateDestination(
        idOf(event.arguments.id),
        destinationInput(inputOf(event)),
        caller,
        revisionOf(event.arguments.revision),
      ),
    ),
  'Mutation.deleteDestination': async (event: AppSyncResolverEvent<WithId>) => deleteDestination(idOf(event.arguments.id)),
  'Mutation.sendTestAlert': sendTest,
};
