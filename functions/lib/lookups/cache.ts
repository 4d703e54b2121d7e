// The tables the log processor enriches with, held per container in their compact form: the list of tables
// is read (one Query) at most once a minute, and a table's data is read from S3 only when its version
// changed, never per event. A table that fails to load keeps its previous data.
import { Enricher, type LoadedTable } from '../../../core/lookups/index';
import { listTables } from './repository';
import { loadTableData } from './service';

const CHECK_EVERY_MS = 60_000;
let loaded = new Map<string, { version: number; table: LoadedTable }>();
let enricher: Enricher | undefined;
let checkedAt = 0;

/** The current enricher, or undefined when no enabled table enriches any log type. */
export async function currentEnricher(now = Date.now(), log: (line: string) => void = () => {}): Promise<Enricher | undefined> {
  if (enricher !== undefined && now - checkedAt < CHECK_EVERY_MS) return enricher.tableNames.length ? enricher : undefined;
  checkedAt = now;
  const next = new Map<string, { version: number; table: LoadedTable }>();
  let changed = false;
  let tables;
  try {
    tables = await listTables();
  } catch (error) {
    // ingestion goes on with the tables held (or none); the list is read again at the next check
    log(`lookup tables could not be listed (${(error as Error).message}); enriching with the tables held`);
    return enricher?.tableNames.length ? enricher : undefined;
  }
  for (const table of tables) {
    if (!table.enabled || !table.version || !table.associations.length) continue;
    const held = loaded.get(table.id);
    if (held && held.version === table.version) {
      const associations = table.associations;
      if (held.table.name !== table.name || JSON.stringify(held.table.associations) !== JSON.stringify(associations))
        changed = true;
      next.set(table.id, { version: held.version, table: { ...held.table, name: table.name, associations } });
      continue;
    }
    try {
      next.set(table.id, {
        version: table.version,
        table: { name: table.name, data: await loadTableData(table), associations: table.associations },
      });
      changed = true;
    } catch (error) {
      log(
        `lookup table ${table.name}: version ${table.version} could not be loaded (${(error as Error).message}); keeping the previous data`,
      );
      if (held) next.set(table.id, held);
    }
  }
  if (next.size !== loaded.size) changed = true;
  loaded = next;
  if (changed || !enricher) enricher = new Enricher([...loaded.values()].map((v) => v.table));
  return enricher.tableNames.length ? enricher : undefined;
}

/** Forgets the held tables (tests). */
export function resetEnricherCache(): void {
  loaded = new Map();
  enricher = undefined;
  checkedAt = 0;
}
