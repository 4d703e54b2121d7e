// Schemas (graphql/schemas.graphql): managed and custom schemas, revisions, the tester and inference. Each
// schema answers with the log sources holding its log type (from the log sources area).
import { logTypeUsers } from '../../../lib/log-sources';
import {
  archiveSchema,
  createSchema,
  deleteUnusedSchema,
  findSchema,
  inferSchema,
  listSchemaPage,
  schemaRevisions,
  trySchema,
  unarchiveSchema,
  updateSchema,
  type SchemaRecord,
} from '../../../lib/schemas';
import { schemaLogSources, toApiSchema, toApiSchemaTestResult } from '../../presenters/schema';
import { connection, decodeCursor, inputOf, pageSizeOf, type PageRule } from '../arguments';
import { defineResolvers } from '../types';

export const SCHEMAS_PAGE: PageRule = { default: 1000, max: 1000 };

/** A change's answer: the schema with the sources holding it. */
const answer = async (record: SchemaRecord) => toApiSchema(record, await logTypeUsers());

export const schemaResolvers = defineResolvers({
  'Query.schemas': async (event) => {
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
      (s) => toApiSchema(s, users),
    );
  },
  'Query.getSchema': async (event) => {
    const input = inputOf(event);
    const found = await findSchema(input.name, input.revision);
    return found.schema ? { schema: toApiSchema(found.schema, await logTypeUsers()), error: null } : found;
  },
  'Query.schemaRevisions': async (event) => {
    const [revisions, users] = await Promise.all([schemaRevisions(event.arguments.name), logTypeUsers()]);
    return revisions.map((r) => toApiSchema(r, users));
  },
  'Query.testSchema': async (event) => toApiSchemaTestResult(await trySchema(inputOf(event))),
  'Query.inferSchema': (event) => inferSchema(inputOf(event)),
  // A new schema's log type is held by no source yet.
  'Mutation.createSchema': async (event, caller) => toApiSchema(await createSchema(inputOf(event), caller), new Map()),
  'Mutation.updateSchema': async (event, caller) => answer(await updateSchema(inputOf(event), caller)),
  'Mutation.archiveSchema': async (event, caller) => answer(await archiveSchema(event.arguments.name, caller)),
  'Mutation.unarchiveSchema': async (event, caller) => answer(await unarchiveSchema(event.arguments.name, caller)),
  'Mutation.deleteSchema': async (event) => {
    const name = event.arguments.name;
    const users = typeof name === 'string' ? schemaLogSources(await logTypeUsers(), name.trim()) : [];
    return deleteUnusedSchema(
      name,
      users.map((u) => ({ label: u.integrationLabel })),
    );
  },
});
