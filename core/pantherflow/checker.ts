// The checker: resolves tables, lets, columns and functions against the catalog, infers types, and reports
// precise errors with suggestions. Its tables (types, scopes, resolutions) feed the compiler and the services.
import type * as A from './ast';
import { CHART_KINDS, JOIN_KINDS, VISUALIZE_ANNOTATIONS } from './ast';
import { findTable, qualifiedName, type Catalog, type TableInfo } from './catalog';
import { closest, didYouMean, error, type Diagnostic } from './diagnostic';
import {
  FUNCTIONS,
  NAMESPACES,
  TIME_UNITS,
  UNIT_MILLIS,
  canonicalUnit,
  minArgs,
  paramAt,
  type FunctionInfo,
  type ParamKind,
} from './functions';
import { timespanMillis } from './lexer';
import { parse, type ParseResult, isNameChain, nameChain } from './parser';
import type { Span } from './position';
import { T, assignable, isLoose, isNumeric, typeToString, unify, type FlowType } from './types';

export interface Column {
  readonly name: string;
  readonly type: FlowType;
  readonly description?: string;
}

export type LetBinding =
  | { readonly kind: 'tabular'; readonly name: string; readonly columns: Column[]; readonly statement: A.LetStatement }
  | {
      readonly kind: 'scalar';
      readonly name: string;
      readonly type: FlowType;
      readonly statement: A.LetStatement;
      readonly expr: A.Expr;
    };

export type SourceBinding =
  | { readonly kind: 'table'; readonly table: TableInfo }
  /** The binding in force where the name is used (a later `let` of the same name does not change it). */
  | { readonly kind: 'let'; readonly name: string; readonly binding: LetBinding & { kind: 'tabular' } };

export interface Visualization {
  readonly chart: string;
  readonly xcolumn?: string;
  readonly series?: string;
}

export interface Analysis extends ParseResult {
  readonly text: string;
  readonly catalog: Catalog;
  readonly types: Map<A.Expr, FlowType>;
  /** Columns flowing into each operator. */
  readonly inputs: Map<A.Operator, Column[]>;
  /** Columns each source produces. */
  readonly sourceColumns: Map<A.Source, Column[]>;
  /** Columns a pipeline produces. */
  readonly outputs: Map<A.Pipeline, Column[]>;
  /** Output column names of project, extend and summarize items. */
  readonly itemNames: Map<A.Assignment, string>;
  readonly sources: Map<A.TableSource, SourceBinding>;
  readonly calls: Map<A.CallExpr, FunctionInfo>;
  /** Names resolved to scalar lets (inlined by the compiler). */
  readonly scalarLets: Map<A.NameExpr, LetBinding & { kind: 'scalar' }>;
  /** String literals that stand for timestamps (compared with a timestamp). */
  readonly timestampLiterals: Set<A.LiteralExpr>;
  readonly lets: Map<string, LetBinding>;
  readonly query?: A.Pipeline;
  readonly visualization?: Visualization;
}

interface Env {
  readonly columns: readonly Column[];
  readonly lambdas?: ReadonlyMap<string, FlowType>;
  /** Inside summarize's aggregations: aggregation calls allowed (but not nested). */
  readonly aggregates?: 'allowed' | 'inside';
}

const MAX_RANGE_ROWS = 10_000_000;
const TIMESTAMP_TEXT = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?)?Z?$/;

export function isTimestampText(s: string): boolean {
  return TIMESTAMP_TEXT.test(s) && !Number.isNaN(Date.parse(s.replace(' ', 'T').replace(/Z?$/, 'Z')));
}

export function analyze(text: string, catalog: Catalog): Analysis {
  return new Checker(text, catalog).run();
}

class Checker {
  private readonly parsed: ParseResult;
  private readonly diagnostics: Diagnostic[];
  private readonly a: {
    -readonly [K in keyof Analysis]: Analysis[K];
  };

  constructor(text: string, catalog: Catalog) {
    this.parsed = parse(text);
    this.diagnostics = [...this.parsed.diagnostics];
    this.a = {
      ...this.parsed,
      diagnostics: this.diagnostics,
      text,
      catalog,
      types: new Map(),
      inputs: new Map(),
      outputs: new Map(),
      sourceColumns: new Map(),
      itemNames: new Map(),
      sources: new Map(),
      calls: new Map(),
      scalarLets: new Map(),
      timestampLiterals: new Set(),
      lets: new Map(),
    };
  }

  /** Offset of the first `|` or `;` at or after `offset` (or the end of the text). */
  private nextPipe(offset: number): number {
    const t = this.parsed.tokens.find((x) => x.start >= offset && x.kind === 'punct' && (x.text === '|' || x.text === ';'));
    return t ? t.start : this.a.text.length;
  }

  private err(span: Span, message: string, suggestion?: string): void {
    this.diagnostics.push(error(span, message, suggestion));
  }

  run(): Analysis {
    const statements = this.parsed.script.statements;
    statements.forEach((st, i) => {
      if (st.kind === 'let') {
        if (st.value.kind === 'tabular') {
          const columns = this.pipeline(st.value.pipeline, false);
          this.a.lets.set(st.name.name, { kind: 'tabular', name: st.name.name, columns, statement: st });
        } else {
          const type = this.expr(st.value.expr, { columns: [] });
          this.a.lets.set(st.name.name, { kind: 'scalar', name: st.name.name, type, statement: st, expr: st.value.expr });
        }
        return;
      }
      const last = i === statements.length - 1 || statements.slice(i + 1).every((s) => s.kind !== 'query');
      if (!last) this.err(st, 'only the last statement may be a query; name the earlier ones with let');
      this.pipeline(st.pipeline, last);
      if (last) this.a.query = st.pipeline;
    });
    if (!this.a.query && this.parsed.diagnostics.length === 0) {
      this.err(
        { start: this.a.text.length, end: this.a.text.length },
        statements.length ? 'the query ends with let statements; add a query that uses them' : 'the query is empty',
      );
    }
    this.diagnostics.sort((x, y) => x.start - y.start);
    return this.a;
  }

  private pipeline(p: A.Pipeline, isFinalQuery: boolean): Column[] {
    let columns = this.source(p.source);
    p.operators.forEach((op, i) => {
      this.a.inputs.set(op, columns);
      columns = this.operator(op, columns, isFinalQuery && i === p.operators.length - 1);
    });
    this.a.outputs.set(p, columns);
    return columns;
  }

  private source(s: A.Source): Column[] {
    const columns = this.sourceInner(s);
    this.a.sourceColumns.set(s, columns);
    return columns;
  }

  private sourceInner(s: A.Source): Column[] {
    switch (s.kind) {
      case 'table':
        return this.table(s);
      case 'subquery':
        return this.pipeline(s.pipeline, false);
      case 'union': {
        const out: Column[] = [];
        for (const item of s.sources) {
          for (const c of this.source(item)) {
            const i = out.findIndex((x) => x.name === c.name);
            if (i < 0) out.push(c);
            else {
              const u = unify(out[i].type, c.type);
              if (!u)
                this.err(
                  item,
                  `column \`${c.name}\` is ${typeToString(c.type)} here but ${typeToString(out[i].type)} in an earlier table of the union`,
                );
              out[i] = { ...out[i], type: u ?? T.any };
            }
          }
        }
        return out;
      }
      case 'datatable': {
        const out: Column[] = [];
        if (s.rows.length === 0) this.err(s, 'datatable needs at least one row, e.g. datatable [{"a": 1}]');
        for (const row of s.rows) {
          if (row.kind !== 'object') {
            this.err(row, 'each datatable row must be an object such as {"name": "value"}');
            continue;
          }
          for (const { key, value } of row.entries) {
            const t = this.constant(value);
            const i = out.findIndex((x) => x.name === key.name);
            if (i < 0) out.push({ name: key.name, type: t });
            else {
              const u = unify(out[i].type, t);
              if (!u)
                this.err(value, `\`${key.name}\` is ${typeToString(t)} here but ${typeToString(out[i].type)} in an earlier row`);
              else out[i] = { name: key.name, type: u };
            }
          }
        }
        return out.map((c) => ({ ...c, type: concrete(c.type) }));
      }
      case 'range': {
        const env = { columns: [] };
        const from = this.expr(s.from, env);
        const to = this.expr(s.to, env);
        const step = this.expr(s.step, env);
        let type: FlowType = T.int;
        if (from.kind === 'timestamp' || to.kind === 'timestamp') {
          type = T.timestamp;
          if (step.kind !== 'timespan') this.err(s.step, 'a range over timestamps needs a timespan step, such as 1h');
        } else if (isNumeric(from) && isNumeric(to) && isNumeric(step)) {
          type = from.kind === 'float' || to.kind === 'float' || step.kind === 'float' ? T.float : T.int;
        } else this.err(s, 'range needs numbers, or timestamps with a timespan step');
        const [a, b, c] = [literalNumber(s.from), literalNumber(s.to), literalNumber(s.step)];
        if (c !== undefined && c === 0) this.err(s.step, 'the step of a range cannot be 0');
        else if (a !== undefined && b !== undefined && c !== undefined && (b - a) / c > MAX_RANGE_ROWS)
          this.err(s, `range would give more than ${MAX_RANGE_ROWS.toLocaleString('en')} rows`);
        return [{ name: s.column.name, type }];
      }
    }
  }

  /** Type of a datatable value, which must be a literal (or an array/object of literals). */
  private constant(e: A.Expr): FlowType {
    if (e.kind === 'literal') return this.expr(e, { columns: [] });
    if (
      e.kind === 'unary' &&
      e.op === '-' &&
      e.operand.kind === 'literal' &&
      (e.operand.type === 'int' || e.operand.type === 'float')
    )
      return this.expr(e, { columns: [] });
    if (e.kind === 'array') {
      let el: FlowType = T.null;
      for (const item of e.items) {
        const t = this.constant(item);
        const u = unify(el, t);
        if (!u) this.err(item, 'array elements in a datatable must all have one type');
        else el = u;
      }
      const t = T.array(el);
      this.a.types.set(e, t);
      return t;
    }
    if (e.kind === 'object') {
      const t = T.object(e.entries.map(({ key, value }) => ({ name: key.name, type: this.constant(value) })));
      this.a.types.set(e, t);
      return t;
    }
    this.err(e, 'datatable values must be literals (strings, numbers, booleans, null, arrays or objects)');
    return T.any;
  }

  private table(s: A.TableSource): Column[] {
    const parts = s.parts.map((x) => x.name);
    if (parts.length === 1) {
      const binding = this.a.lets.get(parts[0]);
      if (binding?.kind === 'tabular') {
        this.a.sources.set(s, { kind: 'let', name: parts[0], binding });
        return binding.columns;
      }
      if (binding) {
        this.err(s, `\`${parts[0]}\` is a scalar let, not a table`);
        return [];
      }
    }
    const table = findTable(this.a.catalog, parts);
    if (table) {
      this.a.sources.set(s, { kind: 'table', table });
      return table.columns.map((c) => ({ ...c }));
    }
    const candidates = [
      ...this.a.catalog.tables().map(qualifiedName),
      ...[...this.a.lets.values()].filter((l) => l.kind === 'tabular').map((l) => l.name),
    ];
    const written = parts.join('.');
    const full = parts.length === 2 ? `${parts[0]}.public.${parts[1]}` : written;
    const last = closest(
      parts[parts.length - 1],
      candidates.map((c) => c.split('.').pop() ?? c),
    );
    const suggestion = closest(full, candidates) ?? candidates.find((c) => last !== undefined && c.split('.').pop() === last);
    this.err(s, `unknown table \`${written}\`${didYouMean(suggestion)}`, suggestion);
    return [];
  }

  private operator(op: A.Operator, input: Column[], isLast: boolean): Column[] {
    const env: Env = { columns: input };
    switch (op.kind) {
      case 'where': {
        const t = this.expr(op.predicate, env);
        // After a syntax error in the operator, the predicate is only the part before it: say nothing more.
        const broken = this.parsed.diagnostics.some((d) => d.start >= op.start && d.start <= this.nextPipe(op.end));
        if (!broken && !isLoose(t) && t.kind !== 'bool')
          this.err(op.predicate, `where needs a true/false condition, but this is ${typeToString(t)}`);
        return input;
      }
      case 'project':
        return this.items(op.items, env, false);
      case 'extend': {
        let out = [...input];
        for (const item of op.items) {
          const [c] = this.items([item], { columns: out }, false);
          const i = out.findIndex((x) => x.name === c.name);
          out = i >= 0 ? out.map((x, j) => (j === i ? c : x)) : [...out, c];
        }
        return out;
      }
      case 'summarize': {
        const by = this.items(op.by, env, false);
        for (const item of op.by)
          if (this.hasAggregate(item.expr)) this.err(item.expr, 'aggregations belong before by, not after it');
        const aggs = this.items(op.aggregations, { columns: input, aggregates: 'allowed' }, true);
        const out = [...by, ...aggs];
        this.duplicates(out, [...op.by, ...op.aggregations]);
        if (op.aggregations.length === 0 && op.by.length === 0)
          this.err(op.keyword, 'summarize needs aggregations (such as agg.count()) and/or by columns');
        return out;
      }
      case 'sort':
        if (op.keys.length === 0) this.err({ start: op.keyword.end, end: op.keyword.end }, 'sort needs at least one column');
        for (const k of op.keys) {
          const t = this.expr(k.expr, env);
          if (t.kind === 'object' || t.kind === 'array') this.err(k.expr, `cannot sort by a value of type ${typeToString(t)}`);
        }
        return input;
      case 'limit': {
        const c = op.count;
        if (c.kind === 'missing') return input;
        if (c.kind !== 'literal' || c.type !== 'int') this.err(c, 'limit needs a whole number, such as limit 100');
        else this.a.types.set(c, T.int);
        return input;
      }
      case 'search': {
        const t = op.text;
        if (t.kind === 'missing') return input;
        if (t.kind !== 'literal' || t.type !== 'string') this.err(t, "search needs quoted text, such as search 'admin'");
        else this.a.types.set(t, T.string);
        return input;
      }
      case 'join':
        return this.join(op, input);
      case 'visualize': {
        if (!isLast) this.err(op, 'visualize must be the last operator of the query');
        if (!op.chart) return input;
        const chart = op.chart.name;
        if (!(CHART_KINDS as readonly string[]).includes(chart)) {
          const s = closest(chart, CHART_KINDS);
          this.err(op.chart, `unknown chart kind \`${chart}\` (use ${CHART_KINDS.join(', ')})${didYouMean(s)}`, s);
        }
        const vis: { chart: string; xcolumn?: string; series?: string } = { chart };
        for (const { name, value } of op.annotations) {
          if (!(VISUALIZE_ANNOTATIONS as readonly string[]).includes(name.name)) {
            const s = closest(name.name, VISUALIZE_ANNOTATIONS);
            this.err(
              name,
              `unknown visualize annotation \`${name.name}\` (use ${VISUALIZE_ANNOTATIONS.join(', ')})${didYouMean(s)}`,
              s,
            );
            continue;
          }
          if (value.kind !== 'name') {
            this.err(value, `${name.name} must name a column`);
            continue;
          }
          this.expr(value, env);
          vis[name.name as 'xcolumn' | 'series'] = value.name;
        }
        if (isLast) this.a.visualization = vis;
        return input;
      }
      case 'unknown':
        return input;
    }
  }

  private join(op: A.JoinOp, left: Column[]): Column[] {
    const kind = op.joinKind?.name ?? 'inner';
    if (op.joinKind && !(JOIN_KINDS as readonly string[]).includes(kind)) {
      const s = closest(kind, JOIN_KINDS);
      this.err(op.joinKind, `unknown join kind \`${kind}\` (use ${JOIN_KINDS.join(', ')})${didYouMean(s)}`, s);
    }
    if (!op.dest || !op.destName) return left;
    const right = this.pipeline(op.dest, false);
    const destName = op.destName.name;
    if (left.some((c) => c.name === destName))
      this.err(op.destName, `the left side already has a column \`${destName}\`; pick another name for the right side`);
    if (kind === 'cross' && op.on.length) this.err(op.on[0], 'a cross join takes no on condition');
    if (kind !== 'cross' && op.on.length === 0)
      this.err(op, 'join needs on conditions, such as on $left.userName == $right.actor');
    const scope: Env = { columns: [...left, { name: '$left', type: T.object(left) }, { name: '$right', type: T.object(right) }] };
    for (const cond of op.on) {
      for (const eq of conjuncts(cond)) {
        if (eq.kind === 'name') {
          if (!left.some((c) => c.name === eq.name) || !right.some((c) => c.name === eq.name))
            this.err(eq, `\`${eq.name}\` must be a column on both sides of the join; otherwise write $left.a == $right.b`);
          else this.a.types.set(eq, left.find((c) => c.name === eq.name)!.type);
          continue;
        }
        const sides = eq.kind === 'binary' ? [sideOf(eq.left), sideOf(eq.right)].sort().join(' ') : '';
        if (eq.kind !== 'binary' || eq.op !== '==' || sides !== '$left $right') {
          this.err(eq, 'join conditions have the form $left.column == $right.column');
          continue;
        }
        this.expr(eq, scope);
      }
    }
    return [...left, { name: destName, type: T.object(right) }];
  }

  private hasAggregate(e: A.Expr): boolean {
    let found = false;
    walk(e, (x) => {
      if (x.kind === 'call' && FUNCTIONS.get(x.callee.name)?.aggregate) found = true;
    });
    return found;
  }

  private items(items: readonly A.Assignment[], scope: Env, aggregations: boolean): Column[] {
    const out: Column[] = [];
    items.forEach((item, i) => {
      const type = this.expr(item.expr, scope);
      if (aggregations && !this.hasAggregate(item.expr) && item.expr.kind !== 'missing') {
        this.err(item.expr, 'this is not an aggregation; use an agg.* function (e.g. agg.take_any(x)), or group by it after by');
      }
      const name = item.name?.name ?? defaultName(item.expr, i);
      this.a.itemNames.set(item, name);
      const described = item.expr.kind === 'name' ? scope.columns.find((c) => c.name === name)?.description : undefined;
      out.push({ name, type, ...(described ? { description: described } : {}) });
    });
    this.duplicates(out, items);
    return out;
  }

  private duplicates(columns: Column[], items: readonly A.Assignment[]): void {
    const seen = new Set<string>();
    columns.forEach((c, i) => {
      if (seen.has(c.name)) this.err(items[i] ?? items[0], `duplicate column name \`${c.name}\`; rename it with name=...`);
      seen.add(c.name);
    });
  }

  expr(e: A.Expr, env: Env): FlowType {
    const t = this.exprInner(e, env);
    this.a.types.set(e, t);
    return t;
  }

  private exprInner(e: A.Expr, env: Env): FlowType {
    switch (e.kind) {
      case 'missing':
        return T.any;
      case 'literal':
        return e.type === 'null' ? T.null : { kind: e.type };
      case 'name':
        return this.name(e, env);
      case 'member': {
        if (isNameChain(e) && !this.resolvesAsValue(e, env)) {
          const dotted = nameChain(e).join('.');
          if (FUNCTIONS.has(dotted)) {
            this.err(e, `\`${dotted}\` is a function; call it: ${dotted}(...)`);
            return T.any;
          }
        }
        const obj = this.expr(e.object, env);
        return this.field(obj, e.member.name, e.member, e.object);
      }
      case 'index': {
        const obj = this.expr(e.object, env);
        const idx = this.expr(e.index, env);
        if (obj.kind === 'array') {
          if (!isLoose(idx) && idx.kind !== 'int')
            this.err(e.index, `an array index must be a whole number, not ${typeToString(idx)}`);
          return obj.element;
        }
        if (obj.kind === 'object' || obj.kind === 'json') {
          if (e.index.kind !== 'literal' || e.index.type !== 'string') {
            if (obj.kind === 'object') this.err(e.index, "a field index must be quoted text, such as a['key']");
            return T.any;
          }
          return this.field(obj, String(e.index.value), e.index, e.object);
        }
        if (isLoose(obj)) return T.any;
        this.err(e, `cannot index into a value of type ${typeToString(obj)}`);
        return T.any;
      }
      case 'call':
        return this.call(e, env);
      case 'unary': {
        const t = this.expr(e.operand, env);
        if (e.op === 'not') {
          if (!isLoose(t) && t.kind !== 'bool') this.err(e.operand, `not needs a true/false value, not ${typeToString(t)}`);
          return T.bool;
        }
        if (!isLoose(t) && !isNumeric(t) && t.kind !== 'timespan')
          this.err(e.operand, `cannot negate a value of type ${typeToString(t)}`);
        return isLoose(t) ? T.any : t;
      }
      case 'binary':
        return this.binary(e, env);
      case 'in': {
        const v = this.expr(e.value, env);
        if (Array.isArray(e.list)) {
          for (const item of e.list) {
            const t = this.expr(item, env);
            this.comparable(v, t, item, e.value, item);
          }
        } else {
          const t = this.expr(e.list, env);
          if (!isLoose(t) && t.kind !== 'array')
            this.err(e.list, `in needs a list in parentheses or an array, not ${typeToString(t)}`);
        }
        return T.bool;
      }
      case 'between': {
        const v = this.expr(e.value, env);
        this.comparable(v, this.expr(e.low, env), e, e.value, e.low);
        this.comparable(v, this.expr(e.high, env), e, e.value, e.high);
        return T.bool;
      }
      case 'array': {
        let el: FlowType = T.null;
        for (const item of e.items) {
          const t = this.expr(item, env);
          const u = unify(el, t);
          if (!u)
            this.err(item, `array elements must have one type; this is ${typeToString(t)}, earlier ones ${typeToString(el)}`);
          else el = u;
        }
        return T.array(el.kind === 'null' ? T.any : el);
      }
      case 'object':
        return T.object(e.entries.map(({ key, value }) => ({ name: key.name, type: this.expr(value, env) })));
      case 'lambda':
        this.err(e, 'a lambda (fn) can only be passed to arrays.map or arrays.filter');
        return T.any;
    }
  }

  private resolvesAsValue(e: A.Expr, env: Env): boolean {
    const root = nameChain(e)[0];
    return (
      env.lambdas?.has(root) === true || env.columns.some((c) => c.name === root) || this.a.lets.get(root)?.kind === 'scalar'
    );
  }

  private name(e: A.NameExpr, env: Env): FlowType {
    const lambda = env.lambdas?.get(e.name);
    if (lambda) return lambda;
    const binding = this.a.lets.get(e.name);
    if (binding?.kind === 'scalar') {
      this.a.scalarLets.set(e, binding);
      return binding.type;
    }
    const col = env.columns.find((c) => c.name === e.name);
    if (col) return col.type;
    if ((NAMESPACES as readonly string[]).includes(e.name)) {
      this.err(
        e,
        `\`${e.name}\` is a function namespace; call one of its functions, e.g. ${[...FUNCTIONS.keys()].find((k) => k.startsWith(e.name + '.'))}(...)`,
      );
      return T.any;
    }
    const names = [
      ...env.columns.map((c) => c.name).filter((n) => !n.startsWith('$')),
      ...(env.lambdas ? env.lambdas.keys() : []),
    ];
    const s = closest(e.name, names);
    this.err(e, `unknown column \`${e.name}\`${didYouMean(s)}`, s);
    return T.any;
  }

  private field(obj: FlowType, name: string, at: Span, objExpr: A.Expr): FlowType {
    if (obj.kind === 'object') {
      if (!obj.fields) return T.any;
      const f = obj.fields.find((x) => x.name === name);
      if (f) return f.type;
      const s = closest(
        name,
        obj.fields.map((x) => x.name),
      );
      const owner =
        objExpr.kind === 'name' && objExpr.name.startsWith('$')
          ? `the ${objExpr.name.slice(1)} side`
          : `\`${nameChain(objExpr).join('.') || 'the object'}\``;
      this.err(
        at,
        `unknown ${objExpr.kind === 'name' && objExpr.name.startsWith('$') ? 'column' : 'field'} \`${name}\` in ${owner}${didYouMean(s)}`,
        s,
      );
      return T.any;
    }
    if (obj.kind === 'json') return T.json;
    if (isLoose(obj)) return T.any;
    this.err(at, `\`${nameChain(objExpr).join('.')}\` is ${typeToString(obj)}, which has no fields`);
    return T.any;
  }

  private comparable(a: FlowType, b: FlowType, at: Span, ea: A.Expr, eb: A.Expr): void {
    if (this.timestampText(a, eb) || this.timestampText(b, ea)) return;
    if (isLoose(a) || isLoose(b)) return;
    if (isNumeric(a) && isNumeric(b)) return;
    if (a.kind !== b.kind) this.err(at, `cannot compare ${typeToString(a)} with ${typeToString(b)}`);
  }

  /** A string literal compared with a timestamp becomes a timestamp literal (and must read as one). */
  private timestampText(t: FlowType, other: A.Expr): boolean {
    if (t.kind !== 'timestamp' || other.kind !== 'literal' || other.type !== 'string') return false;
    if (!isTimestampText(String(other.value)))
      this.err(other, `'${other.value}' is not a timestamp; write it as 'YYYY-MM-DD HH:MM:SS'`);
    this.a.timestampLiterals.add(other);
    this.a.types.set(other, T.timestamp);
    return true;
  }

  private binary(e: A.BinaryExpr, env: Env): FlowType {
    const l = this.expr(e.left, env);
    const r = this.expr(e.right, env);
    switch (e.op) {
      case 'and':
      case 'or':
        for (const [t, x] of [
          [l, e.left],
          [r, e.right],
        ] as const)
          if (!isLoose(t) && t.kind !== 'bool') this.err(x, `${e.op} needs true/false values, not ${typeToString(t)}`);
        return T.bool;
      case '==':
      case '!=':
      case '<':
      case '<=':
      case '>':
      case '>=':
        this.comparable(l, r, e.opSpan, e.left, e.right);
        return T.bool;
      default:
        return this.arithmetic(e, l, r);
    }
  }

  private arithmetic(e: A.BinaryExpr, l: FlowType, r: FlowType): FlowType {
    const op = e.op;
    if (isLoose(l) || isLoose(r)) return isNumeric(l) ? l : isNumeric(r) ? r : T.any;
    if (isNumeric(l) && isNumeric(r)) {
      if (op === '/') return T.float;
      return l.kind === 'float' || r.kind === 'float' ? T.float : T.int;
    }
    if (l.kind === 'timestamp' && r.kind === 'timespan' && (op === '+' || op === '-')) return T.timestamp;
    if (l.kind === 'timespan' && r.kind === 'timestamp' && op === '+') return T.timestamp;
    if (l.kind === 'timespan' && r.kind === 'timespan' && (op === '+' || op === '-')) return T.timespan;
    if (l.kind === 'timestamp' && r.kind === 'timestamp' && op === '-') {
      this.err(e.opSpan, "subtracting timestamps: use time.diff('second', start, end)");
      return T.int;
    }
    if (l.kind === 'string' && r.kind === 'string' && op === '+') {
      this.err(e.opSpan, 'to join strings use strings.cat(a, b)');
      return T.string;
    }
    this.err(e.opSpan, `cannot apply ${op} to ${typeToString(l)} and ${typeToString(r)}`);
    return T.any;
  }

  private call(e: A.CallExpr, env: Env): FlowType {
    const known = FUNCTIONS.get(e.callee.name);
    // A documented second form (time.add(t, n, 'day'), time.slice(t, 1, 'h')) is chosen by its argument count.
    const f = known?.altParams && e.args.length === known.altParams.length ? { ...known, params: known.altParams } : known;
    if (!f) {
      for (const arg of e.args) if (arg.kind !== 'lambda') this.expr(arg, env);
      const s =
        closest(e.callee.name, FUNCTIONS.keys()) ??
        (e.callee.name.includes('.') ? undefined : [...FUNCTIONS.keys()].find((k) => k.endsWith('.' + e.callee.name)));
      this.err(e.callee, `unknown function \`${e.callee.name}\`${didYouMean(s)}`, s);
      return T.any;
    }
    this.a.calls.set(e, f);
    if (f.aggregate) {
      if (env.aggregates === undefined) this.err(e.callee, `${f.name} is an aggregation; use it in summarize`);
      else if (env.aggregates === 'inside') this.err(e.callee, 'aggregations cannot be nested');
    }
    const argEnv: Env = f.aggregate && env.aggregates ? { ...env, aggregates: 'inside' } : env;
    const min = minArgs(f);
    const variadic = f.params.some((x) => x.variadic);
    if (e.args.length < min || (!variadic && e.args.length > f.params.length)) {
      const want = variadic ? `at least ${min}` : min === f.params.length ? `${min}` : `${min} to ${f.params.length}`;
      this.err(e, `${f.name} takes ${want} argument${want === '1' ? '' : 's'}, got ${e.args.length}`);
    }
    const types: FlowType[] = [];
    e.args.forEach((arg, i) => {
      const param = paramAt(f, i);
      if (!param) {
        this.expr(arg, argEnv);
        return;
      }
      if (param.kind === 'lambda') {
        types.push(this.lambda(arg, types[0], argEnv));
        return;
      }
      const t = this.expr(arg, argEnv);
      types.push(t);
      if (param.literal && !isLiteralArg(arg)) this.err(arg, `\`${param.name}\` of ${f.name} must be written as a literal value`);
      if (param.kind === 'unit' && arg.kind === 'literal') {
        const unit = String(arg.value);
        const canonical = canonicalUnit(unit);
        if (!canonical) {
          const s = closest(unit, TIME_UNITS);
          this.err(arg, `unknown time unit '${unit}' (use ${TIME_UNITS.join(', ')})${didYouMean(s)}`, s && `'${s}'`);
        } else if (f.name === 'time.slice' && UNIT_MILLIS[canonical] === undefined) {
          const length = literalNumber(e.args[1]);
          if (length !== undefined && length !== 1) this.err(arg, `slices of a ${canonical} must be 1 ${canonical} long`);
        }
      }
      const n = literalNumber(arg);
      if (f.name === 'agg.percentile' && i === 1 && n !== undefined && !(n >= 0 && n <= 100))
        this.err(arg, 'the percentile must be between 0 and 100');
      if ((f.name === 're.extract' && i === 2) || (f.name === 'math.round' && i === 1)) {
        if (n !== undefined && (!Number.isInteger(n) || n < 0 || n > 1000))
          this.err(arg, `\`${param.name}\` of ${f.name} must be a whole number from 0 to 1000`);
      }
      if (f.name === 'time.slice' && i === 1 && n !== undefined && n <= 0)
        this.err(arg, 'the bucket width must be longer than 0');
      if (f.name === 'time.parse_timespan' && arg.kind === 'literal' && Number.isNaN(timespanMillis(String(arg.value).trim()))) {
        this.err(arg, `'${arg.value}' is not a timespan; write it like '90s', '15m', '1h' or '1d'`);
      }
      if (!accepts(param.kind, t))
        this.err(arg, `\`${param.name}\` of ${f.name} must be ${kindText(param.kind)}, not ${typeToString(t)}`);
    });
    return f.returns(types);
  }

  private lambda(arg: A.Expr, arrayType: FlowType | undefined, env: Env): FlowType {
    if (arg.kind !== 'lambda') {
      this.expr(arg, env);
      this.err(arg, 'expected a lambda such as fn (x) { x > 0 }');
      return T.any;
    }
    if (arg.params.length !== 1) this.err(arg, 'the lambda takes exactly one parameter');
    const lambdas = new Map(env.lambdas ?? []);
    const element = arrayType?.kind === 'array' ? arrayType.element : T.any;
    for (const p of arg.params) lambdas.set(p.name, element);
    const t = this.expr(arg.body, { ...env, lambdas });
    this.a.types.set(arg, t);
    return t;
  }
}

/** Null-only parts of a datatable's types become string (a column needs some type). */
function concrete(t: FlowType): FlowType {
  if (t.kind === 'null') return T.string;
  if (t.kind === 'array') return T.array(concrete(t.element));
  if (t.kind === 'object' && t.fields) return T.object(t.fields.map((f) => ({ ...f, type: concrete(f.type) })));
  return t;
}

function accepts(kind: ParamKind, t: FlowType): boolean {
  if (isLoose(t)) return true;
  switch (kind) {
    case 'any':
    case 'json':
      return true;
    case 'number':
      return isNumeric(t);
    case 'unit':
      return t.kind === 'string';
    case 'array':
      return t.kind === 'array';
    case 'lambda':
      return false;
    default:
      return assignable(t, { kind } as FlowType);
  }
}

function kindText(kind: ParamKind): string {
  return {
    number: 'a number',
    int: 'a whole number',
    string: 'text',
    bool: 'true/false',
    timestamp: 'a timestamp',
    timespan: 'a timespan such as 1h',
    array: 'an array',
    unit: 'a time unit',
    any: 'a value',
    lambda: 'a lambda',
    json: 'JSON',
  }[kind];
}

/** The number a literal argument (or its negation) writes: ints, floats, and timespans in milliseconds. */
function literalNumber(e: A.Expr): number | undefined {
  if (e.kind === 'literal' && typeof e.value === 'number') return e.value;
  if (e.kind === 'unary' && e.op === '-' && e.operand.kind === 'literal' && typeof e.operand.value === 'number')
    return -e.operand.value;
  return undefined;
}

function isLiteralArg(e: A.Expr): boolean {
  return e.kind === 'literal' || (e.kind === 'unary' && e.op === '-' && e.operand.kind === 'literal');
}

/** `$left` or `$right` when the expression is a path starting there. */
function sideOf(e: A.Expr): string | undefined {
  let x = e;
  while (x.kind === 'member' || x.kind === 'index') x = x.object;
  return x !== e && x.kind === 'name' && x.name.startsWith('$') ? x.name : undefined;
}

export function conjuncts(e: A.Expr): A.Expr[] {
  return e.kind === 'binary' && e.op === 'and' ? [...conjuncts(e.left), ...conjuncts(e.right)] : [e];
}

/** Default output name of an unnamed item: a column keeps its name, `agg.sum(bytes)` becomes `sum_bytes`. */
export function defaultName(e: A.Expr, index: number): string {
  if (e.kind === 'name') return e.name;
  if (e.kind === 'member') return e.member.name;
  if (e.kind === 'index' && e.index.kind === 'literal' && e.index.type === 'string') return String(e.index.value);
  if (e.kind === 'call' && e.callee.name.startsWith('agg.')) {
    const short = e.callee.name.slice(4);
    const arg = e.args[0];
    if (!arg) return short;
    const inner = arg.kind === 'name' || arg.kind === 'member' ? defaultName(arg, index) : undefined;
    return inner ? `${short}_${inner}` : short;
  }
  return `column${index + 1}`;
}

export function walk(e: A.Expr, visit: (e: A.Expr) => void): void {
  visit(e);
  switch (e.kind) {
    case 'member':
      return walk(e.object, visit);
    case 'index':
      walk(e.object, visit);
      return walk(e.index, visit);
    case 'call':
      return e.args.forEach((a) => walk(a, visit));
    case 'unary':
      return walk(e.operand, visit);
    case 'binary':
      walk(e.left, visit);
      return walk(e.right, visit);
    case 'in':
      walk(e.value, visit);
      return (Array.isArray(e.list) ? e.list : [e.list]).forEach((a) => walk(a, visit));
    case 'between':
      walk(e.value, visit);
      walk(e.low, visit);
      return walk(e.high, visit);
    case 'array':
      return e.items.forEach((a) => walk(a, visit));
    case 'object':
      return e.entries.forEach((a) => walk(a.value, visit));
    case 'lambda':
      return walk(e.body, visit);
    default:
      return;
  }
}
