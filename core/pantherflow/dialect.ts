// Everything that differs between the two SQL dialects PantherFlow compiles to: DuckDB (the embedded engine)
// and Athena/Trino (AWS). Quoting and escaping of every identifier and literal happens here and only here.
import { quoteName, quoteString, timestampLiteral } from '../lake/sql-text';
import type * as A from './ast';
import { UNIT_MILLIS, canonicalUnit } from './functions';
import { timespanMillis } from './lexer';
import type { FlowType } from './types';

export type DialectName = 'duckdb' | 'athena';
export const DIALECTS: readonly DialectName[] = ['duckdb', 'athena'];

/** What a function renderer gets: the SQL of each argument, plus the syntax and types for literal-dependent output. */
export interface CallSql {
  readonly args: readonly string[];
  readonly exprs: readonly A.Expr[];
  readonly types: readonly FlowType[];
  /** Milliseconds since the epoch of the query's "now". */
  readonly now: number;
  readonly d: Dialect;
}

type Render = (c: CallSql) => string;

export interface Dialect {
  readonly name: DialectName;
  ident(name: string): string;
  string(value: string): string;
  timestamp(ms: number): string;
  interval(ms: number): string;
  typeName(t: FlowType): string;
  table(database: string, name: string): string;
  array(items: readonly string[]): string;
  struct(fields: readonly { name: string; sql: string; type: FlowType }[]): string;
  /** A value as text, for `search`. */
  text(sql: string, type: FlowType): string;
  /** 0-based array index → the engine's element access (null when out of range). */
  element(array: string, index0: string): string;
  field(object: string, name: string): string;
  /** Scalar text at a path inside a JSON value. */
  jsonPath(json: string, path: readonly string[]): string;
  lambda(param: string, body: string): string;
  arrayContains(array: string, value: string): string;
  /** Rows `column` = from, from+step, ... to (inclusive). */
  range(column: string, from: string, to: string, step: string): string;
  call(name: string, c: CallSql): string;
}

const ident = (name: string) => quoteName(name.replace(/\0/g, ''));

/** Single-quoted SQL string: quotes doubled; NUL (which neither engine keeps in a literal) spliced in with chr(0). */
function string(value: string): string {
  return value.split('\0').map(quoteString).join(' || chr(0) || ');
}

const timestamp = timestampLiteral;

const jsonKey = (p: string) => `"${p.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** 0-based → 1-based index, folded when it is a number. */
const plusOne = (index0: string) => (/^\d+$/.test(index0) ? String(Number(index0) + 1) : `${index0} + 1`);

const same =
  (sql: (a: readonly string[]) => string): Render =>
  (c) =>
    sql(c.args);
const literalNumber = (e: A.Expr | undefined, fallback: number): number => {
  if (!e) return fallback;
  if (e.kind === 'literal' && typeof e.value === 'number') return e.value;
  if (e.kind === 'unary' && e.op === '-' && e.operand.kind === 'literal' && typeof e.operand.value === 'number')
    return -e.operand.value;
  return fallback;
};
const literalText = (e: A.Expr | undefined): string => (e?.kind === 'literal' ? String(e.value) : '');

/** A unit argument ('h', 'hour') as the SQL string of its full name. */
const unitSql = (c: CallSql, index: number): string => {
  const text = literalText(c.exprs[index]);
  return c.d.string(canonicalUnit(text) ?? text);
};

/** time.slice's bucket width in milliseconds: a timespan literal, or a length and a fixed-length unit. */
const sliceMillis = (c: CallSql): number =>
  c.exprs.length === 3
    ? literalNumber(c.exprs[1], 1) * (UNIT_MILLIS[canonicalUnit(literalText(c.exprs[2])) ?? 'second'] ?? 1000)
    : literalNumber(c.exprs[1], 1000);

/** time.slice by months or years (no fixed length; the checker allows only length 1): the calendar truncation. */
const calendarSlice = (c: CallSql): string | undefined => {
  if (c.exprs.length !== 3) return undefined;
  const unit = canonicalUnit(literalText(c.exprs[2]));
  return unit === 'month' || unit === 'year' ? `date_trunc(${c.d.string(unit)}, ${c.args[0]})` : undefined;
};

/** Renderers both dialects share. */
const COMMON: Record<string, Render> = {
  'time.now': (c) => c.d.timestamp(c.now),
  'time.ago': (c) => {
    const e = c.exprs[0];
    return e?.kind === 'literal' && e.type === 'timespan'
      ? c.d.timestamp(c.now - Number(e.value))
      : `(${c.d.timestamp(c.now)} - ${c.args[0]})`;
  },
  'time.trunc': (c) => `date_trunc(${unitSql(c, 0)}, ${c.args[1]})`,
  'time.parse_timespan': (c) => c.d.interval(timespanMillis(literalText(c.exprs[0]).trim())),
  'strings.contains': same((a) => `(strpos(${a[0]}, ${a[1]}) > 0)`),
  'strings.starts_with': same((a) => `starts_with(${a[0]}, ${a[1]})`),
  'strings.lower': same((a) => `lower(${a[0]})`),
  'strings.upper': same((a) => `upper(${a[0]})`),
  'strings.len': same((a) => `length(${a[0]})`),
  'strings.replace': same((a) => `replace(${a[0]}, ${a[1]}, ${a[2]})`),
  'strings.trim': same((a) => `trim(${a[0]})`),
  'strings.cat': (c) =>
    `(${c.args.map((a, i) => `coalesce(${c.types[i]?.kind === 'string' ? a : `CAST(${a} AS VARCHAR)`}, '')`).join(' || ')})`,
  'arrays.flatten': same((a) => `flatten(${a[0]})`),
  'math.abs': same((a) => `abs(${a[0]})`),
  'math.round': (c) => `round(CAST(${c.args[0]} AS DOUBLE), ${Math.trunc(literalNumber(c.exprs[1], 0))})`,
  'math.floor': same((a) => `floor(CAST(${a[0]} AS DOUBLE))`),
  'math.ceil': same((a) => `ceil(CAST(${a[0]} AS DOUBLE))`),
  'math.sqrt': same((a) => `sqrt(${a[0]})`),
  'math.pow': same((a) => `power(${a[0]}, ${a[1]})`),
  'math.log': same((a) => `ln(${a[0]})`),
  'math.log10': same((a) => `log10(${a[0]})`),
  'math.least': same((a) => `least(${a.join(', ')})`),
  'math.greatest': same((a) => `greatest(${a.join(', ')})`),
  coalesce: same((a) => `coalesce(${a.join(', ')})`),
  'agg.count': same((a) => (a.length ? `count(${a[0]})` : 'count(*)')),
  'agg.count_distinct': same((a) => `count(DISTINCT ${a[0]})`),
  'agg.sum': same((a) => `sum(${a[0]})`),
  'agg.avg': same((a) => `avg(${a[0]})`),
  'agg.min': same((a) => `min(${a[0]})`),
  'agg.max': same((a) => `max(${a[0]})`),
};

function lambdaArgs(c: CallSql): string {
  const fn = c.exprs[1];
  return fn?.kind === 'lambda' ? c.args[1] : '';
}

const DUCKDB_FUNCTIONS: Record<string, Render> = {
  'time.add': (c) => {
    if (c.exprs.length !== 3) return `(${c.args[0]} + ${c.args[1]})`;
    const unit = canonicalUnit(literalText(c.exprs[2])) ?? 'second';
    const n = ['year', 'month', 'week', 'day'].includes(unit) ? `CAST(${c.args[1]} AS INTEGER)` : c.args[1];
    return `(${c.args[0]} + to_${unit}s(${n}))`;
  },
  'time.diff': (c) => `date_sub(${unitSql(c, 0)}, ${c.args[1]}, ${c.args[2]})`,
  'time.parse_timestamp': same((a) => `TRY_CAST(${a[0]} AS TIMESTAMP)`),
  'time.slice': (c) => {
    const calendar = calendarSlice(c);
    if (calendar) return calendar;
    const us = Math.max(1, Math.round(sliceMillis(c))) * 1000;
    return `make_timestamp(CAST(floor(epoch_us(${c.args[0]}) / ${us}) * ${us} AS BIGINT))`;
  },
  'strings.ends_with': same((a) => `ends_with(${a[0]}, ${a[1]})`),
  'strings.split': same((a) => `string_split(${a[0]}, ${a[1]})`),
  're.matches': same((a) => `regexp_matches(${a[0]}, ${a[1]})`),
  're.extract': (c) => `nullif(regexp_extract(${c.args[0]}, ${c.args[1]}, ${Math.trunc(literalNumber(c.exprs[2], 0))}), '')`,
  're.replace': same((a) => `regexp_replace(${a[0]}, ${a[1]}, ${a[2]}, 'g')`),
  'arrays.len': same((a) => `len(${a[0]})`),
  'arrays.overlap': same((a) => `list_has_any(${a[0]}, ${a[1]})`),
  'arrays.difference': same((a) => `list_sort(list_distinct(list_filter(${a[0]}, lambda __x: NOT list_contains(${a[1]}, __x))))`),
  'arrays.intersection': same((a) => `list_sort(list_distinct(list_intersect(${a[0]}, ${a[1]})))`),
  'arrays.map': (c) => `list_transform(${c.args[0]}, ${lambdaArgs(c)})`,
  'arrays.filter': (c) => `list_filter(${c.args[0]}, ${lambdaArgs(c)})`,
  'arrays.contains': same((a) => `list_contains(${a[0]}, ${a[1]})`),
  'json.extract': same((a) => `json_extract_string(${a[0]}, ${a[1]})`),
  'json.serialize': same((a) => `CAST(to_json(${a[0]}) AS VARCHAR)`),
  'agg.percentile': (c) => `quantile_cont(${c.args[0]}, ${literalNumber(c.exprs[1], 50) / 100})`,
  'agg.make_set': same((a) => `list_sort(list_distinct(list(${a[0]}) FILTER (WHERE ${a[0]} IS NOT NULL)))`),
  'agg.make_list': same((a) => `list(${a[0]}) FILTER (WHERE ${a[0]} IS NOT NULL)`),
  'agg.take_any': same((a) => `any_value(${a[0]})`),
};

const ATHENA_FUNCTIONS: Record<string, Render> = {
  'time.add': (c) =>
    c.exprs.length === 3 ? `date_add(${unitSql(c, 2)}, ${c.args[1]}, ${c.args[0]})` : `(${c.args[0]} + ${c.args[1]})`,
  'time.diff': (c) => `date_diff(${unitSql(c, 0)}, ${c.args[1]}, ${c.args[2]})`,
  'time.parse_timestamp': same((a) => `try(CAST(replace(${a[0]}, 'T', ' ') AS TIMESTAMP))`),
  'time.slice': (c) => {
    const calendar = calendarSlice(c);
    if (calendar) return calendar;
    const ms = Math.max(1, Math.round(sliceMillis(c)));
    return `CAST(from_unixtime(floor(to_unixtime(${c.args[0]}) * 1000 / ${ms}) * ${ms} / 1000.0) AT TIME ZONE 'UTC' AS TIMESTAMP)`;
  },
  'strings.ends_with': same((a) => `(substr(${a[0]}, greatest(length(${a[0]}) - length(${a[1]}) + 1, 1)) = ${a[1]})`),
  'strings.split': same((a) => `split(${a[0]}, ${a[1]})`),
  're.matches': same((a) => `regexp_like(${a[0]}, ${a[1]})`),
  're.extract': (c) => `nullif(regexp_extract(${c.args[0]}, ${c.args[1]}, ${Math.trunc(literalNumber(c.exprs[2], 0))}), '')`,
  // Trino writes capture-group references as $1; PantherFlow (like DuckDB and RE2) as \1.
  're.replace': (c) =>
    `regexp_replace(${c.args[0]}, ${c.args[1]}, ${c.d.string(
      literalText(c.exprs[2])
        .replace(/\$/g, '\\$$')
        .replace(/\\(\d)/g, '$$$1'),
    )})`,
  'arrays.len': same((a) => `cardinality(${a[0]})`),
  'arrays.overlap': same((a) => `arrays_overlap(${a[0]}, ${a[1]})`),
  'arrays.difference': same((a) => `array_sort(array_except(${a[0]}, ${a[1]}))`),
  'arrays.intersection': same((a) => `array_sort(array_intersect(${a[0]}, ${a[1]}))`),
  'arrays.map': (c) => `transform(${c.args[0]}, ${lambdaArgs(c)})`,
  'arrays.filter': (c) => `filter(${c.args[0]}, ${lambdaArgs(c)})`,
  'arrays.contains': same((a) => `contains(${a[0]}, ${a[1]})`),
  'json.extract': same((a) => `json_extract_scalar(${a[0]}, ${a[1]})`),
  'json.serialize': (c) => (c.types[0]?.kind === 'json' ? c.args[0] : `json_format(CAST(${c.args[0]} AS JSON))`),
  'agg.percentile': (c) => `approx_percentile(${c.args[0]}, ${literalNumber(c.exprs[1], 50) / 100})`,
  'agg.make_set': same((a) => `array_sort(array_distinct(array_agg(${a[0]}) FILTER (WHERE ${a[0]} IS NOT NULL)))`),
  'agg.make_list': same((a) => `array_agg(${a[0]}) FILTER (WHERE ${a[0]} IS NOT NULL)`),
  'agg.take_any': same((a) => `arbitrary(${a[0]})`),
};

function callWith(table: Record<string, Render>): Dialect['call'] {
  return (name, c) => {
    const render = table[name] ?? COMMON[name];
    if (!render) throw new Error(`no SQL for function ${name}`);
    return render(c);
  };
}

const duckdb: Dialect = {
  name: 'duckdb',
  ident,
  string,
  timestamp,
  interval: (ms) => `to_milliseconds(${ms})`,
  typeName(t) {
    switch (t.kind) {
      case 'string':
      case 'null':
      case 'any':
        return 'VARCHAR';
      case 'int':
        return 'BIGINT';
      case 'float':
        return 'DOUBLE';
      case 'bool':
        return 'BOOLEAN';
      case 'timestamp':
        return 'TIMESTAMP';
      case 'timespan':
        return 'INTERVAL';
      case 'json':
        return 'JSON';
      case 'array':
        return `${this.typeName(t.element)}[]`;
      case 'object':
        return t.fields ? `STRUCT(${t.fields.map((f) => `${ident(f.name)} ${this.typeName(f.type)}`).join(', ')})` : 'JSON';
    }
  },
  table: (database, name) => `${ident(database)}.${ident(name)}`,
  array: (items) => `[${items.join(', ')}]`,
  struct: (fields) => `struct_pack(${fields.map((f) => `${ident(f.name)} := ${f.sql}`).join(', ')})`,
  text: (sql, type) => (type.kind === 'string' ? sql : `CAST(${sql} AS VARCHAR)`),
  element: (array, index0) => `${array}[${plusOne(index0)}]`,
  field: (object, name) => `struct_extract(${object}, ${string(name)})`,
  jsonPath: (json, path) => `json_extract_string(${json}, ${string('$' + path.map((p) => `.${jsonKey(p)}`).join(''))})`,
  lambda: (param, body) => `lambda ${param}: ${body}`,
  arrayContains: (array, value) => `list_contains(${array}, ${value})`,
  range: (column, from, to, step) => `SELECT unnest(generate_series(${from}, ${to}, ${step})) AS ${column}`,
  call: callWith(DUCKDB_FUNCTIONS),
};

const athena: Dialect = {
  name: 'athena',
  ident,
  string,
  timestamp,
  interval: (ms) => `parse_duration(${string(`${ms}ms`)})`,
  typeName(t) {
    switch (t.kind) {
      case 'string':
      case 'null':
      case 'any':
        return 'varchar';
      case 'int':
        return 'bigint';
      case 'float':
        return 'double';
      case 'bool':
        return 'boolean';
      case 'timestamp':
        return 'timestamp';
      case 'timespan':
        return 'interval day to second';
      case 'json':
        // Values of varying shape are stored as JSON text in the Glue tables.
        return 'varchar';
      case 'array':
        return `array(${this.typeName(t.element)})`;
      case 'object':
        return t.fields ? `row(${t.fields.map((f) => `${ident(f.name)} ${this.typeName(f.type)}`).join(', ')})` : 'varchar';
    }
  },
  table: (database, name) => `${ident(database)}.${ident(name)}`,
  array: (items) => `ARRAY[${items.join(', ')}]`,
  struct(fields) {
    const types = fields.map((f) => `${ident(f.name)} ${this.typeName(f.type)}`).join(', ');
    return `CAST(ROW(${fields.map((f) => f.sql).join(', ')}) AS ROW(${types}))`;
  },
  text: (sql, type) => {
    if (type.kind === 'string' || type.kind === 'json' || (type.kind === 'object' && !type.fields)) return sql;
    if (type.kind === 'array' || type.kind === 'object') return `json_format(CAST(${sql} AS JSON))`;
    return `CAST(${sql} AS VARCHAR)`;
  },
  element: (array, index0) => `element_at(${array}, ${plusOne(index0)})`,
  field: (object, name) => `(${object}).${ident(name)}`,
  jsonPath: (json, path) => `json_extract_scalar(${json}, ${string('$' + path.map((p) => `[${jsonKey(p)}]`).join(''))})`,
  lambda: (param, body) => `${param} -> ${body}`,
  arrayContains: (array, value) => `contains(${array}, ${value})`,
  range: (column, from, to, step) => `SELECT ${column} FROM UNNEST(sequence(${from}, ${to}, ${step})) AS _r(${column})`,
  call: callWith(ATHENA_FUNCTIONS),
};

export function dialect(name: DialectName): Dialect {
  return name === 'athena' ? athena : duckdb;
}
