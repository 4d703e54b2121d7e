// Athena SQL → DuckDB SQL, for the Athena stand-in. The search service and the PantherFlow compiler's Athena
// dialect write Athena (Trino) SQL; where DuckDB spells a thing differently the stand-in rewrites it here, on
// tokens (strings and quoted names are never touched), or defines a macro of the Athena name. Every case is
// listed in TRANSLATIONS and tested (tests/local/athena-translate.test.ts).
import { tokenizeSql, type SqlToken } from '../../../core/search/sql/tokens';

export interface Translation {
  readonly athena: string;
  readonly duckdb: string;
}

/** Functions DuckDB has under another name (same arguments). */
const RENAMED: Readonly<Record<string, string>> = {
  regexp_like: 'regexp_matches',
  to_unixtime: 'epoch',
  approx_distinct: 'approx_count_distinct',
  approx_percentile: 'quantile_cont',
  sequence: 'generate_series',
  cardinality: 'len',
  transform: 'list_transform',
  arrays_overlap: 'list_has_any',
  from_unixtime: 'to_timestamp',
  // Trino counts whole units elapsed; DuckDB's date_diff counts boundaries crossed, its date_sub whole units.
  date_diff: 'date_sub',
};

/** Functions the stand-in defines as macros (DuckDB has none by that name, or one with other arguments). */
const MACROS: Readonly<Record<string, string>> = {
  element_at: 'athena_element_at(a, i) AS a[i]',
  json_extract_scalar: `athena_json_extract_scalar(j, p) AS json_extract_string(j, regexp_replace(p, '\\["((?:[^"\\\\]|\\\\.)*)"\\]', '."\\1"', 'g'))`,
  json_extract: `athena_json_extract(j, p) AS json_extract(j, regexp_replace(p, '\\["((?:[^"\\\\]|\\\\.)*)"\\]', '."\\1"', 'g'))`,
  json_format: 'athena_json_format(j) AS CAST(j AS VARCHAR)',
  json_parse: 'athena_json_parse(s) AS CAST(s AS JSON)',
  parse_duration: `athena_parse_duration(s) AS to_milliseconds(CAST(regexp_extract(s, '^(\\d+)ms$', 1) AS BIGINT))`,
  from_iso8601_timestamp: "athena_from_iso8601_timestamp(s) AS CAST(CAST(s AS TIMESTAMPTZ) AT TIME ZONE 'UTC' AS TIMESTAMP)",
  array_except: 'athena_array_except(a, b) AS list_filter(list_distinct(a), x -> NOT list_contains(b, x))',
  regexp_replace: `athena_regexp_replace(s, p, r := '') AS regexp_replace(s, p, regexp_replace(r, '\\$(\\d)', '\\\\\\1', 'g'), 'g')`,
  date_add: `athena_date_add(unit, n, t) AS CASE lower(unit)
      WHEN 'millisecond' THEN t + to_milliseconds(CAST(n AS BIGINT)) WHEN 'second' THEN t + to_seconds(CAST(n AS BIGINT))
      WHEN 'minute' THEN t + to_minutes(CAST(n AS BIGINT)) WHEN 'hour' THEN t + to_hours(CAST(n AS BIGINT))
      WHEN 'day' THEN t + to_days(CAST(n AS INTEGER)) WHEN 'week' THEN t + to_weeks(CAST(n AS INTEGER))
      WHEN 'month' THEN t + to_months(CAST(n AS INTEGER)) WHEN 'quarter' THEN t + to_months(3 * CAST(n AS INTEGER))
      WHEN 'year' THEN t + to_years(CAST(n AS INTEGER)) END`,
};

/**
 * IP address functions, which DuckDB has only in its inet extension (not installed offline): the stand-in
 * defines them as functions of its own (local/services/athena/index.ts, over core/lookups/cidr.ts).
 *   athena_ipaddress(text)          the address text, or NULL when it is not an address (TRY_CAST ... AS IPADDRESS)
 *   athena_ip_in_cidr(cidr, text)   contains(cidr, address)
 */
export const IP_FUNCTIONS = { address: 'athena_ipaddress', inCidr: 'athena_ip_in_cidr' } as const;

/** The macros to create in the stand-in's database, once. */
export const MACRO_DEFINITIONS: readonly string[] = Object.values(MACROS).map((m) => `CREATE OR REPLACE MACRO ${m}`);

/** Every rewrite, Athena spelling → DuckDB spelling (documentation and the test's list). */
export const TRANSLATIONS: readonly Translation[] = [
  { athena: 'db.public.table (Panther-style three-part names)', duckdb: 'db.table' },
  { athena: 'awsdatacatalog.db.table', duckdb: 'db.table' },
  { athena: 'array(T) (type)', duckdb: 'T[]' },
  { athena: 'interval day to second (type)', duckdb: 'INTERVAL' },
  { athena: 'CAST(x AS IPADDRESS), TRY_CAST(x AS IPADDRESS)', duckdb: `${IP_FUNCTIONS.address}(x) (function)` },
  { athena: "contains('<cidr>', address)", duckdb: `${IP_FUNCTIONS.inCidr}('<cidr>', address) (function)` },
  ...Object.entries(RENAMED).map(([athena, duckdb]) => ({ athena: `${athena}()`, duckdb: `${duckdb}()` })),
  ...Object.keys(MACROS).map((athena) => ({ athena: `${athena}()`, duckdb: `athena_${athena}() (macro)` })),
];

const isName = (t: SqlToken | undefined) => !!t && (t.kind === 'word' || t.kind === 'quoted');
const isWord = (t: SqlToken | undefined, upper: string) => !!t && t.kind === 'word' && t.upper === upper;
const isPunct = (t: SqlToken | undefined, text: string) => !!t && t.kind === 'punct' && t.text === text;

/** The index of the `)` closing the `(` at `open`, or -1. */
function closing(tokens: readonly SqlToken[], open: number): number {
  let depth = 0;
  for (let j = open; j < tokens.length; j++) {
    if (isPunct(tokens[j], '(')) depth++;
    if (isPunct(tokens[j], ')') && --depth === 0) return j;
  }
  return -1;
}

/** Athena SQL → the DuckDB SQL the stand-in runs. */
export function athenaToDuckdb(sql: string): string {
  const tokens = tokenizeSql(sql);
  const edits: { start: number; end: number; text: string }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const prev = tokens[i - 1];
    const afterDot = isPunct(prev, '.');
    // names: drop `public.` between a database and a table, and the catalog prefix
    if (isWord(t, 'PUBLIC') && afterDot && isName(tokens[i - 2]) && isPunct(tokens[i + 1], '.') && isName(tokens[i + 2])) {
      edits.push({ start: t.at, end: tokens[i + 1].end, text: '' });
      continue;
    }
    if (
      (isWord(t, 'AWSDATACATALOG') || (t.kind === 'quoted' && t.text === 'awsdatacatalog')) &&
      !afterDot &&
      isPunct(tokens[i + 1], '.')
    ) {
      edits.push({ start: t.at, end: tokens[i + 1].end, text: '' });
      continue;
    }
    if (t.kind !== 'word' || afterDot) continue;
    // types
    if (
      t.upper === 'INTERVAL' &&
      isWord(tokens[i + 1], 'DAY') &&
      isWord(tokens[i + 2], 'TO') &&
      isWord(tokens[i + 3], 'SECOND')
    ) {
      edits.push({ start: t.at, end: tokens[i + 3].end, text: 'INTERVAL' });
      i += 3;
      continue;
    }
    if (!isPunct(tokens[i + 1], '(')) continue;
    const lower = t.text.toLowerCase();
    if (lower === 'cast' || lower === 'try_cast') {
      // CAST(x AS IPADDRESS): the function of the stand-in; x is translated as the loop goes on
      const close = closing(tokens, i + 1);
      if (close > 0 && isWord(tokens[close - 1], 'IPADDRESS') && isWord(tokens[close - 2], 'AS')) {
        edits.push({ start: t.at, end: t.end, text: IP_FUNCTIONS.address });
        edits.push({ start: tokens[close - 2].at, end: tokens[close - 1].end, text: '' });
      }
      continue;
    }
    if (lower === 'contains' && tokens[i + 2]?.kind === 'string' && tokens[i + 2].text.includes('/')) {
      // contains(network, address): a network is a CIDR text (contains(array, x) keeps DuckDB's own)
      edits.push({ start: t.at, end: t.end, text: IP_FUNCTIONS.inCidr });
      continue;
    }
    if (lower === 'array') {
      // array(T) as a type (ARRAY[...] is a constructor and stays)
      let depth = 0;
      let j = i + 1;
      for (; j < tokens.length; j++) {
        if (isPunct(tokens[j], '(')) depth++;
        if (isPunct(tokens[j], ')') && --depth === 0) break;
      }
      if (j >= tokens.length) continue;
      const inner = athenaToDuckdb(sql.slice(tokens[i + 1].end, tokens[j].at));
      edits.push({ start: t.at, end: tokens[j].end, text: `${inner}[]` });
      i = j;
      continue;
    }
    if (RENAMED[lower]) edits.push({ start: t.at, end: t.end, text: RENAMED[lower] });
    else if (MACROS[lower]) edits.push({ start: t.at, end: t.end, text: `athena_${lower}` });
  }
  let out = '';
  let at = 0;
  edits.sort((a, b) => a.start - b.start);
  for (const e of edits) {
    out += sql.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + sql.slice(at);
}
