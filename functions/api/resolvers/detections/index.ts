// The detections API: list, read, create, update, enable/disable, delete, run unit tests, bulk upload, each
// through the detections services (which check the caller's permission on each item's own kind).
import type { AppSyncResolverEvent } from '../../../lib/appsync';
import type { Caller } from '../../../lib/auth';
import {
  createDetection,
  deleteDetection,
  getDetection,
  detectionVersions,
  listDetections,
  packsOf,
  restoreDetectionVersion,
  runEditorTests,
  setDetectionEnabled,
  testDetectionAgainstData,
  STORED_TYPES,
  updateDetection,
  uploadDetections,
  type BulkReport,
} from '../../../lib/detections';
import { connection, decodeCursor, idOf, inputOf, listOf, pageSizeOf, type Args, type PageRule } from '../arguments';
import type { ResolverMap } from '../types';
import { detectionListResolvers } from './list';
import { GRAPHQL_TO_TYPE, toGraphql, TYPE_TO_GRAPHQL } from './shape';

export const DETECTIONS_PAGE: PageRule = { default: 25, max: 999 };

const GRAPHQL_TYPES = STORED_TYPES.map((t) => TYPE_TO_GRAPHQL[t]);

async function detections(event: AppSyncResolverEvent<Args>, caller: Caller) {
  const input = inputOf(event);
  const requested = listOf(input.types, GRAPHQL_TYPES, 'types');
  const after = decodeCursor(input.cursor);
  const page = await listDetections(
    caller,
    {
      types: (requested?.length ? requested : GRAPHQL_TYPES).map((t) => GRAPHQL_TO_TYPE[t]),
      enabled: input.enabled,
      logType: input.logType,
      search: input.search,
    },
    { pageSize: pageSizeOf(input.pageSize, DETECTIONS_PAGE), after },
  );
  return connection(page.items, (d) => d.id, { next: page.next, after }, toGraphql);
}

const bulkReport = (report: BulkReport) => ({
  totals: report.totals,
  fileIssues: report.fileIssues,
  items: report.items.map((i) => ({ ...i, analysisType: i.type === 'pack' ? 'PACK' : TYPE_TO_GRAPHQL[i.type] })),
});

export const detectionResolvers: ResolverMap = {
  ...detectionListResolvers,
  'Query.detections': detections,
  'Query.detection': async (event, caller) => {
    const found = await getDetection(caller, idOf(event.arguments.id));
    return found && toGraphql(found, (await packsOf(found.id)).length > 0);
  },
  'Query.detectionVersion': async (event, caller) => {
    const found = await getDetection(caller, idOf(event.arguments.id), event.arguments.version);
    return found && toGraphql(found, (await packsOf(found.id)).length > 0);
  },
  'Mutation.createDetection': async (event, caller) => {
    const input = inputOf(event);
    return toGraphql(await createDetection(caller, { yaml: input.yaml, body: input.body }));
  },
  'Mutation.updateDetection': async (event, caller) => {
    const input = inputOf(event);
    return toGraphql(await updateDetection(caller, { yaml: input.yaml, body: input.body, versionId: input.versionId }));
  },
  'Mutation.setDetectionEnabled': async (event, caller) => {
    const input = inputOf(event);
    return toGraphql(await setDetectionEnabled(caller, idOf(input.id), input.enabled));
  },
  'Mutation.deleteDetection': (event, caller) => deleteDetection(caller, idOf(event.arguments.id)),
  'Query.detectionVersions': (event, caller) => detectionVersions(caller, idOf(event.arguments.id)),
  'Mutation.runDetectionTests': async (event, caller) => {
    const input = inputOf(event);
    const run = await runEditorTests(caller, {
      id: input.id === undefined || input.id === null ? undefined : idOf(input.id),
      testsYaml: input.testsYaml,
      yaml: input.yaml,
      body: input.body,
    });
    return { ...run, results: run.results.map((r) => ({ ...r, functions: r.functions ?? [] })) };
  },
  'Mutation.restoreDetectionVersion': async (event, caller) => {
    const input = inputOf(event);
    return toGraphql(
      await restoreDetectionVersion(caller, { id: idOf(input.id), version: input.version, versionId: input.versionId }),
    );
  },
  'Mutation.testDetectionAgainstData': (event, caller) => {
    const input = inputOf(event);
    return testDetectionAgainstData(caller, {
      id: input.id === undefined || input.id === null ? undefined : idOf(input.id),
      yaml: input.yaml,
      body: input.body,
      hours: input.hours,
    });
  },
  'Mutation.validateBulkUpload': async (event, caller) =>
    bulkReport(await uploadDetections(caller, inputOf(event).data, { validateOnly: true })),
  'Mutation.bulkUpload': async (event, caller) =>
    bulkReport(await uploadDetections(caller, inputOf(event).data, { validateOnly: false })),
};
