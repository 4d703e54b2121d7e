// Which log sources use which schemas: a source lists its log types, and each is a schema's name.
import { everySource } from '../log-sources/repository';

export interface SchemaUser {
  readonly integrationId: string;
  readonly integrationLabel: string;
}

/** The sources using each schema, keyed by the schema's lowercased name. */
export async function schemaUsers(): Promise<Map<string, SchemaUser[]>> {
  const users = new Map<string, SchemaUser[]>();
  for (const source of await everySource()) {
    for (const logType of new Set(source.logTypes)) {
      const key = logType.toLowerCase();
      const list = users.get(key) ?? [];
      list.push({ integrationId: source.id, integrationLabel: source.label });
      users.set(key, list);
    }
  }
  for (const list of users.values()) list.sort((a, b) => a.integrationLabel.localeCompare(b.integrationLabel));
  return users;
}

/** The sources using one schema. */
export async function usersOf(name: string): Promise<SchemaUser[]> {
  return (await schemaUsers()).get(name.toLowerCase()) ?? [];
}
