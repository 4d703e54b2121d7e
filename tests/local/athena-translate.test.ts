// The Athena stand-in runs the PantherFlow compiler's Athena dialect on DuckDB: every rows fixture of the
// PantherFlow tests, compiled for Athena and translated, gives the rows the DuckDB dialect gives. The list of
// translations is pinned, so a new spelling difference is added knowingly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../core/pantherflow/compiler';
import { openLake, type LakeEngine } from '../../local/services/athena/duckdb';
import { MACRO_DEFINITIONS, TRANSLATIONS, athenaToDuckdb } from '../../local/services/athena/translate';
import { LAKE_DIR, loadCases } from '../core/pantherflow/golden';

interface RowsCase {
  name: string;
  query: string;
  unordered?: boolean;
  rows?: unknown[];
}

const NOW = '2024-05-02T12:00:00Z';
const cases = loadCases<RowsCase>('rows.yaml');
let lake: LakeEngine;

beforeAll(async () => {
  lake = await openLake(LAKE_DIR);
  for (const macro of MACRO_DEFINITIONS) await lake.query(macro);
});
afterAll(() => lake.close());

/** Athena gives timestamps without trailing zero fractions the same as DuckDB does; compare values as JSON. */
const canonical = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).sort();

describe('Athena dialect on the stand-in (DuckDB)', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const result = compile(c.query, { catalog: lake.catalog, dialect: 'athena', now: NOW });
      if (!result.ok) throw new Error(result.diagnostics.map((d) => d.message).join('\n'));
      const rows = await lake.query(athenaToDuckdb(result.query.sql));
      if (c.unordered) expect(canonical(rows)).toEqual(canonical(c.rows ?? []));
      else expect(rows).toEqual(c.rows);
    });
  }
});

describe('athenaToDuckdb', () => {
  it('lists every translation', () => {
    expect(TRANSLATIONS.map((t) => `${t.athena} → ${t.duckdb}`)).toMatchInlineSnapshot(`
      [
        "db.public.table (Panther-style three-part names) → db.table",
        "awsdatacatalog.db.table → db.table",
        "array(T) (type) → T[]",
        "interval day to second (type) → INTERVAL",
        "CAST(x AS IPADDRESS), TRY_CAST(x AS IPADDRESS) → athena_ipaddress(x) (function)",
        "contains('<cidr>', address) → athena_ip_in_cidr('<cidr>', address) (function)",
        "regexp_like() → regexp_matches()",
        "to_unixtime() → epoch()",
        "approx_distinct() → approx_count_distinct()",
        "approx_percentile() → quantile_cont()",
        "sequence() → generate_series()",
        "cardinality() → len()",
        "transform() → list_transform()",
        "arrays_overlap() → list_has_any()",
        "from_unixtime() → to_timestamp()",
        "date_diff() → date_sub()",
        "element_at() → athena_element_at() (macro)",
        "json_extract_scalar() → athena_json_extract_scalar() (macro)",
        "json_extract() → athena_json_extract() (macro)",
        "json_format() → athena_json_format() (macro)",
        "json_parse() → athena_json_parse() (macro)",
        "parse_duration() → athena_parse_duration() (macro)",
        "from_iso8601_timestamp() → athena_from_iso8601_timestamp() (macro)",
        "array_except() → athena_array_except() (macro)",
        "regexp_replace() → athena_regexp_replace() (macro)",
        "date_add() → athena_date_add() (macro)",
      ]
    `);
  });

  it('rewrites names, types and functions but never strings or quoted names', () => {
    expect(athenaToDuckdb(`SELECT regexp_like(a, 'regexp_like(') FROM panther_logs.public.t WHERE "cardinality" = 1`)).toBe(
      `SELECT regexp_matches(a, 'regexp_like(') FROM panther_logs.t WHERE "cardinality" = 1`,
    );
    expect(athenaToDuckdb(`SELECT CAST(x AS array(array(varchar))), ARRAY[1] FROM awsdatacatalog.panther_logs.t`)).toBe(
      `SELECT CAST(x AS varchar[][]), ARRAY[1] FROM panther_logs.t`,
    );
    expect(athenaToDuckdb(`SELECT CAST(NULL AS interval day to second)`)).toBe(`SELECT CAST(NULL AS INTERVAL)`);
  });
});
