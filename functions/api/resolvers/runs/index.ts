// Scheduled detections' runs (graphql/runs.graphql): thin resolvers over ../../../lib/runs.
import { detectionRuns } from '../../../lib/runs';
import { idOf } from '../arguments';
import { defineResolvers } from '../types';

export const runResolvers = defineResolvers({
  'Query.detectionRuns': (event) => detectionRuns(idOf(event.arguments.id)),
});
