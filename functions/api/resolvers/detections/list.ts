// The detections list, its filter options, bulk enable/disable/delete, helper and data-model users, and packs,
// each through the detections services (which check the caller's permission on each item's own kind).
import { SEVERITIES, statusOf } from '../../../../core/detections';
import {
  bulkDelete,
  bulkSetEnabled,
  detectionFacets,
  getDetection,
  isSimpleDetection,
  listDetectionPage,
  listPacks,
  packDetails,
  setPackEnabled,
  usersOf,
  type ListedDetection,
  type PackDetails,
} from '../../../lib/detections';
import { toAlertSeverity } from '../../../lib/alerts';
import { ApiError } from '../../../lib/errors';
import { idOf, inputOf, listOf } from '../arguments';
import type { ResolverMap } from '../types';
import { GRAPHQL_TO_TYPE, TYPE_TO_GRAPHQL } from './shape';

const LISTED_TYPES = Object.values(TYPE_TO_GRAPHQL);
const SEVERITY_NAMES = SEVERITIES.map((s) => s.toUpperCase());
const SORTS: Record<string, string> = { LAST_MODIFIED: 'lastModified', NAME: 'name', SEVERITY: 'severity' };
const DIRECTIONS: Record<string, string> = { ASCENDING: 'ascending', DESCENDING: 'descending' };

const text = (value: unknown) => (typeof value === 'string' ? value : null);
const strings = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const detects = (d: Pick<ListedDetection, 'type'>) => d.type !== 'global' && d.type !== 'datamodel';

function listItem(d: ListedDetection) {
  const reports = d.spec.Reports && typeof d.spec.Reports === 'object' ? (d.spec.Reports as Record<string, unknown>) : {};
  return {
    id: d.id,
    analysisType: TYPE_TO_GRAPHQL[d.type],
    displayName: text(d.spec.DisplayName),
    description: text(d.spec.Description),
    enabled: d.enabled,
    status: statusOf(d.spec) ?? null,
    severity: detects(d) ? toAlertSeverity(d.spec.Severity) : null,
    logTypes: d.logTypes,
    tags: strings(d.spec.Tags),
    outputIds: strings(d.spec.OutputIds),
    mitre: strings(reports['MITRE ATT&CK']),
    isSimpleDetection: isSimpleDetection(d),
    managed: d.managed,
    packs: d.packs,
    versionId: d.version,
    lastModified: d.lastModified,
    lastModifiedBy: d.lastModifiedBy,
  };
}

function pack({ pack: p, items }: PackDetails) {
  const switchable = items.filter(({ item }) => item && item.type !== 'global');
  return {
    id: p.id,
    displayName: p.displayName,
    description: p.description,
    yaml: p.yaml,
    createdAt: p.createdAt,
    lastModified: p.lastModified,
    lastModifiedBy: p.lastModifiedBy,
    switchableCount: switchable.length,
    enabledCount: switchable.filter(({ item }) => item!.enabled).length,
    items: items.map(({ id, item }) => ({
      id,
      stored: item !== null,
      analysisType: item ? TYPE_TO_GRAPHQL[item.type] : null,
      displayName: item ? text(item.spec.DisplayName) : null,
      enabled: item && item.type !== 'global' ? item.enabled : null,
      severity: item && detects(item) ? toAlertSeverity(item.spec.Severity) : null,
    })),
  };
}

export const detectionListResolvers: ResolverMap = {
  'Query.detectionList': async (event, caller) => {
    const input = inputOf(event);
    const types = listOf(input.types, LISTED_TYPES, 'types');
    const severities = listOf(input.severities, SEVERITY_NAMES, 'severities');
    const page = await listDetectionPage(caller, {
      ...input,
      types: types?.map((t) => GRAPHQL_TO_TYPE[t]),
      severities: severities?.map((s) => SEVERITIES[SEVERITY_NAMES.indexOf(s)]),
      sortBy: input.sortBy === undefined || input.sortBy === null ? undefined : (SORTS[String(input.sortBy)] ?? input.sortBy),
      sortDir:
        input.sortDir === undefined || input.sortDir === null ? undefined : (DIRECTIONS[String(input.sortDir)] ?? input.sortDir),
    });
    return {
      detections: page.items.map(listItem),
      paging: { totalItems: page.totalItems, totalPages: page.totalPages, thisPage: page.thisPage },
    };
  },
  'Query.detectionFilterOptions': (_event, caller) => detectionFacets(caller),
  'Query.detectionUsers': async (event, caller) => {
    const found = await getDetection(caller, idOf(event.arguments.id));
    if (!found) throw new ApiError('NotFound', 'Detection not found');
    return usersOf(found);
  },
  'Query.packs': async (_event, caller) => (await listPacks(caller)).map(pack),
  'Query.pack': async (event, caller) => {
    try {
      return pack(await packDetails(caller, idOf(event.arguments.id)));
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
};
