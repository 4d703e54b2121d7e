// Enrichment at ingestion: for an event of a log type associated with lookup tables, every selector's values
// are looked up in its table and the matching rows are added as `p_enrichment.<table>.<selector>` (one row,
// or a list of rows when the selector reaches several values), in the lake and in what detections see.
import type { LookupData } from './data';
import { parseSelector, selectValues, type Selector } from './selectors';

export interface LoadedTable {
  name: string;
  data: LookupData;
  associations: { logType: string; selectors: string[] }[];
}

interface Binding {
  table: string;
  data: LookupData;
  selector: Selector;
}

export class Enricher {
  private readonly byLogType = new Map<string, Binding[]>();
  private readonly tables = new Map<string, LookupData>();

  constructor(tables: LoadedTable[]) {
    for (const table of tables) {
      this.tables.set(table.name, table.data);
      for (const association of table.associations) {
        let bindings = this.byLogType.get(association.logType);
        if (!bindings) this.byLogType.set(association.logType, (bindings = []));
        for (const text of association.selectors)
          bindings.push({ table: table.name, data: table.data, selector: parseSelector(text) });
      }
    }
  }

  /** Whether events of the log type are enriched at all. */
  enriches(logType: string): boolean {
    return this.byLogType.has(logType);
  }

  /** Adds `p_enrichment` to the event (in place) and answers whether anything matched. */
  enrich(logType: string, event: Record<string, unknown>): boolean {
    const bindings = this.byLogType.get(logType);
    if (!bindings) return false;
    let enrichment: Record<string, Record<string, unknown>> | undefined;
    for (const binding of bindings) {
      const values = selectValues(event, binding.selector);
      if (!values.length) continue;
      let found: unknown;
      if (binding.selector.many || values.length > 1) {
        const rows: Record<string, unknown>[] = [];
        for (const value of values) {
          const row = binding.data.lookup(value);
          if (row) rows.push(row);
        }
        if (rows.length) found = rows;
      } else found = binding.data.lookup(values[0]);
      if (found === undefined) continue;
      enrichment ??= {};
      (enrichment[binding.table] ??= {})[binding.selector.text] = found;
    }
    if (!enrichment) return false;
    const existing = event.p_enrichment;
    event.p_enrichment =
      existing && typeof existing === 'object' && !Array.isArray(existing)
        ? { ...(existing as object), ...enrichment }
        : enrichment;
    return true;
  }

  /** `event.lookup(table, key)`: the row of a table matching a key, or undefined. */
  lookup(table: string, key: string): Record<string, unknown> | undefined {
    return this.tables.get(table)?.lookup(key);
  }

  get tableNames(): string[] {
    return [...this.tables.keys()];
  }
}
