// Schemas (graphql/schemas.graphql): managed and custom schemas, revisions, the tester and inference. Each
// schema answers with the log sources holding its log type (from the log sources area).
import type { AppSyncResolverEvent } from '../../../lib/appsync';
import type { Caller } from '../../../lib/auth';
import { logTypeUsers, type LogTypeUsers } from '../../../lib/log-sources';
import {
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
  type SchemaRecord,
} from '../../../lib/schemas';
import { connection, decodeCursor, inputOf, pageSizeOf, type Args, type PageRule } from '../arguments';
import type { ResolverMap } from '../types';

export const SCHEMAS_PAGE: PageRule = { default: 1000, max: 1000 };

/** The log sources holding a schema's log type, as the API names them. */
const sourcesOf = (users: LogTypeUsers, name: string) =>
  (users.get(name.toLowerCase()) ?? []).map((u) => ({ integrationId: u.id, integrationLabel: u.label }));

const toApi = (record: SchemaRecord, users: LogTypeUsers) => ({
  ...record,
  parserType: parserTypeOf(record),
  logSources: sourcesOf(users, record.name),
});

async function schemas(event: AppSyncResolverEvent<{ input?: Args | null }>) {
  const input = event.arguments.input ?? {};
  const pageSize = pageSizeOf(input.first, SCHEMAS_PAGE);
  const after = decodeCursor(input.after);
  const [page, users] = await Promise.all([
    listSchemaPage({
      contains: typeof input.contains === 'string' ? input.contains : undefined,
      includeArchived: input.includeArchived === true,
      pageSize,
      after,
    }),
    logTypeUsers(),
  ]);
  return connection(
    page.schemas,
    (s) => s.name,
    { next: page.next, after },
    (s) => toApi(s, users),
  );
}

async function getSchema(event: AppSyncResolverEvent<{ input?: unknown }>) {
  const input = inputOf(event);
  const found = await findSchema(input.name, input.revision);
  return found.schema ? { schema: toApi(found.schema, await logTypeUsers()), error: null } : found;
}

async function testSchema(event: AppSyncResolverEvent<{ input?: unknown }>) {
  const trial = await trySchema(inputOf(event));
  return {
    events: trial.events.map((e) => ({ lineNumber: e.lineNumber, event: JSON.stringify(e.event) })),
    failures: trial.failures,
    records: trial.records,
    truncated: trial.truncated,
    discoveredSpec: trial.discoveredSpec,
  };
}

/** A change's answer: the schema with the sources holding it. */
const answer = async (record: SchemaRecord) => toApi(record, await logTypeUsers());

export const schemaResolvers: ResolverMap = {
  'Query.schemas': schemas,
  'Query.getSchema': getSchema,
  'Query.schemaRevisions': async (event: AppSyncResolverEvent<{ name?: unknown }>) => {
    const [revisions, users] = await Promise.all([schemaRevisions(event.arguments.name), logTypeUsers()]);
    return revisions.map((r) => toApi(r, users));
  },
  'Query.testSchema': testSchema,
  'Query.inferSchema': async (event: AppSyncResolverEvent<{ input?: unknown }>) => inferSchema(inputOf(event)),
  // A new schema's log type is held by no source yet.
  'Mutation.createSchema': async (event: AppSyncResolverEvent<{ input?: unknown }>, caller: Caller) =>
    toApi(await createSchema(inputOf(event), caller), new Map()),
  'Mutation.updateSchema': async (event: AppSyncResolverEvent<{ input?: unknown }>, caller: Caller) =>
    answer(await updateSchema(inputOf(event), caller)),
  'Mutation.archiveSchema': async (event: AppSyncResolverEvent<{ name?: unknown }>, caller: Caller) =>
    answer(await archiveSchema(event.arguments.name, caller)),
  'Mutation.unarchiveSchema': async (event: AppSyncResolverEvent<{ name?: unknown }>, caller: Caller) =>
    answer(await unarchiveSchema(event.arguments.name, caller)),
  'Mutation.deleteSchema': async (event: AppSyncResolverEvent<{ name?: unknown }>) => {
    const name = event.arguments.name;
    const users = typeof name === 'string' ? sourcesOf(await logTypeUsers(), name.trim()) : [];
    return deleteUnusedSchema(
      name,
      users.map((u) => ({ label: u.integrationLabel })),
    );
  },
};
