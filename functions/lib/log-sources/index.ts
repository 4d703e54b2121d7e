// Log sources: where logs come from (an S3 bucket, a queue Caracal creates, an HTTP endpoint), the log types
// they hold, how their bytes split into events, their health and ingestion figures. The area's one door: the
// API's reads and saves, what the pipeline asks of a source (which source an object or queue belongs to, an
// HTTP request's authentication, the figures it adds), the health run, and the demo's signed sender.
// A caller's Lambda needs ENTITY_TABLE; saves and health checks reach the sources' buckets, keys and queues
// (infra/log-sources), SQS saves LOG_PROCESSOR_FUNCTION (Processing.allowSourceQueueConnections), health
// alerts USER_POOL_ID (see ../notifications).
export type { BucketDataPage, BucketDataRecord } from './bucket-data';
export { checkEverySource, type HealthCheck, type HealthStatus, type SourceHealthSummary } from './health';
export { verifyHttpAuth, type HttpAuthResult, type HttpIngestRequest } from './http-auth';
export { availableLogTypes, crowdstrikeFdrEnabled, type AvailableLogType } from './log-types';
export {
  getSource,
  isListPosition as isLogSourcePosition,
  newSourceId,
  recordIngestion,
  sourceForObject,
  sourceForQueue,
  type StoredHttpSecret,
  type StoredLogSource,
} from './repository';
export {
  claimSignedRequest,
  createHttpLogSource,
  createS3LogSource,
  createSqsLogSource,
  deleteLogSource,
  getLogSource,
  hmacSender,
  listLogSources,
  logTypeUsers,
  releaseSignedRequest,
  setLogStreamType,
  sourceHealthReport,
  updateHttpLogSource,
  updateS3LogSource,
  updateSqsLogSource,
  upgradeStoredSecret,
  viewBucketData,
  type Actor,
  type BucketDataQuery,
  type HealthSummary,
  type HmacSender,
  type LogSourceList,
  type LogSourceListQuery,
  type LogSourceView,
  type LogTypeUsers,
  type HttpSourceSave,
  type S3SourceSave,
  type SaveOptions,
  type SourceHealthReport,
  type SqsSourceSave,
  type StreamTypeSave,
} from './service';
