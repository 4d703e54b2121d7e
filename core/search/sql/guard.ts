// Read-only SQL over the lake, decided from the parse tree: a user's query is one SELECT (or WITH ... SELECT,
// or VALUES) statement; every table it reads is a common table expression in scope where it is named, or a
// table of the lake's databases; every function it calls is one of Athena's (functions.ts). The SQL that runs
// is the tree written back (print.ts), each lake table read through the caller's ranged read, so no text of
// the user's reaches an engine except as a quoted name or string.
import { LOGS_DATABASE, RULE_ERRORS_DATABASE, SIGNALS_DATABASE } from '../../lake/layout';
import { SEARCH_FUNCTIONS } from './functions';
import { SQL_FILE_SOURCE, SqlError, parseQuery, sqlForbiddenFunction } from './parse';
import { quoteName } from '../../lake/sql-text';
import { printQuery } from './print';
import type { Expr, OrderItem, Query, QueryBody, Relation, WindowSpec } from './tree';

/** The databases user SQL may read. */
export const LAKE_DATABASES: readonly string[] = [LOGS_DATABASE, SIGNALS_DATABASE, RULE_ERRORS_DATABASE];

export const sqlForbiddenTable = (name: string) =>
  `${name} is not a table of the data lake (databases ${LAKE_DATABASES.join(', ')})`;

/** A lake table a query reads: `database.table`, as Glue names it. */
export interface LakeTableRef {
  readonly database: string;
  readonly table: string;
}

/** A query that may run: its tree, the lake tables it reads (`db.table`) and each table reference's table. */
export interface CheckedSql {
  readonly ok: true;
  readonly query: Query;
  readonly tables: readonly string[];
  readonly refs: ReadonlyMap<Relation, LakeTableRef>;
}

export type SqlCheck = CheckedSql | { readonly ok: false; readonly error: string };

/** Whether `sql` is one read-only query over the lake's databases; its tree and tables when it is. */
export function checkReadOnlySql(sql: string): SqlCheck {
  try {
    const query = parseQuery(sql);
    const refs = new Map<Relation, LakeTableRef>();
    new Checker(refs).query(query, []);
    const tables = [...new Set([...refs.values()].map((r) => `${r.database}.${r.table}`))];
    return { ok: true, query, tables, refs };
  } catch (e) {
    if (e instanceof SqlError) return { ok: false, error: e.message };
    if (e instanceof RangeError) return { ok: false, error: 'The query is too complex to read' };
    throw e;
  }
}

/**
 * The SQL that runs for a checked query: the tree written back, each lake table reference replaced by
 * `read(database, table)` (a parenthesised query of that table) under the reference's alias, or the table's
 * name when it has none.
 */
export function lakeSql(checked: CheckedSql, read: (database: string, table: string) => string): string {
  return printQuery(checked.query, (relation) => {
    const ref = checked.refs.get(relation);
    const alias = relation.alias ?? (ref ? { name: ref.table } : undefined);
    const written = ref ? `(${read(ref.database, ref.table)})` : relation.name.map(quoteName).join('.');
    return `${written}${alias ? ` AS ${quoteName(alias.name)}${alias.columns ? `(${alias.columns.map(quoteName).join(', ')})` : ''}` : ''}`;
  });
}

/** `db.table`, `db.public.table`, `awsdatacatalog.db.table` → the lake table; undefined when not the lake's. */
function lakeTable(parts: readonly string[]): LakeTableRef | undefined {
  const p = parts.map((x) => x.toLowerCase());
  if (p.length === 3 && p[0] === 'awsdatacatalog') p.shift();
  else if (p.length === 3 && p[1] === 'public') p.splice(1, 1);
  // a lake table's name is a log type's lake name (core/lake/layout tableName): letters, digits, underscores
  if (p.length !== 2 || !LAKE_DATABASES.includes(p[0]) || !/^[a-z0-9_]{1,255}$/.test(p[1])) return undefined;
  return { database: p[0], table: p[1] };
}

/** Walks a tree with the common table expressions in scope at each place, checking tables and functions. */
class Checker {
  constructor(private readonly refs: Map<Relation, LakeTableRef>) {}

  query(q: Query, scope: readonly string[]): void {
    let inner = scope;
    for (const cte of q.ctes) {
      // A CTE sees the ones before it, not itself (no recursion) nor the ones after.
      this.query(cte.query, inner);
      inner = [...inner, cte.name.toLowerCase()];
    }
    this.body(q.body, inner);
    this.orderItems(q.orderBy, inner);
  }

  private body(b: QueryBody, scope: readonly string[]): void {
    switch (b.kind) {
      case 'nested':
        return this.query(b.query, scope);
      case 'values':
        return b.rows.forEach((r) => this.expr(r, scope));
      case 'setop':
        this.body(b.left, scope);
        return this.body(b.right, scope);
      case 'select':
        for (const r of b.from) this.relation(r, scope);
        for (const i of b.items) if (i.kind === 'expr') this.expr(i.expr, scope);
        if (b.where) this.expr(b.where, scope);
        for (const g of b.groupBy?.elements ?? []) {
          if (g.kind === 'expr') this.expr(g.expr, scope);
          else if (g.kind === 'sets') g.sets.forEach((s) => s.forEach((e) => this.expr(e, scope)));
          else g.exprs.forEach((e) => this.expr(e, scope));
        }
        if (b.having) this.expr(b.having, scope);
        for (const w of b.windows) this.window(w.spec, scope);
    }
  }

  private relation(r: Relation, scope: readonly string[]): void {
    switch (r.kind) {
      case 'table': {
        if (r.name.length === 1 && scope.includes(r.name[0].toLowerCase())) return;
        const ref = lakeTable(r.name);
        if (!ref) throw new SqlError(sqlForbiddenTable(r.name.join('.')));
        this.refs.set(r, ref);
        return;
      }
      case 'subquery':
        return this.query(r.query, scope);
      case 'unnest':
        return r.args.forEach((e) => this.expr(e, scope));
      case 'parenthesized':
        return this.relation(r.relation, scope);
      case 'join':
        this.relation(r.left, scope);
        this.relation(r.right, scope);
        if (r.on) this.expr(r.on, scope);
    }
  }

  private orderItems(items: readonly OrderItem[], scope: readonly string[]): void {
    for (const o of items) this.expr(o.expr, scope);
  }

  private window(w: WindowSpec, scope: readonly string[]): void {
    w.partitionBy.forEach((e) => this.expr(e, scope));
    this.orderItems(w.orderBy, scope);
    if (w.frame?.start.kind === 'PRECEDING' || w.frame?.start.kind === 'FOLLOWING') this.expr(w.frame.start.offset, scope);
    if (w.frame?.end?.kind === 'PRECEDING' || w.frame?.end?.kind === 'FOLLOWING') this.expr(w.frame.end.offset, scope);
  }

  private expr(e: Expr, scope: readonly string[]): void {
    switch (e.kind) {
      case 'call':
        if (!SEARCH_FUNCTIONS.has(e.name)) throw new SqlError(sqlForbiddenFunction(e.name));
        e.args.forEach((a) => this.expr(a, scope));
        this.orderItems(e.orderBy, scope);
        if (e.filter) this.expr(e.filter, scope);
        if (e.over && typeof e.over !== 'string') this.window(e.over, scope);
        return;
      case 'field':
        return this.expr(e.base, scope);
      case 'subscript':
        this.expr(e.base, scope);
        return this.expr(e.index, scope);
      case 'cast':
      case 'extract':
        return this.expr(e.expr, scope);
      case 'case':
        if (e.operand) this.expr(e.operand, scope);
        for (const w of e.whens) {
          this.expr(w.when, scope);
          this.expr(w.then, scope);
        }
        if (e.else) this.expr(e.else, scope);
        return;
      case 'unary':
        return this.expr(e.expr, scope);
      case 'binary':
        this.expr(e.left, scope);
        return this.expr(e.right, scope);
      case 'between':
        [e.expr, e.low, e.high].forEach((x) => this.expr(x, scope));
        return;
      case 'in':
        this.expr(e.expr, scope);
        return e.list.forEach((x) => this.expr(x, scope));
      case 'inQuery':
        this.expr(e.expr, scope);
        return this.query(e.query, scope);
      case 'like':
        this.expr(e.expr, scope);
        this.expr(e.pattern, scope);
        if (e.escape) this.expr(e.escape, scope);
        return;
      case 'isNull':
        return this.expr(e.expr, scope);
      case 'isDistinct':
        this.expr(e.left, scope);
        return this.expr(e.right, scope);
      case 'quantified':
        this.expr(e.left, scope);
        return this.query(e.query, scope);
      case 'exists':
      case 'subquery':
        return this.query(e.query, scope);
      case 'row':
      case 'array':
        return e.items.forEach((x) => this.expr(x, scope));
      case 'lambda':
        return this.expr(e.body, scope);
      case 'atTimeZone':
        this.expr(e.expr, scope);
        return this.expr(e.zone, scope);
      default:
        return;
    }
  }
}

export { SQL_EMPTY, SQL_NUL, SQL_ONE_STATEMENT, SQL_SELECT_ONLY, SQL_TOO_DEEP, sqlForbiddenWord } from './parse';
export { SQL_FILE_SOURCE, sqlForbiddenFunction, SqlError };
