// Schemas: the managed log types (from core, read-only) and the custom schemas users write, kept revision by
// revision. The area's one door: the API's reads and changes, the tester and inference, the specs the pipeline
// compiles, and the Python script parsers it runs in the detection engine.
// A caller's Lambda needs ENTITY_TABLE; the tester and the pipeline ENGINE_FUNCTION_NAME (script parsers).
//
// Its services apply every rule: the list and its pages, revisions, changes checked with the form's rules and
// the spec's (core/schemas/custom-schema.ts), the uniqueness of names, archiving, the refusal to delete a
// schema a log source uses, and the tester and inference over sample logs.
import { isStreamType, type StreamType } from '../../../core/log-sources/types';
import {
  applyAttributes,
  assembleSchemaSpec,
  checkCustomSchema,
  readSpecYaml,
  type SchemaCheck,
} from '../../../core/schemas/custom-schema';
import {
  customSchemaName,
  dumpSchemaYaml,
  parserType,
  SchemaInferrer,
  type ParserType,
  type SchemaSpec,
} from '../../../core/schemas/index';
import { actorName, type Caller } from '../auth';
import { ApiError, invalidInput } from '../errors';
import { ensureLakeTables, hasLake } from '../lake';
import {
  archiveSchema as storeArchived,
  deleteSchema as removeSchema,
  getSchema,
  getSchemaRevision,
  listSchemaRevisions,
  listSchemas,
  putSchema,
  schemaNames,
  unarchiveSchema as storeUnarchived,
  type SchemaInput,
  type SchemaRecord,
} from './repository';
import { sampleRecords, testSchema, type SchemaTestReport } from './tester';

export { customSchemaSpecs, listSchemas, type CustomSchemaSpec, type SchemaRecord } from './repository';
export { runScriptParser, ScriptParserError, type ScriptParseResult } from './script-parser';

/** Who changes a schema (stamped on its revision). */
export type Actor = Pick<Caller, 'email' | 'username'>;

/** The problems of a check (InvalidInput for form fields, InvalidLogSchema for the spec). */
function refuseInvalid(check: SchemaCheck): void {
  if (Object.keys(check.fieldErrors).length > 0) throw invalidInput(check.fieldErrors);
  if (check.yamlError) {
    const where = check.yamlError.line ? ` (line ${check.yamlError.line}, column ${check.yamlError.column})` : '';
    throw new ApiError('InvalidLogSchema', `${check.yamlError.message}${where}`);
  }
  const errors = check.problems.filter((p) => p.level === 'error');
  if (errors.length > 0)
    throw invalidInput(
      errors.map((p) => ({ path: p.path, message: p.message })),
      'InvalidLogSchema',
    );
}

const text = (value: unknown, field: string, max: number): string | null => {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalidInput({ [field]: 'Must have a value' });
  if (value.length > max) throw invalidInput({ [field]: `Must be at most ${max} characters` });
  return value.trim() || null;
};

/** Spec YAML up to 256 KB (the largest managed schema is far smaller). */
const MAX_SPEC_CHARACTERS = 256 * 1024;

/** A change as received (the API's input): every field is checked here. */
export interface SchemaChange {
  readonly name: string;
  readonly description?: string | null;
  readonly referenceURL?: string | null;
  readonly spec: string;
  readonly isFieldDiscoveryEnabled?: boolean | null;
}

function readChange(change: SchemaChange): SchemaInput {
  if (
    change.isFieldDiscoveryEnabled !== undefined &&
    change.isFieldDiscoveryEnabled !== null &&
    typeof change.isFieldDiscoveryEnabled !== 'boolean'
  )
    throw invalidInput({ isFieldDiscoveryEnabled: 'Must have a value' });
  return {
    name: typeof change.name === 'string' ? change.name.trim() : '',
    description: text(change.description, 'description', 10_000),
    referenceURL: text(change.referenceURL, 'referenceURL', 2048),
    spec: text(change.spec, 'spec', MAX_SPEC_CHARACTERS) ?? '',
    isFieldDiscoveryEnabled: change.isFieldDiscoveryEnabled === true,
  };
}

/** A schema's name argument: required. */
function nameOf(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') throw invalidInput({ name: 'This field is required' });
  return name.trim();
}

/** How the schema's events are read: its parser's kind (`none` when its spec does not parse). */
export function parserTypeOf(record: SchemaRecord): ParserType {
  const read = readSpecYaml(record.spec);
  if (!read.ok) return 'none';
  const doc = applyAttributes(read.doc, record);
  return doc && typeof doc === 'object' ? parserType(doc as SchemaSpec) : 'none';
}

// ---------- reads ----------

export interface SchemaListQuery {
  /** Part of the name or description, any case. */
  readonly contains?: string;
  readonly includeArchived?: boolean;
  readonly pageSize: number;
  /** The name the page starts after. */
  readonly after?: string;
}

export interface SchemaList {
  readonly schemas: SchemaRecord[];
  /** The name the next page starts after; null on the last page. */
  readonly next: string | null;
  readonly hasPrevious: boolean;
}

/** Schemas by name, managed and custom, one page at a time. */
export async function listSchemaPage(query: SchemaListQuery): Promise<SchemaList> {
  const contains = query.contains?.trim().toLowerCase() ?? '';
  const all = await listSchemas({ includeArchived: query.includeArchived === true });
  const matching = all.filter(
    (s) => !contains || s.name.toLowerCase().includes(contains) || (s.description ?? '').toLowerCase().includes(contains),
  );
  // The list is in localeCompare order: the page starts after the cursor's name, or where it would sort.
  const after = query.after;
  const start = after === undefined ? 0 : matching.findIndex((s) => s.name.localeCompare(after) > 0);
  const schemas = start < 0 ? [] : matching.slice(start, start + query.pageSize);
  const more = start >= 0 && start + query.pageSize < matching.length;
  return { schemas, next: more ? schemas[schemas.length - 1].name : null, hasPrevious: start > 0 };
}

/** A schema, or one of its revisions; null with the reason when there is none. */
export async function findSchema(
  name: string,
  revision?: number | null,
): Promise<{ schema: SchemaRecord; error: null } | { schema: null; error: { code: string; message: string } }> {
  const wanted = typeof name === 'string' ? name.trim() : '';
  if (!wanted) return { schema: null, error: { code: 'InvalidInput', message: 'name: This field is required' } };
  if (revision !== undefined && revision !== null && (!Number.isInteger(revision) || revision < 0))
    return { schema: null, error: { code: 'InvalidInput', message: 'revision: Must be a whole number, at least 0' } };
  const record = typeof revision === 'number' ? await getSchemaRevision(wanted, revision) : await getSchema(wanted);
  if (record) return { schema: record, error: null };
  const message =
    typeof revision === 'number' ? `Schema ${wanted} has no revision ${revision}` : `There is no schema named ${wanted}`;
  return { schema: null, error: { code: 'NotFound', message } };
}

/** Every kept revision of a schema, newest first, each with the schema's archived state. */
export async function schemaRevisions(name: string): Promise<SchemaRecord[]> {
  const wanted = nameOf(name);
  const current = await getSchema(wanted);
  if (!current) throw new ApiError('NotFound', `There is no schema named ${wanted}`);
  return (await listSchemaRevisions(current.name)).map((r) => ({ ...r, isArchived: current.isArchived }));
}

// ---------- changes ----------

export async function createSchema(change: SchemaChange, actor: Actor): Promise<SchemaRecord> {
  const input = readChange(change);
  refuseInvalid(checkCustomSchema(input, { existingNames: await schemaNames() }));
  return withLakeTables(await putSchema({ ...input, name: customSchemaName(input.name) }, 0, actorName(actor)));
}

export async function updateSchema(change: SchemaChange & { readonly revision: number }, actor: Actor): Promise<SchemaRecord> {
  const input = readChange(change);
  const revision = change.revision;
  if (typeof revision !== 'number' || !Number.isInteger(revision) || revision < 1)
    throw invalidInput({ revision: 'Must be the revision you edited (1 or more)' });
  const current = await getSchema(input.name);
  if (!current) throw new ApiError('NotFound', `Schema ${input.name} does not exist`);
  if (current.isManaged) throw new ApiError('InvalidUpdate', `${current.name} is a managed schema and cannot be changed`);
  refuseInvalid(checkCustomSchema({ ...input, name: current.name }));
  return withLakeTables(await putSchema({ ...input, name: current.name }, revision, actorName(actor)));
}

/** A saved custom schema's tables in the lake's three databases (Glue, through the lake door), where there is a lake. */
async function withLakeTables(saved: SchemaRecord): Promise<SchemaRecord> {
  if (hasLake()) await ensureLakeTables(assembleSchemaSpec(saved));
  return saved;
}

export const archiveSchema = (name: string, actor: Actor) => storeArchived(nameOf(name), actorName(actor));
export const unarchiveSchema = (name: string, actor: Actor) => storeUnarchived(nameOf(name), actorName(actor));

/**
 * Deletes a custom schema no log source uses; otherwise InUse, naming the sources. `usedBy` are the sources
 * holding the schema's log type (the log sources area knows them: this area does not read sources).
 */
export async function deleteUnusedSchema(name: string, usedBy: readonly { readonly label: string }[]): Promise<{ name: string }> {
  const schema = await getSchema(nameOf(name));
  if (!schema) throw new ApiError('NotFound', `Schema ${nameOf(name)} does not exist`);
  if (schema.isManaged) throw new ApiError('InvalidUpdate', `${schema.name} is a managed schema and cannot be deleted`);
  if (usedBy.length > 0) {
    const labels = usedBy.map((u) => `'${u.label}'`).join(', ');
    throw new ApiError(
      'InUse',
      `Schema ${schema.name} is used by the log source${usedBy.length === 1 ? '' : 's'} ${labels}: remove it from ${usedBy.length === 1 ? 'that source' : 'those sources'} first, or archive the schema instead.`,
    );
  }
  await removeSchema(schema.name);
  return { name: nameOf(name) };
}

// ---------- samples ----------

/** Events the tester answers at most. */
const MAX_TEST_EVENTS = 1000;
/** The log type of events the tester parses (p_log_type). */
const TESTED_NAME = 'Custom.Tested';

/** Sample logs as received, with how they split into events. */
export interface SampleInput {
  readonly samples: string;
  readonly streamType: StreamType;
}

function samplesOf(input: SampleInput): { samples: string; streamType: StreamType } {
  if (!isStreamType(input.streamType)) throw invalidInput({ streamType: 'Must have a value' });
  if (typeof input.samples !== 'string' || input.samples.trim() === '') throw invalidInput({ samples: 'This field is required' });
  return { samples: input.samples, streamType: input.streamType };
}

export interface SchemaTrial extends SchemaTestReport {
  /** Events beyond MAX_TEST_EVENTS were left out. */
  readonly truncated: boolean;
}

/** Parses sample logs with a spec the user is writing: every event and every failure with its line. */
export async function trySchema(
  input: SampleInput & { readonly spec: string; readonly isFieldDiscoveryEnabled?: boolean | null },
): Promise<SchemaTrial> {
  const { samples, streamType } = samplesOf(input);
  if (typeof input.spec !== 'string') throw invalidInput({ spec: 'This field is required' });
  const check = checkCustomSchema({
    name: TESTED_NAME,
    spec: input.spec,
    isFieldDiscoveryEnabled: input.isFieldDiscoveryEnabled === true,
  });
  refuseInvalid({ ...check, fieldErrors: check.fieldErrors.spec ? { spec: check.fieldErrors.spec } : {} });
  const report = await testSchema(check.spec!, samples, streamType);
  return { ...report, events: report.events.slice(0, MAX_TEST_EVENTS), truncated: report.events.length > MAX_TEST_EVENTS };
}

export interface InferredSchema {
  /** The fields found, as schema YAML. */
  readonly spec: string;
  /** JSON objects read. */
  readonly events: number;
  readonly failures: { lineNumber: number; message: string }[];
}

/** A starting schema for JSON sample logs: the fields of every object, with each line that is not one. */
export async function inferSchema(input: SampleInput): Promise<InferredSchema> {
  const { samples, streamType } = samplesOf(input);
  const records = await sampleRecords(samples, streamType);
  const inferrer = new SchemaInferrer();
  const failures: { lineNumber: number; message: string }[] = [];
  for (const record of records) {
    if ('error' in record) {
      failures.push({ lineNumber: record.lineNumber, message: record.error });
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(record.text);
    } catch {
      failures.push({ lineNumber: record.lineNumber, message: 'not JSON: only JSON logs can be inferred from' });
      continue;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      failures.push({ lineNumber: record.lineNumber, message: 'not a JSON object' });
      continue;
    }
    inferrer.add(value as Record<string, unknown>);
  }
  if (inferrer.count === 0)
    throw invalidInput({ samples: 'No JSON objects to infer a schema from (one JSON object per line, or a JSON array)' });
  return { spec: dumpSchemaYaml({ fields: inferrer.fields() } as SchemaSpec), events: inferrer.count, failures };
}
