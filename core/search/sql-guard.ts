// Read-only SQL: what a user may run against the lake is exactly one SELECT (or WITH ... SELECT) statement over
// the lake's databases. Checked on tokens (strings, quoted names and comments are read as such, so a keyword
// inside a string is no keyword): one statement, no DDL or DML, no engine commands, no table functions that
// read files or URLs, no table outside the lake's databases.
import { LOGS_DATABASE, RULE_ERRORS_DATABASE, SIGNALS_DATABASE } from '../lake/layout';

/** A token: its kind, text (unquoted for strings and quoted names) and offsets in the SQL (end exclusive). */
export type SqlToken = (
  | { readonly kind: 'word'; readonly text: string; readonly upper: string }
  | { readonly kind: 'quoted'; readonly text: string }
  | { readonly kind: 'string'; readonly text: string }
  | { readonly kind: 'number'; readonly text: string }
  | { readonly kind: 'punct'; readonly text: string }
) & { readonly at: number; end: number };

export class SqlTokenError extends Error {}

/** SQL text → tokens (comments dropped); throws SqlTokenError on an unterminated string, name or comment. */
export function tokenizeSql(sql: string): SqlToken[] {
  const out: SqlToken[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      if (end < 0) throw new SqlTokenError('A comment is not closed');
      i = end + 2;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      let text = '';
      for (;;) {
        if (j >= sql.length) throw new SqlTokenError(c === "'" ? 'A string is not closed' : 'A quoted name is not closed');
        if (sql[j] === c) {
          if (sql[j + 1] === c) {
            text += c;
            j += 2;
            continue;
          }
          break;
        }
        text += sql[j++];
      }
      out.push({ kind: c === "'" ? 'string' : 'quoted', text, at: i, end: j + 1 });
      i = j + 1;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(sql.slice(i))![0];
      out.push({ kind: 'word', text: m, upper: m.toUpperCase(), at: i, end: i + m.length });
      i += m.length;
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(sql[i + 1] ?? ''))) {
      const m = /^[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?/.exec(sql.slice(i))![0];
      out.push({ kind: 'number', text: m, at: i, end: i + m.length });
      i += m.length;
    } else {
      const two = sql.slice(i, i + 2);
      const text = ['<=', '>=', '<>', '!=', '||', '->', '::'].includes(two) ? two : c;
      out.push({ kind: 'punct', text, at: i, end: i + text.length });
      i += text.length;
    }
  }
  return out;
}

/** The databases user SQL may read. */
export const LAKE_DATABASES: readonly string[] = [LOGS_DATABASE, SIGNALS_DATABASE, RULE_ERRORS_DATABASE];

/** Words that start or are part of statements other than a query, and engine commands. */
const FORBIDDEN_WORDS = new Set([
  'INSERT', 'UPDATE', 'DELETE', 'MERGE', 'UPSERT', 'CREATE', 'DROP', 'ALTER', 'TRUNCATE', 'RENAME',
  'GRANT', 'REVOKE', 'COPY', 'ATTACH', 'DETACH', 'PRAGMA', 'INSTALL', 'LOAD', 'SET', 'RESET', 'CALL', 'EXECUTE',
  'PREPARE', 'DEALLOCATE', 'EXPORT', 'IMPORT', 'VACUUM', 'CHECKPOINT', 'USE', 'UNLOAD', 'MSCK', 'REPAIR',
  'COMMENT', 'ANALYZE', 'OPTIMIZE', 'BEGIN', 'COMMIT', 'ROLLBACK', 'TRANSACTION', 'SUMMARIZE', 'DESCRIBE', 'SHOW',
  'EXPLAIN', 'INTO',
]); // prettier-ignore

/** Functions that read files, URLs, other engines or the engine's own state. */
const FORBIDDEN_FUNCTION =
  /^(read_\w*|\w*_scan|\w*_scan_\w*|glob|parquet_\w+|sniff_csv|httpfs\w*|http_\w+|getenv|query|query_table|duckdb_\w+|pragma_\w+|which_secret|load_extension|current_setting|sqlite_\w+|postgres_\w+|mysql_\w+|iceberg_\w+|delta_\w+|system\$\w+)$/i;

export const SQL_ONE_STATEMENT = 'Only one statement may run: remove the ";" and what follows it';
export const SQL_SELECT_ONLY = 'Only a SELECT (or WITH ... SELECT) query may run';
export const SQL_EMPTY = 'Write a query to run';
export const sqlForbiddenWord = (word: string) => `${word} is not allowed: searches only read the data lake`;
export const sqlForbiddenFunction = (name: string) => `${name}() is not allowed: searches read only the lake's tables`;
export const sqlForbiddenTable = (name: string) =>
  `${name} is not a table of the data lake (databases ${LAKE_DATABASES.join(', ')})`;
export const SQL_FILE_SOURCE = "Reading a file or URL is not allowed: searches read only the lake's tables";

/** A lake table named in the query: where (offsets in the text, end exclusive) and which (`db.table`). */
export interface TableRef {
  readonly start: number;
  readonly end: number;
  readonly database: string;
  readonly table: string;
}

export type SqlCheck =
  | { readonly ok: true; readonly tables: readonly string[]; readonly refs: readonly TableRef[] }
  | { readonly ok: false; readonly error: string };

/** Whether `sql` is one read-only query over the lake's databases; its tables (`db.table`) when it is. */
export function checkReadOnlySql(sql: string): SqlCheck {
  let tokens: SqlToken[];
  try {
    tokens = tokenizeSql(sql);
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
  while (tokens.length && tokens[tokens.length - 1].text === ';' && tokens[tokens.length - 1].kind === 'punct') tokens.pop();
  if (!tokens.length) return { ok: false, error: SQL_EMPTY };
  if (tokens.some((t) => t.kind === 'punct' && t.text === ';')) return { ok: false, error: SQL_ONE_STATEMENT };
  const first = tokens.find((t) => !(t.kind === 'punct' && t.text === '('));
  if (!first || first.kind !== 'word' || (first.upper !== 'SELECT' && first.upper !== 'WITH'))
    return { ok: false, error: SQL_SELECT_ONLY };
  const ctes = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const next = tokens[i + 1];
    if (t.kind === 'word' && FORBIDDEN_WORDS.has(t.upper)) return { ok: false, error: sqlForbiddenWord(t.upper) };
    if ((t.kind === 'word' || t.kind === 'quoted') && next?.kind === 'punct' && next.text === '(') {
      if (FORBIDDEN_FUNCTION.test(t.text)) return { ok: false, error: sqlForbiddenFunction(t.text) };
    }
    // `name AS (` in a WITH clause names a CTE.
    if (t.kind === 'word' && t.upper === 'AS' && next?.kind === 'punct' && next.text === '(') {
      const name = tokens[i - 1];
      if (name && (name.kind === 'word' || name.kind === 'quoted')) ctes.add(name.text.toLowerCase());
    }
  }
  // Column-list CTEs: WITH name(a, b) AS (...)
  for (let i = 0; i + 1 < tokens.length; i++) {
    const t = tokens[i];
    if (
      (t.kind === 'word' || t.kind === 'quoted') &&
      tokens[i + 1].text === '(' &&
      (i === 0 || ['WITH', ','].includes(upper(tokens[i - 1])))
    ) {
      let depth = 0;
      let j = i + 1;
      for (; j < tokens.length; j++) {
        if (tokens[j].text === '(') depth++;
        if (tokens[j].text === ')' && --depth === 0) break;
      }
      if (upper(tokens[j + 1]) === 'AS') ctes.add(t.text.toLowerCase());
    }
  }
  const tables: string[] = [];
  const refs: TableRef[] = [];
  // Depth of parentheses at each token, to read each FROM clause at its own level.
  const depths: number[] = [];
  let depth = 0;
  for (const t of tokens) {
    if (t.kind === 'punct' && t.text === ')') depth--;
    depths.push(depth);
    if (t.kind === 'punct' && t.text === '(') depth++;
  }
  /** Reads a table reference starting at `j`; returns an error, or undefined. */
  const readRef = (j: number): string | undefined => {
    const ref = tokens[j];
    if (!ref) return undefined;
    if (ref.kind === 'string') return SQL_FILE_SOURCE;
    if (ref.kind !== 'word' && ref.kind !== 'quoted') return undefined; // a subquery or a parenthesised join
    if (ref.kind === 'word' && (ref.upper === 'UNNEST' || ref.upper === 'LATERAL')) return undefined;
    const parts = [ref.text];
    let k = j + 1;
    while (isPunct(tokens[k], '.') && (tokens[k + 1]?.kind === 'word' || tokens[k + 1]?.kind === 'quoted')) {
      parts.push(tokens[k + 1].text);
      k += 2;
    }
    if (isPunct(tokens[k], '(')) return sqlForbiddenFunction(parts.join('.'));
    const table = lakeTable(parts, ctes);
    if (table === undefined) return sqlForbiddenTable(parts.join('.'));
    if (table) {
      tables.push(table);
      const [database, name] = table.split('.');
      refs.push({ start: ref.at, end: tokens[k - 1].end, database, table: name });
    }
    return undefined;
  };
  for (let i = 0; i < tokens.length; i++) {
    if (upper(tokens[i]) !== 'FROM') continue;
    const level = depths[i];
    let error = readRef(i + 1);
    for (let j = i + 1; !error && j < tokens.length; j++) {
      if (depths[j] < level) break;
      if (depths[j] > level) continue;
      const u = upper(tokens[j]);
      if (FROM_ENDS.has(u)) break;
      if (u === 'JOIN' || u === ',') error = readRef(j + 1);
    }
    if (error) return { ok: false, error };
  }
  return { ok: true, tables: [...new Set(tables)], refs };
}

/** Words that end a FROM clause at its level. */
const FROM_ENDS = new Set([
  'WHERE',
  'GROUP',
  'ORDER',
  'LIMIT',
  'OFFSET',
  'HAVING',
  'UNION',
  'INTERSECT',
  'EXCEPT',
  'WINDOW',
  'QUALIFY',
  'FETCH',
  'SELECT',
]);

const isPunct = (t: SqlToken | undefined, text: string) => !!t && t.kind === 'punct' && t.text === text;

const upper = (t: SqlToken | undefined) => (t && t.kind === 'word' ? t.upper : t?.kind === 'punct' ? t.text : '');

/** `db.table`, `db.public.table`, `awsdatacatalog.db.table` → `db.table`; '' for a CTE; undefined when not the lake's. */
function lakeTable(parts: string[], ctes: Set<string>): string | undefined {
  const p = parts.map((x) => x.toLowerCase());
  if (p.length === 1) return ctes.has(p[0]) ? '' : undefined;
  let [db, schema, table] = p.length === 2 ? [p[0], undefined, p[1]] : p.length === 3 ? [p[0], p[1], p[2]] : [];
  if (p.length === 3 && db === 'awsdatacatalog') [db, schema, table] = [p[1], undefined, p[2]];
  if (!db || !table || !LAKE_DATABASES.includes(db)) return undefined;
  if (schema !== undefined && schema !== 'public') return undefined;
  return `${db}.${table}`;
}
