// Detections: rules, scheduled rules, policies, simple detections, correlation rules, global helpers and data
// models, kept with every saved version; their unit tests; bulk upload; and the engine that runs them.
// A caller's Lambda needs ENTITY_TABLE (read/write) and, to save, test or run detections, ENGINE_FUNCTION_NAME
// (lambda:InvokeFunction).
export {
  createDetection,
  deleteDetection,
  DETECTION_NOT_FOUND,
  getDetection,
  listDetections,
  seedDetections,
  setDetectionEnabled,
  updateDetection,
  uploadDetections,
  type DetectionSource,
  type DetectionsQuery,
} from './service';
export { detectionsFor, scheduledRulesFor, type LogTypeDetections } from './content';
export {
  engineSlices,
  eventJsonBytes,
  jsonOf,
  lambdaEngine,
  type Engine,
  type EngineResult,
  type VersionedContent,
} from './engine';
export { dedupMinutes, isSimpleDetection, STORED_TYPES, threshold, type StoredDetection, type StoredType } from './model';
export type { BulkReport } from './bulk';
export type { DetectionPage } from './repository';
/** Stored detections by id, without a caller (the run worker reads a correlation rule and the rules it references). */
export { getDetections as storedDetections } from './repository';
export type { TestRun } from './unit-tests';
export {
  DATA_TEST_HOURS,
  DATA_TEST_MAX_EVENTS,
  DATA_TEST_MAX_MATCHES,
  detectionVersions,
  restoreDetectionVersion,
  runEditorTests,
  testDetectionAgainstData,
  type DataTestRun,
} from './editor';
export type { VersionSummary } from './repository';
export {
  bulkDelete,
  bulkSetEnabled,
  detectionFacets,
  listDetectionPage,
  listPacks,
  MAX_BULK_ITEMS,
  PACK_NOT_FOUND,
  packDetails,
  packsOf,
  setPackEnabled,
  type ItemResult,
  type ListedDetection,
  type PackDetails,
} from './list';
export type { StoredPack } from './pack-repository';
export { detectionsRoutingTo, usersOf } from './usage';
export { filterFields, MAX_FILTER_LOG_TYPES, type FilterFields } from './filter-fields';
