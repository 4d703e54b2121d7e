// Schemas: the managed log types (from core, read-only) and the custom schemas users write, kept revision by
// revision. The area's one door: the API's reads and changes, the tester and inference, the specs the pipeline
// compiles, and the Python script parsers it runs in the detection engine.
// A caller's Lambda needs ENTITY_TABLE; the tester and the pipeline ENGINE_FUNCTION_NAME (script parsers).
export { customSchemaSpecs, listSchemas, type CustomSchemaSpec, type SchemaRecord } from './repository';
export { runScriptParser, ScriptParserError, type ScriptParseResult } from './script-parser';
export {
  archiveSchema,
  createSchema,
  deleteUnusedSchema,
  findSchema,
  inferSchema,
  listSchemaPage,
  parserTypeOf,
  schemaRevisions,
  trySchema,
  unarchiveSchema,
  updateSchema,
  type Actor,
  type InferredSchema,
  type SampleInput,
  type SchemaChange,
  type SchemaList,
  type SchemaListQuery,
  type SchemaTrial,
} from './service';
