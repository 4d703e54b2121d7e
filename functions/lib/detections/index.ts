// Detections: rules, scheduled rules, policies, simple detections, correlation rules, global helpers and data
// models, kept with every saved version; their unit tests; bulk upload; the engine that runs them; the live path
// (events objects through the enabled rules, live.ts) and what a result means, which the scheduled path of
// functions/lib/runs shares (matches.ts: results → alerts + signal rows → lake); and the scheduled detections'
// next-run index the scheduler reads (run-index.ts). This area never imports functions/lib/runs: runs build on it.
// A caller's Lambda needs ENTITY_TABLE (read/write) and, to save, test or run detections, ENGINE_FUNCTION_NAME
// (lambda:InvokeFunction); the live path LAKE_BUCKET (its events objects, and its signals written) and
// ALERT_CHANGES_QUEUE_URL (alerts).
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
export {
  claimRun,
  correlationSchedule,
  deleteScheduledRun,
  detectionSchedule,
  dueRuns,
  putScheduledRun,
  syncScheduledRun,
  type ScheduledDetection,
  type ScheduledRun,
} from './run-index';
export { processBatch, processMessage, type BatchOutcome, type ProcessDeps, type ProcessReport } from './live';
export {
  addResult,
  link,
  MAX_ERROR_TEXT,
  nameOf,
  recordGroup,
  signalRow,
  text,
  writeSignalRows,
  type GroupAlert,
  type Match,
  type MatchGroup,
  type MatchKind,
  type SignalRow,
} from './matches';
