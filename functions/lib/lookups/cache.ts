// The tables the log processor enriches with, held per container in their compact form: the list of tables
// is read (one Query) at most once a minute, and a table's data is read from S3 only when its version
// changed, never per event. A table that fails to load keeps its previous data.
import { Enricher, type LoadedTable } from '../../../core/lookups/index';
import { listTables } from './repository';
import { loadTableData } from './service';
import { readVersion } from './storage';

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

// --- Tables for event.lookup in detections --------------------------------------------------------------

/** A table as the engine takes it for `event.lookup(table, key)`: rows by key. */
export interface EngineLookupTable {
  readonly keyType: 'STRING' | 'CIDR';
  readonly rows: Record<string, Record<string, unknown>>;
}

/** At most this much JSON of lookup tables travels with one engine request (Lambda takes 6 MB). */
export const MAX_ENGINE_LOOKUP_BYTES = 2 * 1024 * 1024;
let engineHeld = new Map<string, { version: number; table: EngineLookupTable; bytes: number }>();
let engineList: { at: number; tables: Awaited<ReturnType<typeof listTables>> } | undefined;

/** The names of lookup tables content reads with `.lookup('<name>', ...)` (core: the detections area finds them too). */
export { lookupNamesIn } from '../../../core/lookups/content-names';

/**
 * The enabled tables named, as data for the engine: read once per version per container (the list at most
 * once a minute); tables past MAX_ENGINE_LOOKUP_BYTES in all are left out (and logged), so event.lookup
 * answers None for them.
 */
export async function engineLookups(
  names: readonly string[],
  now = Date.now(),
  log: (line: string) => void = () => {},
): Promise<Record<string, EngineLookupTable> | undefined> {
  if (!names.length) return undefined;
  if (!engineList || now - engineList.at >= CHECK_EVERY_MS) engineList = { at: now, tables: await listTables() };
  const out: Record<string, EngineLookupTable> = {};
  let total = 0;
  for (const table of engineList.tables) {
    if (!names.includes(table.name) || !table.enabled || !table.version) continue;
    let held = engineHeld.get(table.id);
    if (!held || held.version !== table.version) {
      const rows: Record<string, Record<string, unknown>> = {};
      for (const row of await readVersion(table.versions[0].objectKey)) {
        const key = row[table.primaryKey];
        if (key !== undefined && key !== null) rows[String(key)] = row;
      }
      const data: EngineLookupTable = { keyType: table.keyType === 'CIDR' ? 'CIDR' : 'STRING', rows };
      held = { version: table.version, table: data, bytes: Buffer.byteLength(JSON.stringify(data)) };
      engineHeld.set(table.id, held);
    }
    if (total + held.bytes > MAX_ENGINE_LOOKUP_BYTES) {
      log(`lookup table ${table.name} (${held.bytes} bytes) is left out of detections' event.lookup: past the size bound`);
      continue;
    }
    total += held.bytes;
    out[table.name] = held.table;
  }
  return Object.keys(out).length ? out : undefined;
}

/** Forgets the tables held for detections (tests). */
export function resetEngineLookups(): void {
  engineHeld = new Map();
  engineList = undefined;
}
