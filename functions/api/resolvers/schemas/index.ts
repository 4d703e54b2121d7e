// Schemas (graphql/schemas.graphql): managed and custom schemas, revisions, the tester and inference.
import { isStreamType } from '../../../../core/log-sources/types';
import { applyAttributes, checkCustomSchema, readSpecYaml } from '../../../../core/schemas/custom-schema';
import { dumpSchemaYaml, parserType, SchemaInferrer, type SchemaSpec } from '../../../../core/schemas/index';
import type { AppSyncResolverEvent } from '../../../lib/appsync';
import type { Caller } from '../../../lib/auth/caller';
import { ApiError } from '../../../lib/errors';
import {
  archiveSchema,
  getSchema as readSchema,
  getSchemaRevision,
  listSchemaRevisions,
  listSchemas,
  unarchiveSchema,
  type SchemaRecord,
} from '../../../lib/schemas/repository';
import { createSchema, deleteUnusedSchema, refuseInvalid, updateSchema, type SchemaChange } from '../../../lib/schemas/service';
import { sampleRecords, testSchema as runTest } from '../../../lib/schemas/tester';
import { schemaUsers, usersOf, type SchemaUser } from '../../../lib/schemas/usage';
import type { ResolverMap } from '../types';

type Args = Record<string, unknown>;
const PAGE_MAX = 1000;
const MAX_TEST_EVENTS = 1000;
/** The log type of events the tester parses (p_log_type). */
const TESTED_NAME = 'Custom.Tested';

function parserOf(record: SchemaRecord): string {
  const read = readSpecYaml(record.spec);
  if (!read.ok) return 'none';
  const doc = applyAttributes(read.doc, record);
  return doc && typeof doc === 'object' ? parserType(doc as SchemaSpec) : 'none';
}

const toApi = (record: SchemaRecord, logSources: SchemaUser[]) => ({ ...record, parserType: parserOf(record), logSources });

const nameArg = (event: AppSyncResolverEvent<Args>): string => {
  const name = event.arguments.name;
  if (typeof name !== 'string' || name.trim() === '') throw new ApiError('InvalidInput', 'name: This field is required');
  return name.trim();
};

const inputArg = (event: AppSyncResolverEvent<Args>): Args => {
  const input = event.arguments.input;
  if (!input || typeof input !== 'object') throw new ApiError('InvalidInput', 'input: This field is required');
  return input as Args;
};

async function schemas(event: AppSyncResolverEvent<Args>) {
  const input = (event.arguments.input ?? {}) as Args;
  const first = input.first === undefined || input.first === null ? PAGE_MAX : Number(input.first);
  if (!Number.isInteger(first) || first < 1 || first > PAGE_MAX)
    throw new ApiError('InvalidInput', `first: Must be between 1 and ${PAGE_MAX}`);
  const contains = typeof input.contains === 'string' ? input.contains.trim().toLowerCase() : '';
  const after = typeof input.after === 'string' ? input.after : null;
  const [all, users] = await Promise.all([listSchemas({ includeArchived: input.includeArchived === true }), schemaUsers()]);
  const matching = all.filter(
    (s) => !contains || s.name.toLowerCase().includes(contains) || (s.description ?? '').toLowerCase().includes(contains),
  );
  // The list is in localeCompare order: the page starts after the cursor's name, or where it would sort.
  const start = after === null ? 0 : matching.findIndex((s) => s.name.localeCompare(after) > 0);
  const page = start < 0 ? [] : matching.slice(start, start + first);
  const hasNextPage = start >= 0 && start + first < matching.length;
  return {
    edges: page.map((s) => ({ cursor: s.name, node: toApi(s, users.get(s.name.toLowerCase()) ?? []) })),
    pageInfo: {
      startCursor: page[0]?.name ?? null,
      endCursor: page.at(-1)?.name ?? null,
      hasNextPage,
      hasPreviousPage: start > 0,
    },
  };
}

async function getSchema(event: AppSyncResolverEvent<Args>) {
  const input = inputArg(event);
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (!name) return { schema: null, error: { code: 'InvalidInput', message: 'name: This field is required' } };
  const revision = input.revision;
  if (revision !== undefined && revision !== null && (!Number.isInteger(revision) || (revision as number) < 0))
    return { schema: null, error: { code: 'InvalidInput', message: 'revision: Must be a whole number, at least 0' } };
  const record = typeof revision === 'number' ? await getSchemaRevision(name, revision) : await readSchema(name);
  if (!record) {
    const what = typeof revision === 'number' ? `Schema ${name} has no revision ${revision}` : `There is no schema named ${name}`;
    return { schema: null, error: { code: 'NotFound', message: what } };
  }
  return { schema: toApi(record, await usersOf(record.name)), error: null };
}

async function schemaRevisions(event: AppSyncResolverEvent<Args>) {
  const name = nameArg(event);
  const current = await readSchema(name);
  if (!current) throw new ApiError('NotFound', `There is no schema named ${name}`);
  const users = await usersOf(current.name);
  return (await listSchemaRevisions(current.name)).map((r) => toApi({ ...r, isArchived: current.isArchived }, users));
}

function streamTypeOf(input: Args) {
  if (!isStreamType(input.streamType)) throw new ApiError('InvalidInput', 'streamType: Must have a value');
  return input.streamType;
}

function samplesOf(input: Args): string {
  if (typeof input.samples !== 'string' || input.samples.trim() === '')
    throw new ApiError('InvalidInput', 'samples: This field is required');
  return input.samples;
}

async function testSchema(event: AppSyncResolverEvent<Args>) {
  const input = inputArg(event);
  const streamType = streamTypeOf(input);
  const samples = samplesOf(input);
  if (typeof input.spec !== 'string') throw new ApiError('InvalidInput', 'spec: This field is required');
  const check = checkCustomSchema({
    name: TESTED_NAME,
    spec: input.spec,
    isFieldDiscoveryEnabled: input.isFieldDiscoveryEnabled === true,
  });
  refuseInvalid({ ...check, fieldErrors: check.fieldErrors.spec ? { spec: check.fieldErrors.spec } : {} });
  const report = await runTest(check.spec!, samples, streamType);
  return {
    events: report.events.slice(0, MAX_TEST_EVENTS).map((e) => ({ lineNumber: e.lineNumber, event: JSON.stringify(e.event) })),
    failures: report.failures,
    records: report.records,
    truncated: report.events.length > MAX_TEST_EVENTS,
    discoveredSpec: report.discoveredSpec,
  };
}

async function inferSchema(event: AppSyncResolverEvent<Args>) {
  const input = inputArg(event);
  const records = await sampleRecords(samplesOf(input), streamTypeOf(input));
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
    throw new ApiError(
      'InvalidInput',
      'samples: No JSON objects to infer a schema from (one JSON object per line, or a JSON array)',
    );
  return { spec: dumpSchemaYaml({ fields: inferrer.fields() } as SchemaSpec), events: inferrer.count, failures };
}

const actor = (caller: Caller) => caller.email || caller.username;

export const schemaResolvers: ResolverMap = {
  'Query.schemas': schemas,
  'Query.getSchema': getSchema,
  'Query.schemaRevisions': schemaRevisions,
  'Query.testSchema': testSchema,
  'Query.inferSchema': inferSchema,
  'Mutation.createSchema': async (event, caller) => {
    const record = await createSchema(inputArg(event) as unknown as SchemaChange, actor(caller));
    return toApi(record, []);
  },
  'Mutation.updateSchema': async (event, caller) => {
    const record = await updateSchema(inputArg(event) as unknown as SchemaChange, actor(caller));
    return toApi(record, await usersOf(record.name));
  },
  'Mutation.archiveSchema': async (event, caller) => {
    const record = await archiveSchema(nameArg(event), actor(caller));
    return toApi(record, await usersOf(record.name));
  },
  'Mutation.unarchiveSchema': async (event, caller) => {
    const record = await unarchiveSchema(nameArg(event), actor(caller));
    return toApi(record, await usersOf(record.name));
  },
  'Mutation.deleteSchema': async (event) => {
    const name = nameArg(event);
    await deleteUnusedSchema(name);
    return { name };
  },
};
