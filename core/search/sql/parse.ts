// SQL text → the parse tree of one read-only query (tree.ts), by recursive descent over the Athena (Trino)
// query grammar: WITH, SELECT, joins, UNNEST, subqueries, set operations, window functions, lambdas, CAST,
// CASE, typed literals. Anything else (other statements, engine commands, DuckDB- or Snowflake-only syntax) is
// a SqlError with the place it was found. The tree decides what runs: print.ts writes it back, so text the
// parser did not read as part of the query never reaches an engine.
import { SqlTokenError, tokenizeSql, type SqlToken } from './tokens';
import type {
  Alias,
  Cte,
  Expr,
  FrameBound,
  GroupingElement,
  OrderItem,
  Query,
  QueryBody,
  Relation,
  Select,
  SelectItem,
  SqlType,
  WindowSpec,
} from './tree';

/** A query that cannot run, with the reason in the user's terms. */
export class SqlError extends Error {}

export const SQL_EMPTY = 'Write a query to run';
export const SQL_ONE_STATEMENT = 'Only one statement may run: remove the ";" and what follows it';
export const SQL_SELECT_ONLY = 'Only a SELECT (or WITH ... SELECT) query may run';
export const SQL_NUL = 'A string or name holds a NUL character, which a query cannot hold';
export const SQL_TOO_DEEP = 'The query nests too deeply (more than 100 levels)';
export const sqlForbiddenWord = (word: string) => `${word} is not allowed: searches only read the data lake`;

/** Words that start or belong to statements other than a query, and engine commands: named when met. */
const STATEMENT_WORDS = new Set([
  'INSERT', 'UPDATE', 'DELETE', 'MERGE', 'UPSERT', 'CREATE', 'DROP', 'ALTER', 'TRUNCATE', 'RENAME',
  'GRANT', 'REVOKE', 'COPY', 'ATTACH', 'DETACH', 'PRAGMA', 'INSTALL', 'LOAD', 'SET', 'RESET', 'CALL', 'EXECUTE',
  'PREPARE', 'DEALLOCATE', 'EXPORT', 'IMPORT', 'VACUUM', 'CHECKPOINT', 'USE', 'UNLOAD', 'MSCK', 'REPAIR',
  'COMMENT', 'ANALYZE', 'OPTIMIZE', 'BEGIN', 'COMMIT', 'ROLLBACK', 'TRANSACTION', 'SUMMARIZE', 'DESCRIBE', 'SHOW',
  'EXPLAIN', 'INTO',
]); // prettier-ignore

/** Trino's reserved words (they name no column or table unless quoted), with the clause words of a query. */
const RESERVED = new Set([
  'ALTER', 'AND', 'AS', 'BETWEEN', 'BY', 'CASE', 'CAST', 'CONSTRAINT', 'CREATE', 'CROSS', 'CUBE', 'CURRENT_CATALOG',
  'CURRENT_DATE', 'CURRENT_PATH', 'CURRENT_ROLE', 'CURRENT_SCHEMA', 'CURRENT_TIME', 'CURRENT_TIMESTAMP',
  'CURRENT_USER', 'DEALLOCATE', 'DELETE', 'DESCRIBE', 'DISTINCT', 'DROP', 'ELSE', 'END', 'ESCAPE', 'EXCEPT',
  'EXECUTE', 'EXISTS', 'EXTRACT', 'FALSE', 'FOR', 'FROM', 'FULL', 'GROUP', 'GROUPING', 'HAVING', 'IN', 'INNER',
  'INSERT', 'INTERSECT', 'INTO', 'IS', 'JOIN', 'JSON_ARRAY', 'JSON_EXISTS', 'JSON_OBJECT', 'JSON_QUERY',
  'JSON_TABLE', 'JSON_VALUE', 'LEFT', 'LIKE', 'LISTAGG', 'LOCALTIME', 'LOCALTIMESTAMP', 'NATURAL', 'NORMALIZE',
  'NOT', 'NULL', 'ON', 'OR', 'ORDER', 'OUTER', 'PREPARE', 'RECURSIVE', 'RIGHT', 'ROLLUP', 'SELECT', 'SKIP',
  'TABLE', 'THEN', 'TRIM', 'TRUE', 'UESCAPE', 'UNION', 'UNNEST', 'USING', 'VALUES', 'WHEN', 'WHERE', 'WITH',
]); // prettier-ignore

/** Words that may not be an alias written without AS (they start the next clause). */
const CLAUSE_WORDS = new Set(['LIMIT', 'OFFSET', 'FETCH', 'WINDOW', 'LATERAL', 'TABLESAMPLE', 'QUALIFY', 'MATCH_RECOGNIZE']);

const COMPARISONS = new Set(['=', '<>', '!=', '<', '<=', '>', '>=']);
const NILADIC = new Set(['CURRENT_DATE', 'CURRENT_TIME', 'CURRENT_TIMESTAMP', 'LOCALTIME', 'LOCALTIMESTAMP']);
const INTERVAL_UNITS = new Set(['YEAR', 'MONTH', 'DAY', 'HOUR', 'MINUTE', 'SECOND']);
export const EXTRACT_FIELDS = new Set([
  'YEAR', 'QUARTER', 'MONTH', 'WEEK', 'DAY', 'DAY_OF_MONTH', 'DAY_OF_WEEK', 'DOW', 'DAY_OF_YEAR', 'DOY',
  'YEAR_OF_WEEK', 'YOW', 'HOUR', 'MINUTE', 'SECOND', 'TIMEZONE_HOUR', 'TIMEZONE_MINUTE',
]); // prettier-ignore
/** The types CAST may name (Athena's), in lower case; several words where the type has them. */
export const TYPE_NAMES = new Set([
  'boolean', 'tinyint', 'smallint', 'integer', 'int', 'bigint', 'real', 'double', 'double precision', 'decimal',
  'varchar', 'char', 'varbinary', 'json', 'date', 'time', 'time with time zone', 'timestamp',
  'timestamp with time zone', 'interval day to second', 'interval year to month', 'array', 'map', 'row',
  'ipaddress', 'uuid',
]); // prettier-ignore
const MAX_DEPTH = 100;

/** One read-only query, or a SqlError saying why the text is not one. */
export function parseQuery(sql: string): Query {
  let tokens: SqlToken[];
  try {
    tokens = tokenizeSql(sql);
  } catch (e) {
    if (e instanceof SqlTokenError) throw new SqlError(e.message);
    throw e;
  }
  // An engine reads a query as C text, which ends at a NUL: nothing of the user's may end it early.
  if (tokens.some((t) => t.text.includes('\0'))) throw new SqlError(SQL_NUL);
  while (tokens.length && isPunct(tokens[tokens.length - 1], ';')) tokens.pop();
  if (!tokens.length) throw new SqlError(SQL_EMPTY);
  const semicolon = tokens.findIndex((t) => isPunct(t, ';'));
  const first = tokens.find((t) => !isPunct(t, '('));
  if (!first || !(isWord(first, 'SELECT') || isWord(first, 'WITH') || isWord(first, 'VALUES'))) {
    throw new SqlError(semicolon >= 0 && first && isWord(first, 'SELECT') ? SQL_ONE_STATEMENT : SQL_SELECT_ONLY);
  }
  const parser = new Parser(sql, tokens);
  const query = parser.query();
  if (parser.at < tokens.length) {
    if (semicolon >= 0 && parser.at >= semicolon) throw new SqlError(SQL_ONE_STATEMENT);
    parser.fail();
  }
  return query;
}

const isPunct = (t: SqlToken | undefined, text: string) => !!t && t.kind === 'punct' && t.text === text;
const isWord = (t: SqlToken | undefined, upper: string) => !!t && t.kind === 'word' && t.upper === upper;

class Parser {
  at = 0;
  private depth = 0;

  constructor(
    private readonly sql: string,
    private readonly tokens: readonly SqlToken[],
  ) {}

  // ---------------------------------------------------------------------------------------------- tokens

  private peek(offset = 0): SqlToken | undefined {
    return this.tokens[this.at + offset];
  }
  private word(upper: string, offset = 0): boolean {
    return isWord(this.peek(offset), upper);
  }
  private punct(text: string, offset = 0): boolean {
    return isPunct(this.peek(offset), text);
  }
  private acceptWord(...uppers: string[]): boolean {
    for (let i = 0; i < uppers.length; i++) if (!this.word(uppers[i], i)) return false;
    this.at += uppers.length;
    return true;
  }
  private acceptPunct(text: string): boolean {
    if (!this.punct(text)) return false;
    this.at++;
    return true;
  }
  private expectWord(...uppers: string[]): void {
    if (!this.acceptWord(...uppers)) this.fail(uppers.join(' '));
  }
  private expectPunct(text: string): void {
    if (!this.acceptPunct(text)) this.fail(`"${text}"`);
  }

  /** Fails at the current token: what was expected, or what is not allowed there. */
  fail(expected?: string): never {
    const t = this.peek();
    if (t?.kind === 'word' && STATEMENT_WORDS.has(t.upper)) throw new SqlError(sqlForbiddenWord(t.upper));
    const where = t ? this.place(t.at) : 'at the end';
    const found = t ? `"${this.sql.slice(t.at, t.end).slice(0, 40)}"` : 'the end of the query';
    throw new SqlError(`Syntax error ${where}: ${expected ? `expected ${expected}, found` : 'unexpected'} ${found}`);
  }

  private place(offset: number): string {
    const before = this.sql.slice(0, offset);
    const line = before.split('\n').length;
    return `at line ${line}, column ${offset - before.lastIndexOf('\n')}`;
  }

  private nested<T>(read: () => T): T {
    if (++this.depth > MAX_DEPTH) throw new SqlError(SQL_TOO_DEEP);
    try {
      return read();
    } finally {
      this.depth--;
    }
  }

  /** A name: a quoted name, or a word that is not reserved. */
  private identifier(): string {
    const t = this.peek();
    if (t?.kind === 'quoted') {
      this.at++;
      return t.text;
    }
    if (t?.kind === 'word' && !RESERVED.has(t.upper)) {
      this.at++;
      return t.text;
    }
    return this.fail('a name');
  }
  private isIdentifier(offset = 0): boolean {
    const t = this.peek(offset);
    return !!t && (t.kind === 'quoted' || (t.kind === 'word' && !RESERVED.has(t.upper)));
  }
  private identifierList(): string[] {
    this.expectPunct('(');
    const names = [this.identifier()];
    while (this.acceptPunct(',')) names.push(this.identifier());
    this.expectPunct(')');
    return names;
  }

  // ---------------------------------------------------------------------------------------------- queries

  query(): Query {
    return this.nested(() => {
      const ctes: Cte[] = [];
      if (this.acceptWord('WITH')) {
        if (this.word('RECURSIVE')) throw new SqlError('WITH RECURSIVE is not supported in searches');
        do {
          const name = this.identifier();
          const columns = this.punct('(') ? this.identifierList() : undefined;
          this.expectWord('AS');
          this.expectPunct('(');
          const query = this.query();
          this.expectPunct(')');
          ctes.push({ name, columns, query });
        } while (this.acceptPunct(','));
      }
      const body = this.queryTerm();
      const orderBy = this.acceptWord('ORDER', 'BY') ? this.orderItems() : [];
      let offset: string | undefined;
      let limit: string | undefined;
      if (this.acceptWord('OFFSET')) {
        offset = this.count();
        if (!this.acceptWord('ROWS')) this.acceptWord('ROW');
      }
      if (this.acceptWord('LIMIT')) limit = this.acceptWord('ALL') ? 'ALL' : this.count();
      else if (this.acceptWord('FETCH')) {
        if (!this.acceptWord('FIRST')) this.expectWord('NEXT');
        limit = this.count();
        if (!this.acceptWord('ROWS')) this.expectWord('ROW');
        this.expectWord('ONLY');
      }
      if (offset === undefined && this.acceptWord('OFFSET')) {
        offset = this.count();
        if (!this.acceptWord('ROWS')) this.acceptWord('ROW');
      }
      return { kind: 'query', ctes, body, orderBy, offset, limit };
    });
  }

  private count(): string {
    const t = this.peek();
    if (t?.kind !== 'number' || !/^\d+$/.test(t.text)) return this.fail('a row count');
    this.at++;
    return t.text;
  }

  private queryTerm(): QueryBody {
    let left = this.queryPrimary();
    for (;;) {
      const op = (['UNION', 'INTERSECT', 'EXCEPT'] as const).find((w) => this.word(w));
      if (!op) return left;
      this.at++;
      const quantifier = this.acceptWord('ALL') ? 'ALL' : this.acceptWord('DISTINCT') ? 'DISTINCT' : undefined;
      left = { kind: 'setop', op, quantifier, left, right: this.queryPrimary() };
    }
  }

  private queryPrimary(): QueryBody {
    if (this.word('SELECT')) return this.select();
    if (this.acceptWord('VALUES')) {
      const rows = [this.expression()];
      while (this.acceptPunct(',')) rows.push(this.expression());
      return { kind: 'values', rows };
    }
    if (this.acceptPunct('(')) {
      const query = this.query();
      this.expectPunct(')');
      return { kind: 'nested', query };
    }
    return this.fail('SELECT');
  }

  private select(): Select {
    this.expectWord('SELECT');
    const quantifier = this.acceptWord('DISTINCT') ? 'DISTINCT' : this.acceptWord('ALL') ? 'ALL' : undefined;
    const items = [this.selectItem()];
    while (this.acceptPunct(',')) items.push(this.selectItem());
    const from: Relation[] = [];
    if (this.acceptWord('FROM')) {
      from.push(this.relation());
      while (this.acceptPunct(',')) from.push(this.relation());
    }
    const where = this.acceptWord('WHERE') ? this.expression() : undefined;
    let groupBy: Select['groupBy'];
    if (this.acceptWord('GROUP', 'BY')) {
      const q = this.acceptWord('ALL') ? 'ALL' : this.acceptWord('DISTINCT') ? 'DISTINCT' : undefined;
      const elements = [this.groupingElement()];
      while (this.acceptPunct(',')) elements.push(this.groupingElement());
      groupBy = { quantifier: q, elements };
    }
    const having = this.acceptWord('HAVING') ? this.expression() : undefined;
    const windows: { name: string; spec: WindowSpec }[] = [];
    if (this.acceptWord('WINDOW')) {
      do {
        const name = this.identifier();
        this.expectWord('AS');
        windows.push({ name, spec: this.windowSpec() });
      } while (this.acceptPunct(','));
    }
    return { kind: 'select', quantifier, items, from, where, groupBy, having, windows };
  }

  private selectItem(): SelectItem {
    if (this.acceptPunct('*')) return { kind: 'all' };
    // qualified star: a.b.*
    for (let n = 0; this.isIdentifier(n) && this.punct('.', n + 1); n += 2) {
      if (!this.punct('*', n + 2)) continue;
      const qualifier: string[] = [];
      for (;;) {
        qualifier.push(this.identifier());
        this.expectPunct('.');
        if (this.acceptPunct('*')) return { kind: 'all', qualifier };
      }
    }
    const expr = this.expression();
    return { kind: 'expr', expr, alias: this.alias() };
  }

  /** `[AS] name`, when one follows. */
  private alias(): string | undefined {
    if (this.acceptWord('AS')) return this.identifier();
    const t = this.peek();
    if (this.isIdentifier() && !(t?.kind === 'word' && CLAUSE_WORDS.has(t.upper))) return this.identifier();
    return undefined;
  }

  private relationAlias(): Alias | undefined {
    const name = this.alias();
    if (name === undefined) return undefined;
    return { name, columns: this.punct('(') ? this.identifierList() : undefined };
  }

  private groupingElement(): GroupingElement {
    if ((this.word('ROLLUP') || this.word('CUBE')) && this.punct('(', 1)) {
      const kind = this.word('ROLLUP') ? 'rollup' : 'cube';
      this.at++;
      return { kind, exprs: this.expressionList() };
    }
    if (this.acceptWord('GROUPING', 'SETS')) {
      this.expectPunct('(');
      const sets: Expr[][] = [];
      do {
        if (this.punct('(')) sets.push(this.expressionList(true));
        else sets.push([this.expression()]);
      } while (this.acceptPunct(','));
      this.expectPunct(')');
      return { kind: 'sets', sets };
    }
    return { kind: 'expr', expr: this.expression() };
  }

  /** `( expr, ... )`; with `empty`, `()` too. */
  private expressionList(empty = false): Expr[] {
    this.expectPunct('(');
    if (empty && this.acceptPunct(')')) return [];
    const list = [this.expression()];
    while (this.acceptPunct(',')) list.push(this.expression());
    this.expectPunct(')');
    return list;
  }

  private orderItems(): OrderItem[] {
    const items: OrderItem[] = [];
    do {
      const expr = this.expression();
      const direction = this.acceptWord('ASC') ? 'ASC' : this.acceptWord('DESC') ? 'DESC' : undefined;
      let nulls: OrderItem['nulls'];
      if (this.acceptWord('NULLS')) {
        nulls = this.acceptWord('FIRST') ? 'FIRST' : (this.expectWord('LAST'), 'LAST');
      }
      items.push({ expr, direction, nulls });
    } while (this.acceptPunct(','));
    return items;
  }

  // ---------------------------------------------------------------------------------------------- relations

  private relation(): Relation {
    return this.nested(() => {
      let left = this.relationPrimary();
      for (;;) {
        if (this.acceptWord('CROSS', 'JOIN')) {
          left = { kind: 'join', type: 'CROSS', natural: false, left, right: this.relationPrimary() };
          continue;
        }
        const natural = this.acceptWord('NATURAL');
        let type: 'INNER' | 'LEFT' | 'RIGHT' | 'FULL' | undefined;
        if (this.acceptWord('JOIN') || this.acceptWord('INNER', 'JOIN')) type = 'INNER';
        else
          for (const side of ['LEFT', 'RIGHT', 'FULL'] as const)
            if (this.acceptWord(side, 'JOIN') || this.acceptWord(side, 'OUTER', 'JOIN')) type = side;
        if (!type) {
          if (natural) this.fail('JOIN');
          return left;
        }
        const right = this.relationPrimary();
        if (natural) {
          left = { kind: 'join', type, natural, left, right };
        } else if (this.acceptWord('ON')) {
          left = { kind: 'join', type, natural, left, right, on: this.expression() };
        } else if (this.acceptWord('USING')) {
          left = { kind: 'join', type, natural, left, right, using: this.identifierList() };
        } else this.fail('ON or USING');
      }
    });
  }

  private relationPrimary(): Relation {
    const t = this.peek();
    if (t?.kind === 'string') throw new SqlError(SQL_FILE_SOURCE);
    if (this.word('UNNEST') && this.punct('(', 1)) {
      this.at++;
      const args = this.expressionList();
      const ordinality = this.acceptWord('WITH', 'ORDINALITY');
      return { kind: 'unnest', args, ordinality, alias: this.relationAlias() };
    }
    if (this.word('LATERAL') && this.punct('(', 1)) {
      this.at += 2;
      const query = this.query();
      this.expectPunct(')');
      return { kind: 'subquery', lateral: true, query, alias: this.relationAlias() };
    }
    if (this.punct('(')) {
      const start = this.at;
      this.at++;
      if (this.word('SELECT') || this.word('WITH') || this.word('VALUES') || this.punct('(')) {
        // `((SELECT ...) x JOIN ...)` is a relation in parentheses, `((SELECT ...))` a query: try the query first
        const maybeRelation = this.punct('(');
        try {
          const query = this.query();
          this.expectPunct(')');
          return { kind: 'subquery', lateral: false, query, alias: this.relationAlias() };
        } catch (e) {
          if (!(e instanceof SqlError) || !maybeRelation) throw e;
          this.at = start + 1;
        }
      }
      const relation = this.relation();
      this.expectPunct(')');
      return { kind: 'parenthesized', relation, alias: this.relationAlias() };
    }
    // LATERAL before anything but a subquery is a table function's (the only kind a name with "(" can be)
    if (this.word('LATERAL') && this.peek(1)?.kind === 'word') this.at++;
    if (this.word('TABLE') || this.word('LATERAL')) throw new SqlError(sqlForbiddenFunction(t!.text));
    if (this.peek()?.kind === 'word' && this.punct('(', 1)) throw new SqlError(sqlForbiddenFunction(this.peek()!.text));
    const name = [this.identifier()];
    while (this.acceptPunct('.')) name.push(this.identifier());
    if (this.punct('(')) throw new SqlError(sqlForbiddenFunction(name.join('.')));
    if (this.word('TABLESAMPLE')) this.fail();
    return { kind: 'table', name, alias: this.relationAlias() };
  }

  // ---------------------------------------------------------------------------------------------- expressions

  expression(): Expr {
    return this.nested(() => this.or());
  }

  private or(): Expr {
    let left = this.and();
    while (this.acceptWord('OR')) left = { kind: 'binary', op: 'OR', left, right: this.and() };
    return left;
  }

  private and(): Expr {
    let left = this.not();
    while (this.acceptWord('AND')) left = { kind: 'binary', op: 'AND', left, right: this.not() };
    return left;
  }

  private not(): Expr {
    if (this.acceptWord('NOT')) return { kind: 'unary', op: 'NOT', expr: this.nested(() => this.not()) };
    return this.predicate();
  }

  private predicate(): Expr {
    const left = this.concat();
    const t = this.peek();
    if (t?.kind === 'punct' && COMPARISONS.has(t.text)) {
      this.at++;
      const op = t.text === '!=' ? '<>' : t.text;
      for (const quantifier of ['ALL', 'ANY', 'SOME'] as const) {
        if (this.word(quantifier) && this.punct('(', 1)) {
          this.at += 2;
          const query = this.query();
          this.expectPunct(')');
          return { kind: 'quantified', op, quantifier, left, query };
        }
      }
      return { kind: 'binary', op, left, right: this.concat() };
    }
    if (this.acceptWord('IS')) {
      const not = this.acceptWord('NOT');
      if (this.acceptWord('NULL')) return { kind: 'isNull', not, expr: left };
      this.expectWord('DISTINCT', 'FROM');
      return { kind: 'isDistinct', not, left, right: this.concat() };
    }
    const not = this.acceptWord('NOT');
    if (this.acceptWord('BETWEEN')) {
      const low = this.concat();
      this.expectWord('AND');
      return { kind: 'between', not, expr: left, low, high: this.concat() };
    }
    if (this.acceptWord('IN')) {
      this.expectPunct('(');
      if (this.word('SELECT') || this.word('WITH') || this.word('VALUES')) {
        const query = this.query();
        this.expectPunct(')');
        return { kind: 'inQuery', not, expr: left, query };
      }
      const list = [this.expression()];
      while (this.acceptPunct(',')) list.push(this.expression());
      this.expectPunct(')');
      return { kind: 'in', not, expr: left, list };
    }
    if (this.acceptWord('LIKE')) {
      const pattern = this.concat();
      const escape = this.acceptWord('ESCAPE') ? this.concat() : undefined;
      return { kind: 'like', not, expr: left, pattern, escape };
    }
    if (not) this.fail('BETWEEN, IN or LIKE');
    return left;
  }

  private concat(): Expr {
    let left = this.additive();
    while (this.acceptPunct('||')) left = { kind: 'binary', op: '||', left, right: this.additive() };
    return left;
  }

  private additive(): Expr {
    let left = this.multiplicative();
    for (;;) {
      const op = this.punct('+') ? '+' : this.punct('-') ? '-' : undefined;
      if (!op) return left;
      this.at++;
      left = { kind: 'binary', op, left, right: this.multiplicative() };
    }
  }

  private multiplicative(): Expr {
    let left = this.unary();
    for (;;) {
      const op = ['*', '/', '%'].find((o) => this.punct(o));
      if (!op) return left;
      this.at++;
      left = { kind: 'binary', op, left, right: this.unary() };
    }
  }

  private unary(): Expr {
    if (this.punct('-') || this.punct('+')) {
      const op = this.peek()!.text as '-' | '+';
      this.at++;
      return { kind: 'unary', op, expr: this.nested(() => this.unary()) };
    }
    let expr = this.postfix();
    while (this.acceptWord('AT', 'TIME', 'ZONE')) expr = { kind: 'atTimeZone', expr, zone: this.postfix() };
    return expr;
  }

  private postfix(): Expr {
    let expr = this.primary();
    for (;;) {
      if (this.acceptPunct('[')) {
        const index = this.expression();
        this.expectPunct(']');
        expr = { kind: 'subscript', base: expr, index };
      } else if (this.punct('.') && this.isIdentifier(1)) {
        this.at++;
        const field = this.identifier();
        if (this.punct('(')) this.fail();
        expr = expr.kind === 'name' ? { kind: 'name', parts: [...expr.parts, field] } : { kind: 'field', base: expr, field };
      } else return expr;
    }
  }

  private primary(): Expr {
    const t = this.peek();
    if (!t) return this.fail('a value');
    if (t.kind === 'number') {
      this.at++;
      return { kind: 'number', text: t.text };
    }
    if (t.kind === 'string') {
      this.at++;
      return { kind: 'string', value: t.text };
    }
    if (t.kind === 'punct') {
      if (t.text === '(') return this.parenthesized();
      return this.fail('a value');
    }
    if (t.kind === 'quoted') {
      if (this.punct('->', 1)) return this.lambda([this.identifier()]);
      if (this.punct('(', 1)) return this.call();
      return { kind: 'name', parts: [this.identifier()] };
    }
    const next = this.peek(1);
    switch (t.upper) {
      case 'NULL':
        this.at++;
        return { kind: 'null' };
      case 'TRUE':
      case 'FALSE':
        this.at++;
        return { kind: 'boolean', value: t.upper === 'TRUE' };
      case 'CASE':
        return this.caseExpression();
      case 'CAST':
      case 'TRY_CAST':
        if (isPunct(next, '(')) return this.cast();
        break;
      case 'EXTRACT':
        return this.extract();
      case 'EXISTS': {
        this.at++;
        this.expectPunct('(');
        const query = this.query();
        this.expectPunct(')');
        return { kind: 'exists', query };
      }
      case 'INTERVAL':
        return this.interval();
      case 'DATE':
      case 'TIME':
      case 'TIMESTAMP':
        if (next?.kind === 'string') {
          this.at += 2;
          return { kind: 'typed', type: t.upper, value: next.text };
        }
        break;
      case 'ARRAY':
        if (isPunct(next, '[')) {
          this.at += 2;
          const items: Expr[] = [];
          if (!this.punct(']'))
            do items.push(this.expression());
            while (this.acceptPunct(','));
          this.expectPunct(']');
          return { kind: 'array', items };
        }
        break;
      case 'ROW':
        if (isPunct(next, '(')) {
          this.at++;
          return { kind: 'row', items: this.expressionList(), explicit: true };
        }
        break;
    }
    if (NILADIC.has(t.upper)) {
      this.at++;
      if (this.punct('(')) this.fail();
      return { kind: 'niladic', name: t.upper };
    }
    if (isPunct(next, '(')) return this.call();
    if (isPunct(next, '->')) return this.lambda([this.identifier()]);
    return { kind: 'name', parts: [this.identifier()] };
  }

  private parenthesized(): Expr {
    // (x, y) -> ...: a lambda's parameters
    let n = 1;
    while (this.isIdentifier(n) && (this.punct(',', n + 1) || this.punct(')', n + 1))) {
      if (this.punct(')', n + 1)) {
        if (this.punct('->', n + 2)) {
          this.at++;
          const params = [this.identifier()];
          while (this.acceptPunct(',')) params.push(this.identifier());
          this.expectPunct(')');
          return this.lambda(params);
        }
        break;
      }
      n += 2;
    }
    this.expectPunct('(');
    if (this.word('SELECT') || this.word('WITH') || this.word('VALUES')) {
      const query = this.query();
      this.expectPunct(')');
      return { kind: 'subquery', query };
    }
    const items = [this.expression()];
    while (this.acceptPunct(',')) items.push(this.expression());
    this.expectPunct(')');
    return items.length === 1 ? items[0] : { kind: 'row', items, explicit: false };
  }

  private lambda(params: string[]): Expr {
    this.expectPunct('->');
    return { kind: 'lambda', params, body: this.expression() };
  }

  private caseExpression(): Expr {
    this.expectWord('CASE');
    const operand = this.word('WHEN') ? undefined : this.expression();
    const whens: { when: Expr; then: Expr }[] = [];
    while (this.acceptWord('WHEN')) {
      const when = this.expression();
      this.expectWord('THEN');
      whens.push({ when, then: this.expression() });
    }
    if (!whens.length) this.fail('WHEN');
    const otherwise = this.acceptWord('ELSE') ? this.expression() : undefined;
    this.expectWord('END');
    return { kind: 'case', operand, whens, else: otherwise };
  }

  private cast(): Expr {
    const isTry = this.word('TRY_CAST');
    this.at += 2;
    const expr = this.expression();
    this.expectWord('AS');
    const type = this.type();
    this.expectPunct(')');
    return { kind: 'cast', try: isTry, expr, type };
  }

  private type(): SqlType {
    return this.nested(() => {
      const words: string[] = [];
      while (this.peek()?.kind === 'word') {
        const candidate = [...words, this.peek()!.text.toLowerCase()].join(' ');
        if (![...TYPE_NAMES].some((n) => n === candidate || n.startsWith(`${candidate} `))) break;
        words.push(this.peek()!.text.toLowerCase());
        this.at++;
      }
      // a parameterized type's words may follow its parameters: timestamp(3) with time zone
      const name = words.join(' ');
      if (!TYPE_NAMES.has(name)) return this.fail('a type');
      const params: SqlType['params'][number][] = [];
      if (this.acceptPunct('(')) {
        do {
          const t = this.peek();
          if (t?.kind === 'number' && /^\d+$/.test(t.text)) {
            this.at++;
            params.push({ number: t.text });
          } else if (name === 'row' && this.isIdentifier() && this.isFieldName()) {
            params.push({ field: this.identifier(), type: this.type() });
          } else params.push(this.type());
        } while (this.acceptPunct(','));
        this.expectPunct(')');
      }
      let full = name;
      if ((name === 'timestamp' || name === 'time') && this.word('WITH')) {
        this.expectWord('WITH', 'TIME', 'ZONE');
        full = `${name} with time zone`;
      }
      return { name: full, params };
    });
  }

  /** In row(...): whether a name comes first (row(a bigint)), not a type (row(bigint), row(double precision)). */
  private isFieldName(): boolean {
    const t = this.peek()!;
    const next = this.peek(1);
    if (t.kind === 'quoted') return true;
    if (next?.kind !== 'word' && next?.kind !== 'quoted') return false;
    const pair = `${t.text} ${next.text}`.toLowerCase();
    return ![...TYPE_NAMES].some((n) => n === pair || n.startsWith(`${pair} `));
  }

  private extract(): Expr {
    this.expectWord('EXTRACT');
    this.expectPunct('(');
    const t = this.peek();
    if (t?.kind !== 'word' || !EXTRACT_FIELDS.has(t.upper)) return this.fail('a date or time field');
    this.at++;
    this.expectWord('FROM');
    const expr = this.expression();
    this.expectPunct(')');
    return { kind: 'extract', field: t.upper, expr };
  }

  private interval(): Expr {
    this.expectWord('INTERVAL');
    const negative = this.acceptPunct('-');
    if (!negative) this.acceptPunct('+');
    const value = this.peek();
    if (value?.kind !== 'string') return this.fail("a quoted interval such as '1'");
    this.at++;
    const unit = () => {
      const u = this.peek();
      if (u?.kind !== 'word' || !INTERVAL_UNITS.has(u.upper)) return this.fail('YEAR, MONTH, DAY, HOUR, MINUTE or SECOND');
      this.at++;
      return u.upper;
    };
    const from = unit();
    const to = this.acceptWord('TO') ? unit() : undefined;
    return { kind: 'interval', negative, value: value.text, from, to };
  }

  private call(): Expr {
    const name = this.identifierOrReserved();
    this.expectPunct('(');
    let star = false;
    let distinct = false;
    const args: Expr[] = [];
    let orderBy: OrderItem[] = [];
    if (this.acceptPunct('*')) star = true;
    else if (!this.punct(')')) {
      distinct = this.acceptWord('DISTINCT');
      if (!distinct) this.acceptWord('ALL');
      do args.push(this.expression());
      while (this.acceptPunct(','));
      if (this.acceptWord('ORDER', 'BY')) orderBy = this.orderItems();
    }
    this.expectPunct(')');
    let filter: Expr | undefined;
    if (this.acceptWord('FILTER')) {
      this.expectPunct('(');
      this.expectWord('WHERE');
      filter = this.expression();
      this.expectPunct(')');
    }
    let over: WindowSpec | string | undefined;
    if (this.acceptWord('OVER')) over = this.punct('(') ? this.windowSpec() : this.identifier();
    return { kind: 'call', name: name.toLowerCase(), args, star, distinct, orderBy, filter, over };
  }

  /** A function's name: a word (some functions' names are reserved words, as trim) or a quoted name. */
  private identifierOrReserved(): string {
    const t = this.peek();
    if (t?.kind === 'word' || t?.kind === 'quoted') {
      this.at++;
      return t.text;
    }
    return this.fail('a function');
  }

  private windowSpec(): WindowSpec {
    this.expectPunct('(');
    const base =
      this.isIdentifier() && !['PARTITION', 'ORDER', 'ROWS', 'RANGE', 'GROUPS'].some((w) => this.word(w))
        ? this.identifier()
        : undefined;
    const partitionBy: Expr[] = [];
    if (this.acceptWord('PARTITION', 'BY')) {
      do partitionBy.push(this.expression());
      while (this.acceptPunct(','));
    }
    const orderBy = this.acceptWord('ORDER', 'BY') ? this.orderItems() : [];
    let frame: WindowSpec['frame'];
    const unit = (['ROWS', 'RANGE', 'GROUPS'] as const).find((u) => this.word(u));
    if (unit) {
      this.at++;
      if (this.acceptWord('BETWEEN')) {
        const start = this.frameBound();
        this.expectWord('AND');
        frame = { unit, start, end: this.frameBound() };
      } else frame = { unit, start: this.frameBound() };
    }
    this.expectPunct(')');
    return { base, partitionBy, orderBy, frame };
  }

  private frameBound(): FrameBound {
    if (this.acceptWord('UNBOUNDED', 'PRECEDING')) return { kind: 'UNBOUNDED PRECEDING' };
    if (this.acceptWord('UNBOUNDED', 'FOLLOWING')) return { kind: 'UNBOUNDED FOLLOWING' };
    if (this.acceptWord('CURRENT', 'ROW')) return { kind: 'CURRENT ROW' };
    const offset = this.concat();
    if (this.acceptWord('PRECEDING')) return { kind: 'PRECEDING', offset };
    this.expectWord('FOLLOWING');
    return { kind: 'FOLLOWING', offset };
  }
}

export const SQL_FILE_SOURCE = "Reading a file or URL is not allowed: searches read only the lake's tables";
export const sqlForbiddenFunction = (name: string) =>
  `${name}() is not allowed: searches read only the lake's tables, with Athena's functions`;
