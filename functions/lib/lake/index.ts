// The lake: its one door. Everything that reads or writes the data lake
// (panther_logs, panther_signals, panther_rule_errors in the lake bucket, core/lake/layout) comes through here:
// - rows in: one writer for any table, partitioned and named by core/lake/layout (writeLakeRows; LakeWriter, its
//   streaming form, for the log processor's events);
// - rows out: an events object's lines, a log type's events over hours (files read directly), and platform
//   queries with their deadline (lakeQueryRows, LakeQueryTimeout), over the Athena calls users' searches are made
//   of (the search door starts, polls, pages and stops those);
// - tables: the Glue tables of the schemas (managed and custom, core/search/lake-tables), the catalog searches
//   compile against (lakeTables, from the schemas, not read back from Glue), and the Glue calls of the deploy-time
//   resource (functions/lake-tables).
// What a signal row means (p_rule_*, p_alert_*) is the detections area's; what a query may say, the search area's.
// A caller's Lambda needs LAKE_BUCKET to write or read files (s3:PutObject / s3:GetObject on the prefixes it uses),
// ATHENA_WORKGROUP for queries, and Glue's table calls on the lake databases for tables.
export { hasLake, lakeBucketName } from './bucket';
export {
  lakeBucketSink,
  LakeWriter,
  writeLakeRows,
  type LakeSink,
  type LakeTarget,
  type LakeWriterOptions,
  type WrittenObject,
} from './writer';
export { logTypeEvents, objectEventLines } from './objects';
export { cellValue, LakeQueryTimeout, lakeQueryRows } from './query';
export {
  awaitQuery,
  POLL_FIRST_MS,
  POLL_MAX_MS,
  queryResults,
  queryRowCount,
  queryShape,
  queryStatus,
  SHAPE_ROWS,
  startQuery,
  stopQuery,
  type EngineColumn,
  type EnginePage,
  type EngineState,
  type EngineStatus,
  type QueryShape,
} from './athena';
export { glueTableInput, glueTables, MANAGED_BY_PARAMETER, type GlueTable } from './glue';
export {
  deleteLakeTable,
  ensureLakeTable,
  ensureLakeTables,
  lakeTables,
  managedLakeTables,
  type EnsureLakeTableInput,
} from './tables';
