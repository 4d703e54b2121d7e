// The parse tree → the SQL that runs. Every name is written through quoteName and every text through
// quoteString (the one place quotes are doubled), every operation in parentheses, keywords and function names
// from fixed lists: what runs is exactly what the guard read, whatever the text the user wrote looked like.
import { quoteName, quoteString } from '../../lake/sql-text';
import type {
  Alias,
  Expr,
  FrameBound,
  GroupingElement,
  OrderItem,
  Query,
  QueryBody,
  Relation,
  SqlType,
  WindowSpec,
} from './tree';

/** How a table reference is written: the guard writes a lake table as its ranged read. */
export type TableWriter = (relation: Extract<Relation, { kind: 'table' }>) => string;

const list = <T>(items: readonly T[], write: (item: T) => string) => items.map(write).join(', ');

export function printQuery(query: Query, table: TableWriter): string {
  const p = new Printer(table);
  return p.query(query);
}

class Printer {
  constructor(private readonly table: TableWriter) {}

  query(q: Query): string {
    const parts: string[] = [];
    if (q.ctes.length)
      parts.push(
        `WITH ${list(q.ctes, (c) => `${quoteName(c.name)}${c.columns ? `(${list(c.columns, quoteName)})` : ''} AS (${this.query(c.query)})`)}`,
      );
    parts.push(this.body(q.body));
    if (q.orderBy.length) parts.push(`ORDER BY ${this.orderItems(q.orderBy)}`);
    if (q.offset !== undefined) parts.push(`OFFSET ${q.offset}`);
    if (q.limit !== undefined) parts.push(`LIMIT ${q.limit}`);
    return parts.join(' ');
  }

  private body(b: QueryBody): string {
    switch (b.kind) {
      case 'nested':
        return `(${this.query(b.query)})`;
      case 'values':
        return `VALUES ${list(b.rows, (r) => (r.kind === 'row' && !r.explicit ? this.expr(r) : `(${this.expr(r)})`))}`;
      case 'setop':
        return `${this.body(b.left)} ${b.op}${b.quantifier ? ` ${b.quantifier}` : ''} ${this.body(b.right)}`;
      case 'select': {
        const parts = [`SELECT${b.quantifier ? ` ${b.quantifier}` : ''}`];
        parts.push(
          list(b.items, (i) =>
            i.kind === 'all'
              ? `${i.qualifier ? `${i.qualifier.map(quoteName).join('.')}.` : ''}*`
              : `${this.expr(i.expr)}${i.alias !== undefined ? ` AS ${quoteName(i.alias)}` : ''}`,
          ),
        );
        if (b.from.length) parts.push(`FROM ${list(b.from, (r) => this.relation(r))}`);
        if (b.where) parts.push(`WHERE ${this.expr(b.where)}`);
        if (b.groupBy)
          parts.push(
            `GROUP BY ${b.groupBy.quantifier ? `${b.groupBy.quantifier} ` : ''}${list(b.groupBy.elements, (g) => this.grouping(g))}`,
          );
        if (b.having) parts.push(`HAVING ${this.expr(b.having)}`);
        if (b.windows.length) parts.push(`WINDOW ${list(b.windows, (w) => `${quoteName(w.name)} AS ${this.window(w.spec)}`)}`);
        return parts.join(' ');
      }
    }
  }

  private grouping(g: GroupingElement): string {
    if (g.kind === 'expr') return this.expr(g.expr);
    if (g.kind === 'sets') return `GROUPING SETS (${list(g.sets, (s) => `(${list(s, (e) => this.expr(e))})`)})`;
    return `${g.kind.toUpperCase()} (${list(g.exprs, (e) => this.expr(e))})`;
  }

  private orderItems(items: readonly OrderItem[]): string {
    return list(items, (o) => `${this.expr(o.expr)}${o.direction ? ` ${o.direction}` : ''}${o.nulls ? ` NULLS ${o.nulls}` : ''}`);
  }

  private alias(a: Alias | undefined): string {
    if (!a) return '';
    return ` AS ${quoteName(a.name)}${a.columns ? `(${list(a.columns, quoteName)})` : ''}`;
  }

  relation(r: Relation): string {
    switch (r.kind) {
      case 'table':
        return this.table(r);
      case 'subquery':
        return `${r.lateral ? 'LATERAL ' : ''}(${this.query(r.query)})${this.alias(r.alias)}`;
      case 'unnest':
        return `UNNEST(${list(r.args, (e) => this.expr(e))})${r.ordinality ? ' WITH ORDINALITY' : ''}${this.alias(r.alias)}`;
      case 'parenthesized':
        return `(${this.relation(r.relation)})${this.alias(r.alias)}`;
      case 'join': {
        const kind = `${r.natural ? 'NATURAL ' : ''}${r.type === 'INNER' ? '' : `${r.type} `}JOIN`;
        const on = r.on ? ` ON ${this.expr(r.on)}` : r.using ? ` USING (${list(r.using, quoteName)})` : '';
        return `${this.relation(r.left)} ${kind} ${this.relation(r.right)}${on}`;
      }
    }
  }

  private window(w: WindowSpec): string {
    const parts: string[] = [];
    if (w.base !== undefined) parts.push(quoteName(w.base));
    if (w.partitionBy.length) parts.push(`PARTITION BY ${list(w.partitionBy, (e) => this.expr(e))}`);
    if (w.orderBy.length) parts.push(`ORDER BY ${this.orderItems(w.orderBy)}`);
    if (w.frame) {
      const f = w.frame;
      parts.push(
        f.end ? `${f.unit} BETWEEN ${this.bound(f.start)} AND ${this.bound(f.end)}` : `${f.unit} ${this.bound(f.start)}`,
      );
    }
    return `(${parts.join(' ')})`;
  }

  private bound(b: FrameBound): string {
    return b.kind === 'PRECEDING' || b.kind === 'FOLLOWING' ? `${this.expr(b.offset)} ${b.kind}` : b.kind;
  }

  type(t: SqlType): string {
    const params = t.params.length
      ? `(${list(t.params, (p) => ('number' in p ? p.number : 'field' in p ? `${quoteName(p.field)} ${this.type(p.type)}` : this.type(p)))})`
      : '';
    const zone = t.name.endsWith(' with time zone');
    return zone ? `${t.name.slice(0, -' with time zone'.length)}${params} with time zone` : `${t.name}${params}`;
  }

  expr(e: Expr): string {
    switch (e.kind) {
      case 'number':
        return e.text;
      case 'string':
        return quoteString(e.value);
      case 'boolean':
        return e.value ? 'TRUE' : 'FALSE';
      case 'null':
        return 'NULL';
      case 'typed':
        return `${e.type} ${quoteString(e.value)}`;
      case 'interval': {
        const text = `INTERVAL ${quoteString(e.value)} ${e.from}${e.to ? ` TO ${e.to}` : ''}`;
        return e.negative ? `(-${text})` : text;
      }
      case 'niladic':
        return e.name;
      case 'name':
        return e.parts.map(quoteName).join('.');
      case 'field':
        return `(${this.expr(e.base)}).${quoteName(e.field)}`;
      case 'subscript':
        return `${this.expr(e.base)}[${this.expr(e.index)}]`;
      case 'call': {
        const args = e.star
          ? '*'
          : `${e.distinct ? 'DISTINCT ' : ''}${list(e.args, (a) => this.expr(a))}${e.orderBy.length ? ` ORDER BY ${this.orderItems(e.orderBy)}` : ''}`;
        const filter = e.filter ? ` FILTER (WHERE ${this.expr(e.filter)})` : '';
        const over = e.over === undefined ? '' : ` OVER ${typeof e.over === 'string' ? quoteName(e.over) : this.window(e.over)}`;
        return `${e.name}(${args})${filter}${over}`;
      }
      case 'cast':
        return `${e.try ? 'TRY_CAST' : 'CAST'}(${this.expr(e.expr)} AS ${this.type(e.type)})`;
      case 'extract':
        return `EXTRACT(${e.field} FROM ${this.expr(e.expr)})`;
      case 'case': {
        const whens = e.whens.map((w) => `WHEN ${this.expr(w.when)} THEN ${this.expr(w.then)}`).join(' ');
        const operand = e.operand ? ` ${this.expr(e.operand)}` : '';
        return `CASE${operand} ${whens}${e.else ? ` ELSE ${this.expr(e.else)}` : ''} END`;
      }
      case 'unary':
        return e.op === 'NOT' ? `(NOT ${this.expr(e.expr)})` : `(${e.op}${this.expr(e.expr)})`;
      case 'binary':
        return `(${this.expr(e.left)} ${e.op} ${this.expr(e.right)})`;
      case 'between':
        return `(${this.expr(e.expr)} ${e.not ? 'NOT ' : ''}BETWEEN ${this.expr(e.low)} AND ${this.expr(e.high)})`;
      case 'in':
        return `(${this.expr(e.expr)} ${e.not ? 'NOT ' : ''}IN (${list(e.list, (x) => this.expr(x))}))`;
      case 'inQuery':
        return `(${this.expr(e.expr)} ${e.not ? 'NOT ' : ''}IN (${this.query(e.query)}))`;
      case 'like':
        return `(${this.expr(e.expr)} ${e.not ? 'NOT ' : ''}LIKE ${this.expr(e.pattern)}${e.escape ? ` ESCAPE ${this.expr(e.escape)}` : ''})`;
      case 'isNull':
        return `(${this.expr(e.expr)} IS ${e.not ? 'NOT ' : ''}NULL)`;
      case 'isDistinct':
        return `(${this.expr(e.left)} IS ${e.not ? 'NOT ' : ''}DISTINCT FROM ${this.expr(e.right)})`;
      case 'quantified':
        return `(${this.expr(e.left)} ${e.op} ${e.quantifier} (${this.query(e.query)}))`;
      case 'exists':
        return `EXISTS (${this.query(e.query)})`;
      case 'subquery':
        return `(${this.query(e.query)})`;
      case 'row':
        return `${e.explicit ? 'ROW' : ''}(${list(e.items, (x) => this.expr(x))})`;
      case 'array':
        return `ARRAY[${list(e.items, (x) => this.expr(x))}]`;
      case 'lambda':
        return `${e.params.length === 1 ? quoteName(e.params[0]) : `(${list(e.params, quoteName)})`} -> ${this.expr(e.body)}`;
      case 'atTimeZone':
        return `(${this.expr(e.expr)} AT TIME ZONE ${this.expr(e.zone)})`;
    }
  }
}
