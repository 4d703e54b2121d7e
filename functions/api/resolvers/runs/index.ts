// Scheduled detections' runs (graphql/runs.graphql): thin resolvers over ../../../lib/runs.
import type { AppSyncResolverEvent } from '../../../lib/appsync';
import { detectionRuns } from '../../../lib/runs';
import { idOf } from '../arguments';
import type { ResolverMap } from '../types';

export const runResolvers: ResolverMap = {
  'Query.detectionRuns': async (event: AppSyncResolverEvent<{ id?: unknown }>) => detectionRuns(idOf(event.arguments.id)),
};
