// The detections API: list, read, create, update, enable/disable, delete, run unit tests, bulk upload, each
// through the detections services (which check the caller's permission on each item's own kind).
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
} from '../../../lib/detections';
import {
  GRAPHQL_TO_TYPE,
  toApiBulkUploadReport,
  toApiDetection,
  toApiDetectionTestRun,
  TYPE_TO_GRAPHQL,
} from '../../presenters/detection';
import { connection, decodeCursor, idOf, inputOf, listOf, pageSizeOf, type PageRule } from '../arguments';
import { defineResolvers } from '../types';
import { detectionListResolvers } from './list';

export const DETECTIONS_PAGE: PageRule = { default: 25, max: 999 };

const GRAPHQL_TYPES = STORED_TYPES.map((t) => TYPE_TO_GRAPHQL[t]);

/** An optional id argument: absent or null, else a required id. */
const optionalIdOf = (value: string | null | undefined) => (value === undefined || value === null ? undefined : idOf(value));

export const detectionResolvers = defineResolvers({
  ...detectionListResolvers,
  'Query.detections': async (event, caller) => {
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
    return connection(
      page.items,
      (d) => d.id,
      { next: page.next, after },
      (d) => toApiDetection(d),
    );
  },
  'Query.detection': async (event, caller) => {
    const found = await getDetection(caller, idOf(event.arguments.id));
    return found && toApiDetection(found, (await packsOf(found.id)).length > 0);
  },
  'Query.detectionVersion': async (event, caller) => {
    const found = await getDetection(caller, idOf(event.arguments.id), event.arguments.version);
    return found && toApiDetection(found, (await packsOf(found.id)).length > 0);
  },
  'Mutation.createDetection': async (event, caller) => {
    const input = inputOf(event);
    return toApiDetection(await createDetection(caller, { yaml: input.yaml, body: input.body }));
  },
  'Mutation.updateDetection': async (event, caller) => {
    const input = inputOf(event);
    return toApiDetection(await updateDetection(caller, { yaml: input.yaml, body: input.body, versionId: input.versionId }));
  },
  'Mutation.setDetectionEnabled': async (event, caller) => {
    const input = inputOf(event);
    return toApiDetection(await setDetectionEnabled(caller, idOf(input.id), input.enabled));
  },
  'Mutation.deleteDetection': (event, caller) => deleteDetection(caller, idOf(event.arguments.id)),
  'Query.detectionVersions': (event, caller) => detectionVersions(caller, idOf(event.arguments.id)),
  'Mutation.runDetectionTests': async (event, caller) => {
    const input = inputOf(event);
    const run = await runEditorTests(caller, {
      id: optionalIdOf(input.id),
      testsYaml: input.testsYaml,
      yaml: input.yaml,
      body: input.body,
    });
    return toApiDetectionTestRun(run);
  },
  'Mutation.restoreDetectionVersion': async (event, caller) => {
    const input = inputOf(event);
    return toApiDetection(
      await restoreDetectionVersion(caller, { id: idOf(input.id), version: input.version, versionId: input.versionId }),
    );
  },
  'Mutation.testDetectionAgainstData': (event, caller) => {
    const input = inputOf(event);
    return testDetectionAgainstData(caller, {
      id: optionalIdOf(input.id),
      yaml: input.yaml,
      body: input.body,
      hours: input.hours,
    });
  },
  'Mutation.validateBulkUpload': async (event, caller) =>
    toApiBulkUploadReport(await uploadDetections(caller, inputOf(event).data, { validateOnly: true })),
  'Mutation.bulkUpload': async (event, caller) =>
    toApiBulkUploadReport(await uploadDetections(caller, inputOf(event).data, { validateOnly: false })),
});
