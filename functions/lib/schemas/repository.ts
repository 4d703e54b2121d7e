// Schemas: the managed log types (from core, read-only) and the custom schemas users write (entity table,
// ENTITY_TABLE). Every change to a custom schema is a new revision; revisions are kept.
//
// Keys (the name is lowercased in keys, so two names that differ only by case collide on the same item):
//   current    pk = SCHEMA#<lowercased name>  sk = CURRENT
//              gsi1pk = SCHEMA#LIST  gsi1sk = <lowercased name>      (lists every custom schema, by name)
//              { name, revision, description, referenceURL, spec, isFieldDiscoveryEnabled, discoveredSpec,
//                isArchived, createdAt, createdBy, updatedAt, updatedBy }
//   revision   pk = SCHEMA#<lowercased name>  sk = REV#<revision, 10 digits>   (immutable copy of a revision)
// `spec` is the YAML the user wrote (parser, fields, udm); the schema's name, description, reference URL and
// field-discovery flag are attributes of their own, applied over the YAML when the spec is assembled
// (core/schemas/custom-schema.ts). Writes are conditional on the revision the caller read, so two editors
// never overwrite each other silently (RevisionConflict).
import { BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { assembleSchemaSpec } from '../../../core/schemas/custom-schema';
import { MANAGED_SCHEMA_YAML } from '../../../core/schemas/managed/index';
import { managedSchema, managedSchemaNames, type SchemaSpec } from '../../../core/schemas/index';
import { dynamo } from '../clients';
import { batchGetItems, isConditionFailure, queryAll } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';
import { ApiError } from '../errors';

export const SCHEMA_LIST_KEY = 'SCHEMA#LIST';
export const schemaPartition = (name: string) => `SCHEMA#${name.toLowerCase()}`;
const currentKey = (name: string) => ({ pk: schemaPartition(name), sk: 'CURRENT' });
const revisionSortKey = (revision: number) => `REV#${String(revision).padStart(10, '0')}`;

/** One schema as the API shows it: a managed log type or one revision of a custom schema. */
export interface SchemaRecord {
  readonly name: string;
  /** 0 for managed schemas; custom schemas start at 1 and gain one per change. */
  readonly revision: number;
  readonly description: string | null;
  readonly referenceURL: string | null;
  /** The YAML text: the whole file for a managed schema, the parser and fields for a custom one. */
  readonly spec: string;
  readonly isFieldDiscoveryEnabled: boolean;
  /** Fields found by field discovery (YAML), when any. */
  readonly discoveredSpec: string | null;
  readonly isManaged: boolean;
  readonly isArchived: boolean;
  readonly createdAt: string | null;
  readonly createdBy: string | null;
  readonly updatedAt: string | null;
  readonly updatedBy: string | null;
}

/** What a create or update writes. */
export interface SchemaInput {
  readonly name: string;
  readonly description?: string | null;
  readonly referenceURL?: string | null;
  readonly spec: string;
  readonly isFieldDiscoveryEnabled?: boolean;
}

/** A custom schema ready for parsing: what the pipeline compiles and classifies with. */
export interface CustomSchemaSpec {
  readonly name: string;
  readonly revision: number;
  readonly isArchived: boolean;
  readonly spec: SchemaSpec;
}

interface StoredSchema {
  pk: string;
  sk: string;
  gsi1pk?: string;
  gsi1sk?: string;
  name: string;
  revision: number;
  description?: string;
  referenceURL?: string;
  spec: string;
  isFieldDiscoveryEnabled: boolean;
  discoveredSpec?: string;
  isArchived?: boolean;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string;
}

const table = () => requireEnv(ENV.entityTable);

export const isManagedSchemaName = (name: string) => Object.hasOwn(MANAGED_SCHEMA_YAML, name);

function managedRecord(name: string): SchemaRecord {
  const spec = managedSchema(name)!;
  return {
    name,
    revision: 0,
    description: spec.description ?? null,
    referenceURL: spec.referenceURL ?? null,
    spec: MANAGED_SCHEMA_YAML[name],
    isFieldDiscoveryEnabled: spec.isFieldDiscoveryEnabled === true,
    discoveredSpec: null,
    isManaged: true,
    isArchived: false,
    createdAt: null,
    createdBy: null,
    updatedAt: null,
    updatedBy: null,
  };
}

function toRecord(item: StoredSchema): SchemaRecord {
  return {
    name: item.name,
    revision: item.revision,
    description: item.description ?? null,
    referenceURL: item.referenceURL ?? null,
    spec: item.spec,
    isFieldDiscoveryEnabled: item.isFieldDiscoveryEnabled === true,
    discoveredSpec: item.discoveredSpec ?? null,
    isManaged: false,
    isArchived: item.isArchived === true,
    createdAt: item.createdAt,
    createdBy: item.createdBy,
    updatedAt: item.updatedAt,
    updatedBy: item.updatedBy,
  };
}

/** A managed schema from core, or the current revision of a custom schema; null when neither exists. */
export async function getSchema(name: string): Promise<SchemaRecord | null> {
  if (isManagedSchemaName(name)) return managedRecord(name);
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: currentKey(name), ConsistentRead: true }));
  return out.Item ? toRecord(out.Item as StoredSchema) : null;
}

async function customItems(): Promise<StoredSchema[]> {
  return queryAll<StoredSchema>({
    TableName: table(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': SCHEMA_LIST_KEY },
  });
}

/** Every schema, managed and custom, sorted by name; archived custom schemas only when asked for. */
export async function listSchemas(options: { includeArchived?: boolean } = {}): Promise<SchemaRecord[]> {
  const custom = (await customItems()).map(toRecord).filter((s) => options.includeArchived || !s.isArchived);
  const managed = managedSchemaNames().map(managedRecord);
  return [...managed, ...custom].sort((a, b) => a.name.localeCompare(b.name));
}

/** Names of every schema that exists (managed and custom, archived included): for the uniqueness rule. */
export async function schemaNames(): Promise<string[]> {
  return [...managedSchemaNames(), ...(await customItems()).map((i) => i.name)];
}

/**
 * The current revision of the custom schemas among `names`, assembled into specs the parsers compile
 * (names that are not custom schemas, or do not exist, are left out). For the pipeline.
 */
export async function customSchemaSpecs(names: readonly string[]): Promise<CustomSchemaSpec[]> {
  const wanted = [...new Set(names.filter((n) => !isManagedSchemaName(n)).map((n) => n.toLowerCase()))];
  const items = (await batchGetItems(table(), wanted.map(currentKey), { consistent: true })) as unknown as StoredSchema[];
  return items
    .map((item) => ({
      name: item.name,
      revision: item.revision,
      isArchived: item.isArchived === true,
      spec: assembleSchemaSpec(toRecord(item)),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

function contentAttributes(input: SchemaInput) {
  return {
    description: input.description || undefined,
    referenceURL: input.referenceURL || undefined,
    spec: input.spec,
    isFieldDiscoveryEnabled: input.isFieldDiscoveryEnabled === true,
  };
}

async function putRevisionCopy(item: StoredSchema): Promise<void> {
  const { pk, name, revision, description, referenceURL, spec, isFieldDiscoveryEnabled, updatedAt, updatedBy } = item;
  await dynamo().send(
    new PutCommand({
      TableName: table(),
      Item: {
        pk,
        sk: revisionSortKey(revision),
        name,
        revision,
        description,
        referenceURL,
        spec,
        isFieldDiscoveryEnabled,
        updatedAt,
        updatedBy,
      },
    }),
  );
}

/**
 * Writes a new revision of a custom schema. `expectedRevision` is the revision the caller edited (0 or
 * absent to create): a create fails with AlreadyExists when the name is taken (ignoring case), an update
 * with RevisionConflict when someone saved a newer revision meanwhile, and with NotFound when it is gone.
 * The input is stored as given: validate it first (index.ts).
 */
export async function putSchema(
  input: SchemaInput,
  expectedRevision: number,
  actor: string,
  now = new Date(),
): Promise<SchemaRecord> {
  if (isManagedSchemaName(input.name))
    throw new ApiError('InvalidUpdate', `${input.name} is a managed schema and cannot be changed`);
  const at = now.toISOString();
  if (!expectedRevision) {
    const item: StoredSchema = {
      ...currentKey(input.name),
      gsi1pk: SCHEMA_LIST_KEY,
      gsi1sk: input.name.toLowerCase(),
      name: input.name,
      revision: 1,
      ...contentAttributes(input),
      isArchived: false,
      createdAt: at,
      createdBy: actor,
      updatedAt: at,
      updatedBy: actor,
    };
    try {
      await dynamo().send(new PutCommand({ TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
    } catch (err) {
      if (isConditionFailure(err)) throw new ApiError('AlreadyExists', 'You already have a Schema with the same name');
      throw err;
    }
    await putRevisionCopy(item);
    return toRecord(item);
  }
  const content = contentAttributes(input);
  const sets: Record<string, unknown> = { ...content, revision: expectedRevision + 1, updatedAt: at, updatedBy: actor };
  const present = Object.entries(sets).filter(([, v]) => v !== undefined);
  const removed = Object.entries(sets)
    .filter(([, v]) => v === undefined)
    .map(([k]) => k);
  try {
    const out = await dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: currentKey(input.name),
        UpdateExpression:
          `SET ${present.map(([k]) => `#${k} = :${k}`).join(', ')}` +
          (removed.length ? ` REMOVE ${removed.map((k) => `#${k}`).join(', ')}` : ''),
        ConditionExpression: 'attribute_exists(pk) AND #revision = :expected',
        ExpressionAttributeNames: Object.fromEntries(Object.keys(sets).map((k) => [`#${k}`, k])),
        ExpressionAttributeValues: {
          ...Object.fromEntries(present.map(([k, v]) => [`:${k}`, v])),
          ':expected': expectedRevision,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    const item = out.Attributes as StoredSchema;
    await putRevisionCopy(item);
    return toRecord(item);
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const current = await getSchema(input.name);
    if (!current) throw new ApiError('NotFound', `Schema ${input.name} does not exist`);
    throw new ApiError(
      'RevisionConflict',
      `Schema ${current.name} was changed by ${current.updatedBy ?? 'someone else'} (now at revision ${current.revision}, you edited revision ${expectedRevision}). Reload it and apply your changes again.`,
    );
  }
}

/** Every kept revision of a custom schema, newest first (empty for a managed or unknown schema). */
export async function listSchemaRevisions(name: string): Promise<SchemaRecord[]> {
  if (isManagedSchemaName(name)) return [];
  const items = await queryAll<StoredSchema>({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :rev)',
    ExpressionAttributeValues: { ':pk': schemaPartition(name), ':rev': 'REV#' },
    ScanIndexForward: false,
  });
  return items.map((item) =>
    toRecord({ ...item, isArchived: false, createdAt: item.updatedAt, createdBy: item.updatedBy } as StoredSchema),
  );
}

async function setArchived(name: string, archived: boolean, actor: string, now: Date): Promise<SchemaRecord> {
  if (isManagedSchemaName(name)) throw new ApiError('InvalidUpdate', `${name} is a managed schema and cannot be archived`);
  try {
    const out = await dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: currentKey(name),
        UpdateExpression: 'SET isArchived = :archived, updatedAt = :at, updatedBy = :by',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':archived': archived, ':at': now.toISOString(), ':by': actor },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toRecord(out.Attributes as StoredSchema);
  } catch (err) {
    if (isConditionFailure(err)) throw new ApiError('NotFound', `Schema ${name} does not exist`);
    throw err;
  }
}

export const archiveSchema = (name: string, actor: string, now = new Date()) => setArchived(name, true, actor, now);
export const unarchiveSchema = (name: string, actor: string, now = new Date()) => setArchived(name, false, actor, now);

/**
 * Deletes a custom schema and its revisions. Whether a log source still uses it is the caller's check
 * (index.ts refuses with InUse).
 */
export async function deleteSchema(name: string): Promise<void> {
  if (isManagedSchemaName(name)) throw new ApiError('InvalidUpdate', `${name} is a managed schema and cannot be deleted`);
  try {
    await dynamo().send(
      new DeleteCommand({ TableName: table(), Key: currentKey(name), ConditionExpression: 'attribute_exists(pk)' }),
    );
  } catch (err) {
    if (isConditionFailure(err)) throw new ApiError('NotFound', `Schema ${name} does not exist`);
    throw err;
  }
  const revisions = await queryAll(
    {
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :rev)',
      ExpressionAttributeValues: { ':pk': schemaPartition(name), ':rev': 'REV#' },
      ProjectionExpression: 'pk, sk',
    },
    (i) => ({ pk: i.pk as string, sk: i.sk as string }),
  );
  await deleteKeys(revisions);
}

async function deleteKeys(all: { pk: string; sk: string }[]): Promise<void> {
  let keys = all;
  while (keys.length > 0) {
    const batch = keys.slice(0, 25);
    keys = keys.slice(25);
    const out = await dynamo().send(
      new BatchWriteCommand({ RequestItems: { [table()]: batch.map((Key) => ({ DeleteRequest: { Key } })) } }),
    );
    const unprocessed = out.UnprocessedItems?.[table()] ?? [];
    keys.push(...unprocessed.map((r) => r.DeleteRequest!.Key as { pk: string; sk: string }));
  }
}

/** One kept revision of a custom schema, or null. */
export async function getSchemaRevision(name: string, revision: number): Promise<SchemaRecord | null> {
  if (isManagedSchemaName(name)) return revision === 0 ? managedRecord(name) : null;
  const out = await dynamo().send(
    new GetCommand({
      TableName: table(),
      Key: { pk: schemaPartition(name), sk: revisionSortKey(revision) },
      ConsistentRead: true,
    }),
  );
  if (!out.Item) return null;
  const current = await getSchema(name);
  const item = out.Item as StoredSchema;
  return toRecord({
    ...item,
    isArchived: current?.isArchived === true,
    createdAt: current?.createdAt ?? item.updatedAt,
    createdBy: current?.createdBy ?? item.updatedBy,
  });
}
