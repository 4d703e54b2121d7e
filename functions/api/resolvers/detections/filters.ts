// The filters API: the fields a condition can target, for the log types a detection is written for.
import { filterFields } from '../../../lib/detections';
import { defineResolvers } from '../types';

export const filterResolvers = defineResolvers({
  'Query.filterFields': (event) => filterFields(event.arguments.logTypes, event.arguments.showUnsafeTypes),
});
