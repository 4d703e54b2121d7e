// The detections list, its filter options, bulk enable/disable/delete, helper and data-model users, and packs,
// each through the detections services (which check the caller's permission on each item's own kind).
import { SEVERITIES, type DetectionSort, type DetectionSortDirection } from '../../../../core/detections';
import {
  bulkDelete,
  bulkSetEnabled,
  detectionFacets,
  getDetection,
  listDetectionPage,
  listPacks,
  packDetails,
  setPackEnabled,
  usersOf,
} from '../../../lib/detections';
import { ApiError } from '../../../lib/errors';
import type * as Api from '../../../lib/graphql-types';
import { GRAPHQL_TO_TYPE, toApiDetectionListItem, toApiPack, TYPE_TO_GRAPHQL } from '../../presenters/detection';
import { idOf, inputOf, listOf } from '../arguments';
import { defineResolvers } from '../types';

const LISTED_TYPES = Object.values(TYPE_TO_GRAPHQL);
const SEVERITY_NAMES = SEVERITIES.map((s) => s.toUpperCase());
const SORTS: Readonly<Record<Api.DetectionSortBy, DetectionSort>> = {
  LAST_MODIFIED: 'lastModified',
  NAME: 'name',
  SEVERITY: 'severity',
};
const DIRECTIONS: Readonly<Record<Api.DetectionSortDir, DetectionSortDirection>> = {
  ASCENDING: 'ascending',
  DESCENDING: 'descending',
};

export const detectionListResolvers = defineResolvers({
  'Query.detectionList': async (event, caller) => {
    const input = inputOf(event);
    const types = listOf(input.types, LISTED_TYPES, 'types');
    const severities = listOf(input.severities, SEVERITY_NAMES, 'severities');
    const page = await listDetectionPage(caller, {
      ...input,
      types: types?.map((t) => GRAPHQL_TO_TYPE[t]),
      severities: severities?.map((s) => SEVERITIES[SEVERITY_NAMES.indexOf(s)]),
      // An unknown name goes through as given, for the list's own refusal.
      sortBy: input.sortBy === undefined || input.sortBy === null ? undefined : (SORTS[input.sortBy] ?? input.sortBy),
      sortDir: input.sortDir === undefined || input.sortDir === null ? undefined : (DIRECTIONS[input.sortDir] ?? input.sortDir),
    });
    return {
      detections: page.items.map(toApiDetectionListItem),
      paging: { totalItems: page.totalItems, totalPages: page.totalPages, thisPage: page.thisPage },
    };
  },
  'Query.detectionFilterOptions': (_event, caller) => detectionFacets(caller),
  'Query.detectionUsers': async (event, caller) => {
    const found = await getDetection(caller, idOf(event.arguments.id));
    if (!found) throw new ApiError('NotFound', 'Detection not found');
    return usersOf(found);
  },
  'Query.packs': async (_event, caller) => (await listPacks(caller)).map(toApiPack),
  'Query.pack': async (event, caller) => {
    try {
      return toApiPack(await packDetails(caller, idOf(event.arguments.id)));
    } catch (err) {
      if (err instanceof ApiError && err.errorType === 'NotFound') return null;
      throw err;
    }
  },
  'Mutation.setDetectionsEnabled': (event, caller) => {
    const input = inputOf(event);
    return bulkSetEnabled(caller, input.ids, input.enabled);
  },
  'Mutation.deleteDetections': (event, caller) => bulkDelete(caller, inputOf(event).ids),
  'Mutation.setPackEnabled': (event, caller) => {
    const input = inputOf(event);
    return setPackEnabled(caller, idOf(input.id), input.enabled);
  },
});
