// The filters API: the fields a condition can target, for the log types a detection is written for.
import { filterFields } from '../../../lib/detections';
import type { ResolverMap } from '../types';

export const filterResolvers: ResolverMap = {
  'Query.filterFields': (event) => filterFields(event.arguments.logTypes, event.arguments.showUnsafeTypes),
};
