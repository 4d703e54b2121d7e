// The schemas library: the schema language, its validation, the parsers and normalization into p_* fields,
// classification, inference and the managed log types. Pure TypeScript with no I/O.
export * from './types';
export {
  validateSchema,
  validateSchemaName,
  customSchemaName,
  MESSAGES,
  CUSTOM_PREFIX,
  type SchemaProblem,
  type ValidateOptions,
} from './validate';
export { loadSchemaYaml, dumpSchemaYaml, type LoadResult } from './yaml';
export {
  compileSchema,
  lineProblem,
  SchemaCompileError,
  DEFAULT_MAX_LINE_LENGTH,
  type Parser,
  type ParseResult,
  type ParserOptions,
} from './compile';
export { classifier, type Classifier, type ClassifierOptions, type ClassifyResult } from './classify';
export { normalize, type NormalizedEvent, type ParseContext } from './normalize';
export { rowId, type RowPosition } from './rowid';
export { inferFields, SchemaInferrer } from './infer';
export { INDICATOR_FIELDS } from './indicators';
export { compileTimeFormats, formatInstant, type Instant } from './time';
export { md5, sha1, sha256, sha512 } from './hash';
export { decodeLines, LineDecoder, DEFAULT_MAX_LINE_BYTES, type DecodedLine } from './lines';
export { managedSchemas, managedSchemaNames, managedSchema } from './managed-schemas';
