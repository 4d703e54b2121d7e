// The compiler: a checked PantherFlow script → one SQL statement for DuckDB or Athena. Each operator becomes
// a CTE step reading the previous one; `let` pipelines are steps too. Identifiers and literals only ever
// reach the SQL through the dialect's quoting functions.
import type * as A from './ast';
import { EVENT_TIME, type Catalog } from './catalog';
import { analyze, conjuncts, type Analysis, type Column, type LetBinding, type Visualization } from './checker';
import type { Diagnostic } from './diagnostic';
import { dialect as getDialect, type Dialect, type DialectName } from './dialect';
import { partitionPredicates, timeBounds, toMillis, type TimeRange } from './timerange';
import { T, typeToString, type FlowType } from './types';
import { visitScript } from './visit';

export interface CompileOptions {
  readonly catalog: Catalog;
  readonly dialect: DialectName;
  /** The time range chosen in the UI; applied to each lake table whose query names no p_event_time filter. */
  readonly timeRange?: TimeRange;
  /** "Now" for time.now() and time.ago(); defaults to the current time. */
  readonly now?: Date | string | number;
}

export interface CompiledQuery {
  readonly sql: string;
  readonly dialect: DialectName;
  readonly columns: readonly Column[];
  readonly visualization?: Visualization;
  /** Whether the UI time range was added to at least one table. */
  readonly timeRangeApplied: boolean;
}

export type CompileResult =
  | { readonly ok: true; readonly query: CompiledQuery; readonly analysis: Analysis }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[]; readonly analysis: Analysis };

export function compile(text: string, options: CompileOptions): CompileResult {
  const analysis = analyze(text, options.catalog);
  if (analysis.diagnostics.some((d) => d.severity === 'error') || !analysis.query)
    return { ok: false, diagnostics: analysis.diagnostics, analysis };
  const compiler = new Compiler(
    analysis,
    getDialect(options.dialect),
    options.now === undefined ? Date.now() : toMillis(options.now),
    options.timeRange,
  );
  const query = compiler.run(analysis.query);
  return { ok: true, query, analysis };
}

interface Order {
  readonly sql: string;
  /** Columns the ORDER BY reads; the order survives while they do. */
  readonly reads: ReadonlySet<string>;
}

interface Step {
  readonly name: string;
  readonly columns: readonly Column[];
  readonly order?: Order;
}

class Compiler {
  private readonly ctes: string[] = [];
  private readonly lets = new Map<LetBinding, Step>();
  private timeRangeApplied = false;
  /** Whether any `where` of the script filters on p_event_time: then the UI's time range is not applied. */
  private readonly namesTimeFilter: boolean;

  constructor(
    private readonly a: Analysis,
    private readonly d: Dialect,
    private readonly now: number,
    private readonly range: TimeRange | undefined,
  ) {
    const wheres: A.Expr[] = [];
    visitScript(a.script, {
      operator(op) {
        if (op.kind === 'where') wheres.push(op.predicate);
      },
    });
    this.namesTimeFilter = timeBounds(wheres, a, now).named;
  }

  run(query: A.Pipeline): CompiledQuery {
    const last = this.pipeline(query, []);
    const order = last.order ? ` ORDER BY ${last.order.sql}` : '';
    const sql = `WITH\n${this.ctes.join(',\n')}\nSELECT * FROM ${last.name}${order}`;
    return {
      sql,
      dialect: this.d.name,
      columns: last.columns,
      visualization: this.a.visualization,
      timeRangeApplied: this.timeRangeApplied,
    };
  }

  private step(body: string, columns: readonly Column[], order?: Order): Step {
    const name = `_s${this.ctes.length + 1}`;
    this.ctes.push(`${name} AS (${body})`);
    return { name, columns, order };
  }

  private pipeline(p: A.Pipeline, inherited: readonly A.Expr[]): Step {
    let step = this.source(p.source, [...inherited, ...leadingFilters(p)]);
    for (const op of p.operators) step = this.operator(op, step);
    return step;
  }

  /**
   * A let table. Used once and made only of `where`s, it is compiled where it is used, so the user's filters
   * (p_event_time ones especially) reach its table; otherwise it is one shared step.
   */
  private letStep(binding: LetBinding & { kind: 'tabular' }, filters: readonly A.Expr[]): Step {
    if (binding.statement.value.kind !== 'tabular') throw new Error(`let ${binding.name} is not a table`);
    const pipeline = binding.statement.value.pipeline;
    const uses = [...this.a.sources.values()].filter((b) => b.kind === 'let' && b.binding === binding).length;
    if (uses === 1 && pipeline.operators.every((op) => op.kind === 'where')) return this.pipeline(pipeline, filters);
    let step = this.lets.get(binding);
    if (!step) {
      step = this.pipeline(pipeline, []);
      this.lets.set(binding, step);
    }
    return step;
  }

  private cols(columns: readonly Column[]): string {
    return columns.length ? columns.map((c) => this.d.ident(c.name)).join(', ') : '*';
  }

  private source(s: A.Source, filters: readonly A.Expr[]): Step {
    const d = this.d;
    switch (s.kind) {
      case 'subquery':
        return this.pipeline(s.pipeline, []);
      case 'table': {
        const binding = this.a.sources.get(s);
        if (!binding) throw new Error('unresolved table');
        if (binding.kind === 'let') return this.letStep(binding.binding, filters);
        const table = binding.table;
        const where: string[] = [];
        const hasEventTime = table.columns.some((c) => c.name === EVENT_TIME);
        const bounds = timeBounds(filters, this.a, this.now);
        let partitionBounds: { from?: number; to?: number } = bounds;
        if (!this.namesTimeFilter && this.range && hasEventTime) {
          const from = toMillis(this.range.from);
          const to = toMillis(this.range.to);
          where.push(`${d.ident(EVENT_TIME)} >= ${d.timestamp(from)}`, `${d.ident(EVENT_TIME)} < ${d.timestamp(to)}`);
          partitionBounds = { from, to: to - 1 };
          this.timeRangeApplied = true;
        }
        if (table.timePartitioned) where.unshift(...partitionPredicates(d, partitionBounds));
        const columns = table.columns.map((c) => ({
          name: c.name,
          type: c.type,
          ...(c.description ? { description: c.description } : {}),
        }));
        return this.step(
          `SELECT ${this.cols(columns)} FROM ${d.table(table.database, table.name)}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`,
          columns,
        );
      }
      case 'union': {
        const columns = this.a.sourceColumns.get(s) ?? [];
        const parts = s.sources.map((item) => {
          const step = item.kind === 'table' ? this.source(item, filters) : this.source(item, []);
          const list = columns.map((c) => {
            const have = step.columns.find((x) => x.name === c.name);
            if (!have) return `CAST(NULL AS ${d.typeName(c.type)}) AS ${d.ident(c.name)}`;
            if (c.type.kind === 'any') return d.ident(c.name);
            return `${this.convert(d.ident(c.name), have.type, c.type)} AS ${d.ident(c.name)}`;
          });
          return `SELECT ${list.join(', ') || '*'} FROM ${step.name}`;
        });
        return this.step(parts.join(' UNION ALL '), columns);
      }
      case 'datatable': {
        const columns = this.a.sourceColumns.get(s) ?? [];
        const rows = s.rows.map((row) => {
          const entries = row.kind === 'object' ? row.entries : [];
          return `(${columns
            .map((c) => {
              const entry = entries.find((x) => x.key.name === c.name);
              if (!entry || (entry.value.kind === 'literal' && entry.value.type === 'null'))
                return `CAST(NULL AS ${d.typeName(c.type)})`;
              return this.constant(entry.value, c.type);
            })
            .join(', ')})`;
        });
        return this.step(`SELECT * FROM (VALUES ${rows.join(', ')}) AS _v(${this.cols(columns)})`, columns);
      }
      case 'range': {
        const columns = this.a.sourceColumns.get(s) ?? [{ name: s.column.name, type: T.int }];
        return this.step(d.range(d.ident(s.column.name), this.expr(s.from), this.expr(s.to), this.expr(s.step)), columns);
      }
    }
  }

  /** A value of type `from` as type `to`; objects are rebuilt field by field (Athena casts rows by position). */
  private convert(sql: string, from: FlowType, to: FlowType): string {
    const d = this.d;
    if (typeToString(from) === typeToString(to)) return sql;
    if (from.kind === 'object' && to.kind === 'object' && from.fields && to.fields) {
      const fields = to.fields.map((f) => {
        const had = from.fields!.find((x) => x.name === f.name);
        return {
          name: f.name,
          type: f.type,
          sql: had ? this.convert(d.field(sql, f.name), had.type, f.type) : `CAST(NULL AS ${d.typeName(f.type)})`,
        };
      });
      return `CASE WHEN ${sql} IS NULL THEN NULL ELSE ${d.struct(fields)} END`;
    }
    return `CAST(${sql} AS ${d.typeName(to)})`;
  }

  /** A datatable value, cast to its column's type where the row's own literal has another type. */
  private constant(e: A.Expr, type: FlowType): string {
    const own = this.a.types.get(e) ?? T.any;
    if (e.kind === 'object' && type.kind === 'object' && type.fields) {
      return this.d.struct(
        type.fields.map((f) => {
          const entry = e.entries.find((x) => x.key.name === f.name);
          const sql =
            !entry || (entry.value.kind === 'literal' && entry.value.type === 'null')
              ? `CAST(NULL AS ${this.d.typeName(f.type)})`
              : this.constant(entry.value, f.type);
          return { name: f.name, sql, type: f.type };
        }),
      );
    }
    const sql = this.expr(e);
    return typeToString(own) === typeToString(type) ? sql : `CAST(${sql} AS ${this.d.typeName(type)})`;
  }

  private operator(op: A.Operator, prev: Step): Step {
    const d = this.d;
    const orderBy = (o: Order | undefined) => (o ? ` ORDER BY ${o.sql}` : '');
    switch (op.kind) {
      case 'where':
        return this.step(
          `SELECT * FROM ${prev.name} WHERE ${this.expr(op.predicate)}${orderBy(prev.order)}`,
          prev.columns,
          prev.order,
        );
      case 'search': {
        const needle = d.string(String(op.text.kind === 'literal' ? op.text.value : '').toLowerCase());
        const tests = prev.columns.map((c) => `strpos(lower(${d.text(d.ident(c.name), c.type)}), ${needle}) > 0`);
        return this.step(
          `SELECT * FROM ${prev.name} WHERE ${tests.length ? `(${tests.join(' OR ')})` : 'FALSE'}${orderBy(prev.order)}`,
          prev.columns,
          prev.order,
        );
      }
      case 'project': {
        const columns = this.projected(op.items);
        const list = op.items.map((item) => `${this.expr(item.expr)} AS ${d.ident(this.a.itemNames.get(item)!)}`);
        const kept = new Set(
          op.items
            .filter((i) => i.expr.kind === 'name' && this.a.itemNames.get(i) === i.expr.name)
            .map((i) => this.a.itemNames.get(i)!),
        );
        const order = prev.order && [...prev.order.reads].every((c) => kept.has(c)) ? prev.order : undefined;
        return this.step(`SELECT ${list.join(', ')} FROM ${prev.name}${orderBy(prev.order)}`, columns, order);
      }
      case 'extend': {
        // Items go into one step until one reads a column an earlier item of the step assigns.
        let step = prev;
        let group: A.Assignment[] = [];
        const flush = () => {
          if (group.length) step = this.extendStep(group, step);
          group = [];
        };
        for (const item of op.items) {
          const reads = new Set<string>();
          collectColumns(
            item.expr,
            group.map((g) => ({ name: this.a.itemNames.get(g)!, type: T.any })),
            reads,
          );
          if (reads.size) flush();
          group.push(item);
        }
        flush();
        return step;
      }
      case 'summarize': {
        const by = op.by.map((item) => `${this.expr(item.expr)} AS ${d.ident(this.a.itemNames.get(item)!)}`);
        const aggs = op.aggregations.map((item) => `${this.expr(item.expr)} AS ${d.ident(this.a.itemNames.get(item)!)}`);
        const group = by.length ? ` GROUP BY ${by.map((_, i) => i + 1).join(', ')}` : '';
        const columns = [...this.projected(op.by), ...this.projected(op.aggregations)];
        return this.step(`SELECT ${[...by, ...aggs].join(', ')} FROM ${prev.name}${group}`, columns);
      }
      case 'sort': {
        const reads = new Set<string>();
        const keys = op.keys.map((k) => {
          collectColumns(k.expr, prev.columns, reads);
          const dir = k.direction ?? 'desc';
          return `${this.expr(k.expr)} ${dir === 'asc' ? 'ASC NULLS FIRST' : 'DESC NULLS LAST'}`;
        });
        const order = { sql: keys.join(', '), reads };
        return this.step(`SELECT * FROM ${prev.name}${orderBy(order)}`, prev.columns, order);
      }
      case 'limit': {
        const n = op.count.kind === 'literal' && op.count.type === 'int' ? op.count.raw : '0';
        return this.step(`SELECT * FROM ${prev.name}${orderBy(prev.order)} LIMIT ${n}`, prev.columns, prev.order);
      }
      case 'join':
        return this.join(op, prev);
      case 'visualize':
      case 'unknown':
        return prev;
    }
  }

  private extendStep(items: readonly A.Assignment[], prev: Step): Step {
    const d = this.d;
    const list = prev.columns.map((c) => d.ident(c.name));
    let columns = [...prev.columns];
    let order = prev.order;
    for (const item of items) {
      const name = this.a.itemNames.get(item)!;
      const type = this.a.types.get(item.expr) ?? T.any;
      const sql = `${this.expr(item.expr)} AS ${d.ident(name)}`;
      const i = columns.findIndex((c) => c.name === name);
      if (i >= 0) {
        list[i] = sql;
        columns = columns.map((c, j) => (j === i ? { name, type } : c));
      } else {
        list.push(sql);
        columns.push({ name, type });
      }
      if (order?.reads.has(name)) order = undefined;
    }
    return this.step(
      `SELECT ${list.join(', ')} FROM ${prev.name}${prev.order ? ` ORDER BY ${prev.order.sql}` : ''}`,
      columns,
      order,
    );
  }

  private projected(items: readonly A.Assignment[]): Column[] {
    return items.map((item) => ({ name: this.a.itemNames.get(item)!, type: this.a.types.get(item.expr) ?? T.any }));
  }

  private join(op: A.JoinOp, left: Step): Step {
    const d = this.d;
    const right = this.pipeline(op.dest!, []);
    const kind = op.joinKind?.name ?? 'inner';
    const sqlKind = {
      inner: 'INNER JOIN',
      leftouter: 'LEFT JOIN',
      rightouter: 'RIGHT JOIN',
      fullouter: 'FULL JOIN',
      cross: 'CROSS JOIN',
    }[kind as 'inner'];
    const conditions = op.on
      .flatMap((c) => conjuncts(c))
      .map((c) => (c.kind === 'name' ? `_l.${d.ident(c.name)} = _r.${d.ident(c.name)}` : this.expr(c)));
    const present = d.ident('__present');
    const struct = d.struct(right.columns.map((c) => ({ name: c.name, sql: `_r.${d.ident(c.name)}`, type: c.type })));
    const dest = kind === 'inner' || kind === 'cross' ? struct : `CASE WHEN _r.${present} IS NULL THEN NULL ELSE ${struct} END`;
    const destName = op.destName!.name;
    const list = [...left.columns.map((c) => `_l.${d.ident(c.name)}`), `${dest} AS ${d.ident(destName)}`];
    const on = kind === 'cross' ? '' : ` ON ${conditions.join(' AND ')}`;
    const columns = [...left.columns, { name: destName, type: T.object(right.columns) }];
    return this.step(
      `SELECT ${list.join(', ')} FROM ${left.name} AS _l ${sqlKind} (SELECT *, 1 AS ${present} FROM ${right.name}) AS _r${on}`,
      columns,
    );
  }

  expr(e: A.Expr): string {
    const d = this.d;
    switch (e.kind) {
      case 'missing':
        return 'NULL';
      case 'literal':
        switch (e.type) {
          case 'int':
            return e.raw;
          case 'float':
            return `${Number(e.value).toExponential()}`.replace('e+', 'E').replace('e-', 'E-');
          case 'string':
            return this.a.timestampLiterals.has(e) ? d.timestamp(toMillis(String(e.value))) : d.string(String(e.value));
          case 'bool':
            return e.value ? 'TRUE' : 'FALSE';
          case 'null':
            return 'NULL';
          case 'timespan':
            return d.interval(Number(e.value));
        }
        return 'NULL';
      case 'name': {
        const binding = this.a.scalarLets.get(e);
        if (binding) return this.expr(binding.expr);
        return d.ident(e.name);
      }
      case 'member':
      case 'index':
        return this.access(e);
      case 'call': {
        const f = this.a.calls.get(e);
        if (!f) return 'NULL';
        const args = e.args.map((arg) =>
          arg.kind === 'lambda'
            ? d.lambda(arg.params.map((p) => d.ident(p.name)).join(', '), this.expr(arg.body))
            : this.expr(arg),
        );
        return d.call(f.name, { args, exprs: e.args, types: e.args.map((x) => this.a.types.get(x) ?? T.any), now: this.now, d });
      }
      case 'unary':
        return e.op === 'not' ? `(NOT ${this.expr(e.operand)})` : `(-${this.expr(e.operand)})`;
      case 'binary': {
        const isNull = (x: A.Expr) => x.kind === 'literal' && x.type === 'null';
        if ((e.op === '==' || e.op === '!=') && (isNull(e.left) || isNull(e.right))) {
          const other = isNull(e.left) ? e.right : e.left;
          return `(${this.expr(other)} IS ${e.op === '==' ? '' : 'NOT '}NULL)`;
        }
        const l = this.expr(e.left);
        const r = this.expr(e.right);
        const op = { or: 'OR', and: 'AND', '==': '=', '!=': '<>' }[e.op as string] ?? e.op;
        if (e.op === '/') return `(CAST(${l} AS DOUBLE) / ${r})`;
        return `(${l} ${op} ${r})`;
      }
      case 'in': {
        const v = this.expr(e.value);
        if (Array.isArray(e.list)) {
          if (e.list.length === 0) return e.negated ? 'TRUE' : 'FALSE';
          return `(${v} ${e.negated ? 'NOT IN' : 'IN'} (${e.list.map((x) => this.expr(x)).join(', ')}))`;
        }
        const test = d.arrayContains(this.expr(e.list), v);
        return e.negated ? `(NOT ${test})` : test;
      }
      case 'between':
        return `(${this.expr(e.value)} ${e.negated ? 'NOT BETWEEN' : 'BETWEEN'} ${this.expr(e.low)} AND ${this.expr(e.high)})`;
      case 'array':
        return d.array(e.items.map((x) => this.expr(x)));
      case 'object': {
        const t = this.a.types.get(e);
        const fields = t?.kind === 'object' && t.fields ? t.fields : [];
        return d.struct(e.entries.map((x, i) => ({ name: x.key.name, sql: this.expr(x.value), type: fields[i]?.type ?? T.any })));
      }
      case 'lambda':
        return 'NULL';
    }
  }

  /** Field and element access: `a.b`, `a['k']`, `arr[0]`, `$left.x`; paths into JSON become one JSON-path lookup. */
  private access(e: A.MemberExpr | A.IndexExpr): string {
    const d = this.d;
    const key =
      e.kind === 'member'
        ? e.member.name
        : e.index.kind === 'literal' && e.index.type === 'string'
          ? String(e.index.value)
          : undefined;
    if (e.kind === 'member' && e.object.kind === 'name' && (e.object.name === '$left' || e.object.name === '$right')) {
      return `${e.object.name === '$left' ? '_l' : '_r'}.${d.ident(e.member.name)}`;
    }
    const objType = this.a.types.get(e.object) ?? T.any;
    if (objType.kind === 'json' && key !== undefined) {
      const path: string[] = [key];
      let root: A.Expr = e.object;
      while (
        (root.kind === 'member' || (root.kind === 'index' && root.index.kind === 'literal' && root.index.type === 'string')) &&
        this.a.types.get(root.object)?.kind === 'json'
      ) {
        path.unshift(root.kind === 'member' ? root.member.name : String((root.index as A.LiteralExpr).value));
        root = root.object;
      }
      return d.jsonPath(this.expr(root), path);
    }
    if (e.kind === 'index' && key === undefined) {
      const i = e.index;
      const index0 = i.kind === 'literal' && i.type === 'int' ? String(Number(i.value)) : this.expr(i);
      return d.element(this.expr(e.object), index0);
    }
    return d.field(this.expr(e.object), key ?? '');
  }
}

/** `where` and `search`-free leading filters of a pipeline: predicates that may run before anything else. */
function leadingFilters(p: A.Pipeline): A.Expr[] {
  const out: A.Expr[] = [];
  for (const op of p.operators) {
    if (op.kind !== 'where') break;
    out.push(op.predicate);
  }
  return out;
}

function collectColumns(e: A.Expr, columns: readonly Column[], into: Set<string>): void {
  const stack: A.Expr[] = [e];
  while (stack.length) {
    const x = stack.pop()!;
    if (x.kind === 'name' && columns.some((c) => c.name === x.name)) into.add(x.name);
    if (x.kind === 'member' || x.kind === 'index') stack.push(x.object);
    if (x.kind === 'index') stack.push(x.index);
    if (x.kind === 'call') stack.push(...x.args);
    if (x.kind === 'binary') stack.push(x.left, x.right);
    if (x.kind === 'unary') stack.push(x.operand);
  }
}
