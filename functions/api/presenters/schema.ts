// A schema as the API answers it: its parser's kind and the log sources holding its log type (from the log
// sources area), and a tester's run with each event as JSON text.
import type { LogTypeUsers } from '../../lib/log-sources';
import { parserTypeOf, type SchemaRecord, type SchemaTrial } from '../../lib/schemas';
import type * as Api from '../../lib/graphql-types';

/** The log sources holding a schema's log type, as the API names them. */
export const schemaLogSources = (users: LogTypeUsers, name: string): Api.SchemaLogSource[] =>
  (users.get(name.toLowerCase()) ?? []).map((u) => ({ integrationId: u.id, integrationLabel: u.label }));

export const toApiSchema = (record: SchemaRecord, users: LogTypeUsers): Api.Schema => ({
  ...record,
  parserType: parserTypeOf(record),
  logSources: schemaLogSources(users, record.name),
});

export const toApiSchemaTestResult = (trial: SchemaTrial): Api.SchemaTestResult => ({
  events: trial.events.map((e) => ({ lineNumber: e.lineNumber, event: JSON.stringify(e.event) })),
  failures: trial.failures,
  records: trial.records,
  truncated: trial.truncated,
  discoveredSpec: trial.discoveredSpec,
});
