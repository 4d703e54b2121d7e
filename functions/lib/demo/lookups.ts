// The demo's lookup tables (demo/lookups: a Tor exit list and threat-intelligence indicators, documentation
// addresses only), created as a user would create them from a file, so the demo's events are enriched
// (p_enrichment) and the demo detection that reads the enrichment raises an alert. Given by the seed call (the
// host reads the bundled files); a table whose name is taken is left as it is.
import type { LookupTableInput } from '../../../core/lookups/index';
import { ApiError } from '../errors';
import { createLookupTableFromText } from '../lookups';

export interface DemoLookupTable {
  readonly input: LookupTableInput;
  readonly fileName: string;
  readonly text: string;
}

/** Creates each table; answers the names created (those already there are not). */
export async function seedDemoLookups(tables: unknown, now = new Date()): Promise<string[]> {
  if (tables === undefined) return [];
  if (!Array.isArray(tables)) throw new Error('lookupTables must be a list of { input, fileName, text }');
  const created: string[] = [];
  for (const table of tables as DemoLookupTable[]) {
    if (!table || typeof table.fileName !== 'string' || typeof table.text !== 'string' || !table.input)
      throw new Error('each demo lookup table needs input, fileName and text');
    try {
      await createLookupTableFromText(table.input, { fileName: table.fileName, text: table.text }, 'demo@caracal.local', now);
      created.push(table.input.name);
    } catch (err) {
      if (!(err instanceof ApiError && err.errorType === 'AlreadyExists')) throw err;
    }
  }
  return created;
}
