// Read-only SQL: one SELECT or WITH over the lake's databases; every other statement, engine command, file or
// URL reader and foreign table is refused with its own message, and strings or quoted names never trip it.
import { describe, expect, it } from 'vitest';
import {
  SQL_EMPTY,
  SQL_FILE_SOURCE,
  SQL_ONE_STATEMENT,
  SQL_SELECT_ONLY,
  checkReadOnlySql,
  sqlForbiddenFunction,
  sqlForbiddenTable,
  sqlForbiddenWord,
} from '../../../core/search/sql/guard';

const refused = (sql: string) => {
  const r = checkReadOnlySql(sql);
  return r.ok ? 'accepted' : r.error;
};

describe('checkReadOnlySql refuses', () => {
  const cases: [string, string][] = [
    ['', SQL_EMPTY],
    ['  -- only a comment', SQL_EMPTY],
    ['SELECT 1 FROM panther_logs.t; SELECT 2', SQL_ONE_STATEMENT],
    ['SELECT 1;;DROP TABLE x', SQL_ONE_STATEMENT],
    ['DROP TABLE panther_logs.aws_cloudtrail', SQL_SELECT_ONLY],
    ['CREATE TABLE x AS SELECT 1', SQL_SELECT_ONLY],
    ['ALTER TABLE panther_logs.t ADD COLUMN c int', SQL_SELECT_ONLY],
    ['INSERT INTO panther_logs.t SELECT * FROM panther_logs.t', SQL_SELECT_ONLY],
    ['UPDATE panther_logs.t SET a = 1', SQL_SELECT_ONLY],
    ['DELETE FROM panther_logs.t', SQL_SELECT_ONLY],
    ["COPY (SELECT 1) TO '/tmp/x.csv'", SQL_SELECT_ONLY],
    ["ATTACH '/tmp/other.db' AS other", SQL_SELECT_ONLY],
    ['PRAGMA enable_profiling', SQL_SELECT_ONLY],
    ['INSTALL httpfs', SQL_SELECT_ONLY],
    ['LOAD httpfs', SQL_SELECT_ONLY],
    ['SET threads = 1', SQL_SELECT_ONLY],
    ['SHOW TABLES', SQL_SELECT_ONLY],
    ['WITH x AS (SELECT 1) INSERT INTO panther_logs.t SELECT * FROM x', sqlForbiddenWord('INSERT')],
    ['SELECT * INTO newtable FROM panther_logs.t', sqlForbiddenWord('INTO')],
    ["SELECT * FROM read_csv('/etc/passwd')", sqlForbiddenFunction('read_csv')],
    ["SELECT * FROM read_json_auto('x.json')", sqlForbiddenFunction('read_json_auto')],
    ["SELECT * FROM read_parquet('s3://other-bucket/x.parquet')", sqlForbiddenFunction('read_parquet')],
    ["SELECT * FROM glob('/home/*')", sqlForbiddenFunction('glob')],
    ["SELECT * FROM parquet_scan('x')", sqlForbiddenFunction('parquet_scan')],
    ["SELECT * FROM sqlite_scan('x.db', 't')", sqlForbiddenFunction('sqlite_scan')],
    ["SELECT getenv('AWS_SECRET_ACCESS_KEY')", sqlForbiddenFunction('getenv')],
    ['SELECT * FROM duckdb_settings()', sqlForbiddenFunction('duckdb_settings')],
    ["SELECT * FROM query('SELECT 1')", sqlForbiddenFunction('query')],
    ["SELECT * FROM 'data.csv'", SQL_FILE_SOURCE],
    ["SELECT * FROM 'https://example.com/a.parquet'", SQL_FILE_SOURCE],
    ['SELECT * FROM information_schema.tables', sqlForbiddenTable('information_schema.tables')],
    ['SELECT * FROM other_db.t', sqlForbiddenTable('other_db.t')],
    ['SELECT * FROM othercatalog.panther_logs.t', sqlForbiddenTable('othercatalog.panther_logs.t')],
    ['SELECT * FROM panther_logs.private.t', sqlForbiddenTable('panther_logs.private.t')],
    ['SELECT * FROM aws_cloudtrail', sqlForbiddenTable('aws_cloudtrail')],
    ['SELECT * FROM panther_logs.t JOIN system.runtime.nodes n ON TRUE', sqlForbiddenTable('system.runtime.nodes')],
    ['SELECT * FROM panther_logs.t, pg_catalog.pg_user', sqlForbiddenTable('pg_catalog.pg_user')],
    ["SELECT 'unterminated", 'A string is not closed'],
  ];
  for (const [sql, message] of cases) it(JSON.stringify(sql), () => expect(refused(sql)).toBe(message));
});

describe('checkReadOnlySql accepts', () => {
  const cases: [string, string[]][] = [
    ['SELECT * FROM panther_logs.aws_cloudtrail', ['panther_logs.aws_cloudtrail']],
    ['select * from "panther_logs"."aws_cloudtrail" t where t.a = 1;', ['panther_logs.aws_cloudtrail']],
    ['SELECT * FROM panther_logs.public.aws_cloudtrail', ['panther_logs.aws_cloudtrail']],
    ['SELECT * FROM awsdatacatalog.panther_signals.okta_systemlog', ['panther_signals.okta_systemlog']],
    [
      'WITH a AS (SELECT * FROM panther_logs.x), b(c) AS (SELECT 1) SELECT * FROM a JOIN b ON TRUE, panther_rule_errors.y',
      ['panther_logs.x', 'panther_rule_errors.y'],
    ],
    ['SELECT \'DROP TABLE x; DELETE\', "insert" FROM panther_logs.t -- ; drop', ['panther_logs.t']],
    ["SELECT replace(a, 'x', 'y'), t.u FROM panther_logs.t CROSS JOIN UNNEST(t.arr) AS u(v)", ['panther_logs.t']],
    ['SELECT * FROM (SELECT * FROM panther_logs.t) s', ['panther_logs.t']],
  ];
  for (const [sql, tables] of cases)
    it(sql, () => {
      const r = checkReadOnlySql(sql);
      expect(r.ok ? r.tables : r.error).toEqual(tables);
    });
});

describe('every table of a FROM clause is checked', () => {
  it.each([
    ['SELECT * FROM panther_logs.t JOIN panther_logs.u ON TRUE, information_schema.tables', 'information_schema.tables'],
    ['SELECT * FROM panther_logs.t a LEFT JOIN (SELECT * FROM panther_logs.s) b ON a.x IN (1, 2), other.t2', 'other.t2'],
    ['SELECT * FROM panther_logs.t a LEFT JOIN (SELECT * FROM secrets.s) b ON TRUE', 'secrets.s'],
    ['SELECT * FROM panther_logs.t WHERE x IN (SELECT y FROM other.t)', 'other.t'],
  ])('%s', (sql, table) => expect(refused(sql)).toBe(sqlForbiddenTable(table)));
});
