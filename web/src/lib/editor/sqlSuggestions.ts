// SQL completion from the lake catalog, without Monaco (so it can be tested alone): databases, then `db.` →
// its tables, then `db.table.` or a table named in the query → its columns; keywords and Athena functions.
export interface SqlCatalogDatabase {
  readonly name: string;
  readonly tables: readonly {
    readonly name: string;
    readonly columns: readonly { readonly name: string; readonly type: string }[];
  }[];
}

const KEYWORDS = [
  'SELECT',
  'FROM',
  'WHERE',
  'AND',
  'OR',
  'NOT',
  'GROUP BY',
  'ORDER BY',
  'LIMIT',
  'HAVING',
  'AS',
  'DISTINCT',
  'JOIN',
  'LEFT JOIN',
  'ON',
  'IN',
  'LIKE',
  'IS NULL',
  'IS NOT NULL',
  'BETWEEN',
  'WITH',
  'UNION ALL',
  'DESC',
  'ASC',
  'CASE',
  'WHEN',
  'THEN',
  'ELSE',
  'END',
  'CAST',
  'COUNT',
  'SUM',
  'AVG',
  'MIN',
  'MAX',
  'approx_distinct',
  'date_trunc',
  'from_iso8601_timestamp',
  'json_extract_scalar',
  'contains',
  'cardinality',
  'regexp_like',
  'lower',
  'upper',
];

export interface SqlSuggestion {
  readonly label: string;
  readonly kind: 'database' | 'table' | 'column' | 'keyword';
  readonly detail?: string;
}

/** The suggestions for the text before the cursor (pure, for tests). */
export function sqlSuggestions(before: string, fullText: string, catalog: readonly SqlCatalogDatabase[]): SqlSuggestion[] {
  const dotted = /([A-Za-z_][\w]*)(?:\.([A-Za-z_][\w]*))?\.\w*$/.exec(before);
  if (dotted) {
    const [, first, second] = dotted;
    const db = catalog.find((d) => d.name === first);
    if (db && second === undefined)
      return db.tables.map((t) => ({ label: t.name, kind: 'table', detail: `table in ${db.name}` }));
    const table = db?.tables.find((t) => t.name === second) ?? (second === undefined ? tableNamed(catalog, first) : undefined);
    if (table) return table.columns.map((c) => ({ label: c.name, kind: 'column', detail: c.type }));
    return [];
  }
  const out: SqlSuggestion[] = catalog.map((d) => ({ label: d.name, kind: 'database', detail: 'database' }));
  // Columns of the tables the query names (db.table or a bare table name).
  const seen = new Set<string>();
  for (const db of catalog)
    for (const t of db.tables)
      if (new RegExp(`\\b(${db.name}\\.)?"?${t.name}"?\\b`).test(fullText))
        for (const c of t.columns)
          if (!seen.has(c.name)) {
            seen.add(c.name);
            out.push({ label: c.name, kind: 'column', detail: `${c.type} (${t.name})` });
          }
  for (const k of KEYWORDS) out.push({ label: k, kind: 'keyword' });
  return out;
}

function tableNamed(catalog: readonly SqlCatalogDatabase[], name: string) {
  for (const db of catalog) {
    const t = db.tables.find((x) => x.name === name);
    if (t) return t;
  }
  return undefined;
}
