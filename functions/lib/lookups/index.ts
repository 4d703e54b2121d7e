// Lookup tables and enrichment providers: the area's one door. The API's reads and saves (ENTITY_TABLE, and
// the lake bucket LAKE_BUCKET for data versions and uploads), the scheduled refresh (S3 objects, scheduled
// queries through ../search; failures raise LOOKUP_TABLE_REFRESH alerts through ../alerts), and the log
// processor's per-container enricher. A scheduled query or an S3 object is set only by a user whose role allows
// it (core/permissions LOOKUP_SOURCE_ACCESS; S3 objects in the buckets LOOKUP_BUCKETS names) and read, at every
// refresh, on behalf of that user as they are now (access.ts).
export {
  currentEnricher,
  engineLookups,
  lookupNamesIn,
  MAX_ENGINE_LOOKUP_BYTES,
  resetEngineLookups,
  resetEnricherCache,
  type EngineLookupTable,
} from './cache';
export { newUpload } from './storage';
export {
  FILE_ONLY,
  NAME_TAKEN,
  TABLE_NOT_FOUND,
  UPLOAD_MISSING,
  createLookupTable,
  createLookupTableFromText,
  deleteLookupTable,
  fetchUrl,
  getLookupTable,
  listLookupTables,
  previewUpload,
  refreshDueTables,
  refreshLookupTable,
  tablePreview,
  testLookupValue,
  updateLookupTable,
  type DataPreview,
  type DataUpload,
} from './service';
