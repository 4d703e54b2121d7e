// Schema changes with every rule applied: the form's rules and the spec's (core/schemas/custom-schema.ts),
// the uniqueness of names, and the refusal to delete a schema a log source uses.
import { checkCustomSchema, type SchemaCheck } from '../../../core/schemas/custom-schema';
import { customSchemaName } from '../../../core/schemas/index';
import { ApiError } from '../errors';
import {
  deleteSchema as removeSchema,
  getSchema,
  putSchema,
  schemaNames,
  type SchemaInput,
  type SchemaRecord,
} from './repository';
import { usersOf } from './usage';

/** The problems of a check as one message (InvalidInput for form fields, InvalidLogSchema for the spec). */
export function refuseInvalid(check: SchemaCheck): void {
  const fields = Object.entries(check.fieldErrors);
  if (fields.length > 0) throw new ApiError('InvalidInput', fields.map(([field, message]) => `${field}: ${message}`).join('; '));
  if (check.yamlError) {
    const where = check.yamlError.line ? ` (line ${check.yamlError.line}, column ${check.yamlError.column})` : '';
    throw new ApiError('InvalidLogSchema', `${check.yamlError.message}${where}`);
  }
  const errors = check.problems.filter((p) => p.level === 'error');
  if (errors.length > 0)
    throw new ApiError('InvalidLogSchema', errors.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join('; '));
}

const text = (value: unknown, field: string, max: number): string | null => {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new ApiError('InvalidInput', `${field}: Must have a value`);
  if (value.length > max) throw new ApiError('InvalidInput', `${field}: Must be at most ${max} characters`);
  return value.trim() || null;
};

/** Spec YAML up to 256 KB (the largest managed schema is far smaller). */
export const MAX_SPEC_CHARACTERS = 256 * 1024;

export interface SchemaChange {
  readonly name: unknown;
  readonly description?: unknown;
  readonly referenceURL?: unknown;
  readonly spec?: unknown;
  readonly isFieldDiscoveryEnabled?: unknown;
}

function readChange(change: SchemaChange): SchemaInput {
  if (
    change.isFieldDiscoveryEnabled !== undefined &&
    change.isFieldDiscoveryEnabled !== null &&
    typeof change.isFieldDiscoveryEnabled !== 'boolean'
  )
    throw new ApiError('InvalidInput', 'isFieldDiscoveryEnabled: Must have a value');
  return {
    name: typeof change.name === 'string' ? change.name.trim() : '',
    description: text(change.description, 'description', 10_000),
    referenceURL: text(change.referenceURL, 'referenceURL', 2048),
    spec: text(change.spec, 'spec', MAX_SPEC_CHARACTERS) ?? '',
    isFieldDiscoveryEnabled: change.isFieldDiscoveryEnabled === true,
  };
}

export async function createSchema(change: SchemaChange, actor: string): Promise<SchemaRecord> {
  const input = readChange(change);
  refuseInvalid(checkCustomSchema(input, { existingNames: await schemaNames() }));
  return putSchema({ ...input, name: customSchemaName(input.name) }, 0, actor);
}

export async function updateSchema(change: SchemaChange & { revision?: unknown }, actor: string): Promise<SchemaRecord> {
  const input = readChange(change);
  const revision = change.revision;
  if (typeof revision !== 'number' || !Number.isInteger(revision) || revision < 1)
    throw new ApiError('InvalidInput', 'revision: Must be the revision you edited (1 or more)');
  const current = await getSchema(input.name);
  if (!current) throw new ApiError('NotFound', `Schema ${input.name} does not exist`);
  if (current.isManaged) throw new ApiError('InvalidUpdate', `${current.name} is a managed schema and cannot be changed`);
  refuseInvalid(checkCustomSchema({ ...input, name: current.name }));
  return putSchema({ ...input, name: current.name }, revision, actor);
}

/** Deletes a custom schema no log source uses; otherwise InUse, naming the sources. */
export async function deleteUnusedSchema(name: string): Promise<void> {
  const schema = await getSchema(name);
  if (!schema) throw new ApiError('NotFound', `Schema ${name} does not exist`);
  if (schema.isManaged) throw new ApiError('InvalidUpdate', `${schema.name} is a managed schema and cannot be deleted`);
  const users = await usersOf(schema.name);
  if (users.length > 0) {
    const labels = users.map((u) => `'${u.integrationLabel}'`).join(', ');
    throw new ApiError(
      'InUse',
      `Schema ${schema.name} is used by the log source${users.length === 1 ? '' : 's'} ${labels}: remove it from ${users.length === 1 ? 'that source' : 'those sources'} first, or archive the schema instead.`,
    );
  }
  await removeSchema(schema.name);
}
