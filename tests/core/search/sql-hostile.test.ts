// SQL that must be refused or must not reach outside the lake, by class: engine table functions and SQL runners,
// LATERAL, CTE scope, quotes inside names, comments, Unicode look-alikes, engine syntax that is not Athena's,
// settings and pragmas. Each is refused by the parse tree (core/search/sql); what is accepted is written back so
// that the engine reads the same tree: printed SQL parses to the tree it came from, and names and strings keep
// their quotes doubled.
import { describe, expect, it } from 'vitest';
import { checkReadOnlySql, lakeSql, type CheckedSql } from '../../../core/search/sql/guard';
import { parseQuery } from '../../../core/search/sql/parse';
import { printQuery } from '../../../core/search/sql/print';

const refusal = (sql: string) => {
  const r = checkReadOnlySql(sql);
  return r.ok ? 'accepted' : r.error;
};

const refused: Record<string, [string, string | RegExp][]> = {
  'table functions and SQL runners': [
    [
      "SELECT * FROM (SELECT 1) t, LATERAL json_execute_serialized_sql(json_serialize_sql('SELECT 1'))",
      'json_execute_serialized_sql() is not allowed',
    ],
    ["SELECT * FROM json_execute_serialized_sql('x')", 'json_execute_serialized_sql() is not allowed'],
    ["SELECT json_serialize_sql('SELECT 1')", 'json_serialize_sql() is not allowed'],
    ["SELECT * FROM query_table('panther_logs.t')", 'query_table() is not allowed'],
    ["SELECT * FROM sql_auto_complete('SEL')", 'sql_auto_complete() is not allowed'],
    ["SELECT content FROM read_text('/etc/passwd')", 'read_text() is not allowed'],
    ["SELECT (SELECT content FROM read_blob('/proc/self/environ'))", 'read_blob() is not allowed'],
    ["SELECT * FROM panther_logs.t WHERE a IN (SELECT * FROM read_csv_auto('x'))", 'read_csv_auto() is not allowed'],
    ['SELECT * FROM range(10)', 'range() is not allowed'],
    ['SELECT * FROM generate_series(1, 10)', 'generate_series() is not allowed'],
    ["SELECT * FROM TABLE(system.query(query => 'SELECT 1'))", 'TABLE() is not allowed'],
    ['SELECT * FROM duckdb_secrets()', 'duckdb_secrets() is not allowed'],
    ['SELECT * FROM "read_text"(\'/etc/passwd\')', 'read_text() is not allowed'],
    ['SELECT "read_text"(\'/etc/passwd\')', 'read_text() is not allowed'],
    ["SELECT * FROM panther_logs.t, LATERAL (SELECT * FROM read_text('x'))", 'read_text() is not allowed'],
    ["SELECT list_transform(ARRAY[1], x -> getenv('HOME'))", 'list_transform() is not allowed'],
    ["SELECT transform(ARRAY[1], x -> getvariable('x'))", 'getvariable() is not allowed'],
  ],
  'settings, pragmas and engine state': [
    ["SELECT current_setting('allowed_directories')", 'current_setting() is not allowed'],
    ['SELECT * FROM duckdb_settings()', 'duckdb_settings() is not allowed'],
    ["SELECT * FROM pragma_table_info('x')", 'pragma_table_info() is not allowed'],
    ['PRAGMA disable_profiling', 'Only a SELECT'],
    ['SET enable_external_access = true', 'Only a SELECT'],
    ['RESET lock_configuration', 'Only a SELECT'],
    ['CALL pragma_version()', 'Only a SELECT'],
    ['SELECT 1; SET threads = 64', 'Only one statement may run'],
    ['SELECT version()', 'version() is not allowed'],
  ],
  'CTE scope': [
    ['SELECT * FROM (WITH "/etc/passwd" AS (SELECT 1) SELECT 1) a, "/etc/passwd"', '/etc/passwd is not a table of the data lake'],
    ['WITH a AS (SELECT * FROM b), b AS (SELECT 1) SELECT * FROM a', 'b is not a table of the data lake'],
    ['WITH a AS (SELECT * FROM a) SELECT * FROM a', 'a is not a table of the data lake'],
    ['WITH RECURSIVE a(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM a) SELECT * FROM a', 'WITH RECURSIVE is not supported'],
    [
      'SELECT * FROM (SELECT 1) WHERE EXISTS (WITH x AS (SELECT 1) SELECT 1) AND 1 IN (SELECT * FROM x)',
      'x is not a table of the data lake',
    ],
  ],
  'quotes inside names': [
    [
      'SELECT * FROM panther_logs."aws_cloudtrail"" WHERE 1=1) UNION SELECT * FROM other.secrets --"',
      'is not a table of the data lake',
    ],
    ['SELECT * FROM "panther_logs"".""x"', 'is not a table of the data lake'],
    ['SELECT * FROM panther_logs."t\'"', 'is not a table of the data lake'],
    ['SELECT * FROM panther_logs."../../etc/passwd"', 'is not a table of the data lake'],
    ['SELECT * FROM "/etc/passwd"', '/etc/passwd is not a table of the data lake'],
    ["SELECT * FROM 'panther_logs/aws_cloudtrail/*.json.gz'", 'Reading a file or URL is not allowed'],
  ],
  comments: [
    ['SELECT 1 /* unclosed', 'A comment is not closed'],
    ['SELECT 1 -- ;\n; DROP TABLE x', 'Only one statement may run'],
    ['SELECT /* */ * /* FROM panther_logs.t */ FROM information_schema.tables', 'information_schema.tables is not a table'],
  ],
  'Unicode look-alikes': [
    ['ＳＥＬＥＣＴ 1', 'Only a SELECT'],
    ["SELECT rеad_text('x')", /Syntax error/], // a Cyrillic е
    ['SELECT 1 ； DROP TABLE x', /Syntax error/], // a full-width semicolon
    ['SELECT * FROM panther_logs.t\u200b; DROP TABLE x', /Syntax error|Only one statement/],
    ["SELECT 'a' ＂x＂", /Syntax error/],
  ],
  "other engines' syntax": [
    ["SELECT 'x'::varchar", /Syntax error/],
    ['SELECT $$SELECT 1$$', /Syntax error/],
    ["SELECT E'\\x41'", /Syntax error/],
    ["SELECT 'abc'.upper()", /Syntax error/],
    ['SELECT * EXCLUDE (a) FROM panther_logs.t', /Syntax error/],
    ['FROM panther_logs.t SELECT *', 'Only a SELECT'],
    ["SELECT COLUMNS('.*') FROM panther_logs.t", 'columns() is not allowed'],
    ['SELECT * FROM panther_logs.t TABLESAMPLE BERNOULLI (10)', /Syntax error/],
    ['SELECT ?', /Syntax error/],
    ['SELECT $1', /Syntax error/],
    ['DESCRIBE SELECT 1', 'Only a SELECT'],
    ['SUMMARIZE panther_logs.t', 'Only a SELECT'],
    ['SELECT * INTO x FROM panther_logs.t', 'INTO is not allowed'],
  ],
  'foreign catalogs and schemas': [
    ['SELECT * FROM information_schema.columns', 'information_schema.columns is not a table'],
    ['SELECT * FROM awsdatacatalog.information_schema.tables', 'is not a table of the data lake'],
    ['SELECT * FROM system.metadata.catalogs', 'is not a table of the data lake'],
    ['SELECT * FROM other_catalog.panther_logs.t', 'is not a table of the data lake'],
    ['SELECT * FROM panther_logs', 'panther_logs is not a table of the data lake'],
    ['SELECT * FROM main.panther_logs.t', 'is not a table of the data lake'],
  ],
  'NUL characters, where the engine would end the query': [
    ["SELECT 'a\u0000' FROM panther_logs.t", 'NUL character'],
    ['SELECT 1 AS "a\u0000b" FROM panther_logs.t', 'NUL character'],
  ],
  'size and depth': [
    [`SELECT ${'('.repeat(5000)}1${')'.repeat(5000)}`, 'The query nests too deeply'],
    [`SELECT * FROM panther_logs.t WHERE ${'NOT '.repeat(5000)} TRUE`, 'The query nests too deeply'],
  ],
};

for (const [kind, cases] of Object.entries(refused))
  describe(`refused: ${kind}`, () => {
    for (const [sql, reason] of cases)
      it(JSON.stringify(sql.slice(0, 120)), () => {
        const got = refusal(sql);
        if (typeof reason === 'string') expect(got).toContain(reason);
        else expect(got).toMatch(reason);
      });
  });

const accepted = [
  'SELECT eventName, count(*) AS n FROM panther_logs.public.aws_cloudtrail GROUP BY eventName ORDER BY n DESC LIMIT 10',
  'SELECT t.*, u.v FROM panther_logs.aws_cloudtrail t CROSS JOIN UNNEST(t.tags) WITH ORDINALITY AS u(v, i)',
  'WITH a AS (SELECT * FROM panther_logs.aws_cloudtrail), b(c) AS (SELECT 1) SELECT a.eventName, b.c FROM a JOIN b ON TRUE',
  "SELECT transform(tags, x -> upper(x)), filter(tags, (x) -> x <> 'a') FROM panther_logs.aws_cloudtrail",
  "SELECT CASE n WHEN 1 THEN 'one' ELSE 'other' END, CAST(n AS row(a bigint, b array(varchar))), TRY_CAST('x' AS decimal(10, 2)) FROM panther_logs.t",
  'SELECT row_number() OVER (PARTITION BY a ORDER BY b DESC NULLS LAST ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM panther_logs.t',
  "SELECT * FROM panther_logs.t WHERE a NOT IN ('a', 'b') AND n NOT BETWEEN 1 AND 3 AND a NOT LIKE 'C!%' ESCAPE '!' AND b IS NOT NULL",
  'SELECT count(*) FILTER (WHERE n > 1), array_agg(DISTINCT a ORDER BY a) FROM panther_logs.t GROUP BY GROUPING SETS ((a), ())',
  "SELECT p_event_time AT TIME ZONE 'UTC', EXTRACT(DOW FROM p_event_time), INTERVAL '1' DAY, DATE '2024-01-01', CURRENT_TIMESTAMP FROM panther_logs.t",
  'SELECT 1 UNION ALL (SELECT 2 EXCEPT SELECT 3) ORDER BY 1 OFFSET 1 ROWS FETCH FIRST 5 ROWS ONLY',
  "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v(x, y)",
  'SELECT n = ANY (SELECT 1), sum(n) OVER w FROM panther_logs.t WINDOW w AS (PARTITION BY a)',
  "SELECT ARRAY[1, 2][1], ROW(1, 'a'), -n, (a, b), a.b.c[1].d FROM panther_logs.t",
  'SELECT * FROM ((SELECT 1 AS a) x JOIN (SELECT 1 AS a) y USING (a))',
  'SELECT * FROM panther_logs.t t LEFT JOIN LATERAL (SELECT t.n AS m) s ON TRUE',
  'select "Select", "from" from "panther_logs"."t" "where"',
];

describe('accepted queries are written back as the tree the guard read', () => {
  for (const sql of accepted)
    it(sql.slice(0, 100), () => {
      const check = checkReadOnlySql(sql);
      if (!check.ok) throw new Error(check.error);
      const printed = printQuery(check.query, (r) => r.name.map((n) => `"${n.replace(/"/g, '""')}"`).join('.'));
      // printing is a fixed point: the printed text parses to the same tree, and prints the same again
      const again = parseQuery(printed);
      expect(printQuery(again, (r) => r.name.map((n) => `"${n.replace(/"/g, '""')}"`).join('.'))).toBe(printed);
    });
});

describe('lake tables are read through the ranged read, under their names', () => {
  const ranged = (sql: string) => {
    const check = checkReadOnlySql(sql) as CheckedSql;
    if (!check.ok) throw new Error('refused');
    return lakeSql(check, (db, table) => `SELECT * FROM ${db}.${table} WHERE RANGE`);
  };
  it('names an unaliased table after itself and keeps an alias and its columns', () => {
    expect(ranged('SELECT 1 FROM panther_logs.public.AWS_CloudTrail')).toBe(
      'SELECT 1 FROM (SELECT * FROM panther_logs.aws_cloudtrail WHERE RANGE) AS "aws_cloudtrail"',
    );
    expect(ranged('SELECT 1 FROM panther_logs.t AS x(a, "b""c")')).toBe(
      'SELECT 1 FROM (SELECT * FROM panther_logs.t WHERE RANGE) AS "x"("a", "b""c")',
    );
  });
  it('in every place a table is named: joins, subqueries, CTEs, expressions', () => {
    const sql = ranged(
      'WITH a AS (SELECT * FROM panther_logs.x) SELECT (SELECT 1 FROM panther_signals.y) FROM a JOIN panther_rule_errors.z ON EXISTS (SELECT 1 FROM panther_logs.w)',
    );
    for (const t of ['panther_logs.x', 'panther_signals.y', 'panther_rule_errors.z', 'panther_logs.w'])
      expect(sql).toContain(`(SELECT * FROM ${t} WHERE RANGE)`);
    expect(sql).toContain('FROM "a" JOIN');
  });
  it('doubles the quotes of names and strings', () => {
    expect(ranged(`SELECT 'it''s', "a""b" FROM panther_logs.t`)).toBe(
      `SELECT 'it''s', "a""b" FROM (SELECT * FROM panther_logs.t WHERE RANGE) AS "t"`,
    );
  });
});
