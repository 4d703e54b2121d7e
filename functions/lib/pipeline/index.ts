// The pipeline: objects from S3 sources, HTTP ingest and SQS sources, each found its log source, split,
// classified and normalized into the lake, and announced to detection; what it could not take, counted where
// users see it; and the dead-letter check of the queues core/pipeline/dead-letters.ts names. The area's one
// door, for the log processor, HTTP ingest, the dead-letter check and the API's reads.
// The log processor needs ENTITY_TABLE, INGEST_BUCKET, LAKE_BUCKET, DETECTIONS_QUEUE_URL, USER_POOL_ID (source
// alerts) and, for script parsers, ENGINE_FUNCTION_NAME; HTTP ingest ENTITY_TABLE and INGEST_BUCKET.
export { isFailurePosition, type ClassificationFailurePage, type StoredClassificationFailure } from './classification-failures';
export { checkDeadLetters, type DeadLetterSummary } from './dead-letters';
export { DEFAULT_MAX_BODY_BYTES } from './http-request';
export { ingestHttpRequest, type HttpIngestAnswer, type HttpIngestConfig, type HttpIngestRequest } from './http-ingest';
export type { PipelineConfig } from './ingest-object';
export { processQueueMessages } from './ingest-queue';
export { unmatchedObjects, type SourceErrors, type UnmatchedObjects } from './pipeline-errors';
export { SOURCE_NOT_FOUND, sourceClassificationFailures, sourceProcessingErrors } from './reads';
export type { QueueMessage } from './sqs-sources';
