// A destination as the API answers it: the specification's outputId beside id, the config (secrets masked) as
// outputConfig, and its verification (NOT_VERIFIED for a destination saved before verification existed).
import type { Destination } from '../../../core/destinations/types';
import type * as Api from '../../lib/graphql-types';

export function toApiDestination(destination: Destination): Api.Destination {
  const { config, ...rest } = destination;
  return {
    ...rest,
    outputId: destination.id,
    outputConfig: config,
    verificationStatus: destination.verificationStatus ?? 'NOT_VERIFIED',
  };
}
