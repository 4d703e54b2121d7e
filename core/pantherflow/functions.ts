// The function-signature table. One entry per function drives the checker (arity, argument and result types),
// completion, hover, signature help and inlay hints. How each function becomes SQL lives in dialect.ts.
import { T, type FlowType } from './types';

/** What an argument must be. `array` means any array; `lambda` an `fn (x) { ... }`; `unit` a string literal naming a time unit. */
export type ParamKind =
  'string' | 'int' | 'number' | 'bool' | 'timestamp' | 'timespan' | 'array' | 'any' | 'lambda' | 'unit' | 'json';

export interface FunctionParam {
  readonly name: string;
  readonly kind: ParamKind;
  readonly doc: string;
  readonly optional?: boolean;
  /** The last parameter may repeat. */
  readonly variadic?: boolean;
  /** Must be written as a literal (the compiler needs its value). */
  readonly literal?: boolean;
}

export type FunctionGroup = 'time' | 'strings' | 're' | 'arrays' | 'math' | 'json' | 'agg' | 'general';

export interface FunctionInfo {
  readonly name: string;
  readonly group: FunctionGroup;
  readonly params: readonly FunctionParam[];
  /** Result type from the argument types. */
  readonly returns: (args: readonly FlowType[]) => FlowType;
  readonly doc: string;
  readonly example: string;
  readonly aggregate?: boolean;
  /** Another documented parameter list, chosen when a call has exactly its number of arguments. */
  readonly altParams?: readonly FunctionParam[];
}

export const TIME_UNITS = ['millisecond', 'second', 'minute', 'hour', 'day', 'week', 'month', 'year'] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];

/** The short spellings the PantherFlow documentation accepts beside the full names. */
export const TIME_UNIT_ALIASES: Readonly<Record<string, TimeUnit>> = {
  ms: 'millisecond',
  s: 'second',
  m: 'minute',
  h: 'hour',
  d: 'day',
  w: 'week',
  y: 'year',
};

/** A unit as written ('h', 'hour', 'HOUR') → its full name, or undefined when it is none. */
export function canonicalUnit(text: string): TimeUnit | undefined {
  const t = text.trim();
  const lower = t.toLowerCase();
  if ((TIME_UNITS as readonly string[]).includes(lower)) return lower as TimeUnit;
  return TIME_UNIT_ALIASES[t] ?? undefined;
}

/** Fixed lengths in milliseconds (months and years have none). */
export const UNIT_MILLIS: Readonly<Partial<Record<TimeUnit, number>>> = {
  millisecond: 1,
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 604_800_000,
};

const fixed = (t: FlowType) => () => t;
const firstArg = (args: readonly FlowType[]) => args[0] ?? T.any;
const elementOf = (t: FlowType | undefined): FlowType => (t && t.kind === 'array' ? t.element : T.any);
const sameArray = (args: readonly FlowType[]) => (args[0]?.kind === 'array' ? args[0] : T.array(T.any));
const numericResult = (args: readonly FlowType[]) => (args[0]?.kind === 'int' ? T.int : T.float);

const p = (name: string, kind: ParamKind, doc: string, extra: Partial<FunctionParam> = {}): FunctionParam => ({
  name,
  kind,
  doc,
  ...extra,
});

const LIST: FunctionInfo[] = [
  // time
  {
    name: 'time.now',
    group: 'time',
    params: [],
    returns: fixed(T.timestamp),
    doc: 'The current time (UTC), fixed once per query.',
    example: 'time.now()',
  },
  {
    name: 'time.ago',
    group: 'time',
    params: [p('span', 'timespan', 'How far back from now.')],
    returns: fixed(T.timestamp),
    doc: 'The time `span` before now.',
    example: 'where p_event_time > time.ago(1d)',
  },
  {
    name: 'time.add',
    group: 'time',
    params: [p('time', 'timestamp', 'A timestamp.'), p('span', 'timespan', 'The span to add (negative to subtract).')],
    altParams: [
      p('time', 'timestamp', 'A timestamp.'),
      p('value', 'int', 'How many units to add (negative to subtract); may be a column.'),
      p('unit', 'unit', 'second (s), minute (m), hour (h), day (d), week, month or year (y).', { literal: true }),
    ],
    returns: fixed(T.timestamp),
    doc: "Adds a timespan to a timestamp: `time.add(t, 1h)`, or a count of units, `time.add(t, n, 'day')`.",
    example: 'time.add(p_event_time, 1h)',
  },
  {
    name: 'time.diff',
    group: 'time',
    params: [
      p('unit', 'unit', 'millisecond (ms), second (s), minute (m), hour (h), day (d), week (w), month or year (y).', {
        literal: true,
      }),
      p('start', 'timestamp', 'The earlier time.'),
      p('end', 'timestamp', 'The later time.'),
    ],
    returns: fixed(T.int),
    doc: 'The number of whole `unit`s from `start` to `end` (negative if `end` is earlier).',
    example: "time.diff('minute', start, end)",
  },
  {
    name: 'time.parse_timestamp',
    group: 'time',
    params: [p('text', 'string', "A timestamp such as '2024-05-01 13:45:00' or '2024-05-01T13:45:00'.")],
    returns: fixed(T.timestamp),
    doc: 'Parses text as a UTC timestamp; null when it is not one.',
    example: "time.parse_timestamp('2024-05-01 13:45:00')",
  },
  {
    name: 'time.parse_timespan',
    group: 'time',
    params: [p('text', 'string', "A timespan such as '1h' or '90s'.", { literal: true })],
    returns: fixed(T.timespan),
    doc: 'Parses a timespan written as text.',
    example: "time.parse_timespan('90m')",
  },
  {
    name: 'time.slice',
    group: 'time',
    params: [p('time', 'timestamp', 'A timestamp.'), p('span', 'timespan', 'The bucket width.', { literal: true })],
    altParams: [
      p('time', 'timestamp', 'A timestamp.'),
      p('length', 'int', 'How many units wide a slice is.', { literal: true }),
      p('unit', 'unit', 'second (s), minute (m), hour (h), day (d), week, month or year (y).', { literal: true }),
    ],
    returns: fixed(T.timestamp),
    doc: "The start of the `span`-wide bucket (counted from the Unix epoch) that holds `time`; also `time.slice(t, 1, 'hour')`.",
    example: 'summarize agg.count() by bucket=time.slice(p_event_time, 1h)',
  },
  {
    name: 'time.trunc',
    group: 'time',
    params: [
      p('unit', 'unit', 'second (s), minute (m), hour (h), day (d), week (w), month or year (y).', { literal: true }),
      p('time', 'timestamp', 'A timestamp.'),
    ],
    returns: fixed(T.timestamp),
    doc: 'Truncates a timestamp to the start of its `unit`.',
    example: "time.trunc('day', p_event_time)",
  },
  // strings
  {
    name: 'strings.contains',
    group: 'strings',
    params: [p('text', 'string', 'The text to search.'), p('part', 'string', 'The text to find.')],
    returns: fixed(T.bool),
    doc: 'Whether `text` contains `part` (case-sensitive).',
    example: "strings.contains(userAgent, 'aws-cli')",
  },
  {
    name: 'strings.starts_with',
    group: 'strings',
    params: [p('text', 'string', 'The text.'), p('prefix', 'string', 'The prefix.')],
    returns: fixed(T.bool),
    doc: 'Whether `text` begins with `prefix` (case-sensitive).',
    example: "strings.starts_with(eventName, 'Get')",
  },
  {
    name: 'strings.ends_with',
    group: 'strings',
    params: [p('text', 'string', 'The text.'), p('suffix', 'string', 'The suffix.')],
    returns: fixed(T.bool),
    doc: 'Whether `text` ends with `suffix` (case-sensitive).',
    example: "strings.ends_with(eventSource, '.amazonaws.com')",
  },
  {
    name: 'strings.lower',
    group: 'strings',
    params: [p('text', 'string', 'The text.')],
    returns: fixed(T.string),
    doc: 'The text in lower case.',
    example: 'strings.lower(eventName)',
  },
  {
    name: 'strings.upper',
    group: 'strings',
    params: [p('text', 'string', 'The text.')],
    returns: fixed(T.string),
    doc: 'The text in upper case.',
    example: 'strings.upper(awsRegion)',
  },
  {
    name: 'strings.len',
    group: 'strings',
    params: [p('text', 'string', 'The text.')],
    returns: fixed(T.int),
    doc: 'The number of characters in the text.',
    example: 'strings.len(userAgent)',
  },
  {
    name: 'strings.split',
    group: 'strings',
    params: [p('text', 'string', 'The text.'), p('separator', 'string', 'Where to split.')],
    returns: fixed(T.array(T.string)),
    doc: 'Splits text into an array of strings at each separator.',
    example: "strings.split(eventSource, '.')",
  },
  {
    name: 'strings.replace',
    group: 'strings',
    params: [
      p('text', 'string', 'The text.'),
      p('old', 'string', 'The text to replace.'),
      p('new', 'string', 'The replacement.'),
    ],
    returns: fixed(T.string),
    doc: 'Replaces every occurrence of `old` with `new` (plain text, not a pattern).',
    example: "strings.replace(eventSource, '.amazonaws.com', '')",
  },
  {
    name: 'strings.trim',
    group: 'strings',
    params: [p('text', 'string', 'The text.')],
    returns: fixed(T.string),
    doc: 'Removes leading and trailing spaces.',
    example: 'strings.trim(name)',
  },
  {
    name: 'strings.cat',
    group: 'strings',
    params: [p('value', 'any', 'A value; null counts as empty text.', { variadic: true })],
    returns: fixed(T.string),
    doc: 'Joins values into one string.',
    example: "strings.cat(eventSource, ':', eventName)",
  },
  // re
  {
    name: 're.matches',
    group: 're',
    params: [p('text', 'string', 'The text.'), p('pattern', 'string', 'A regular expression (RE2 syntax).')],
    returns: fixed(T.bool),
    doc: 'Whether the regular expression matches anywhere in the text.',
    example: "re.matches(eventName, '^(Put|Delete)Bucket')",
  },
  {
    name: 're.extract',
    group: 're',
    params: [
      p('text', 'string', 'The text.'),
      p('pattern', 'string', 'A regular expression (RE2 syntax).'),
      p('group', 'int', 'The capture group to return; 0 is the whole match.', { optional: true, literal: true }),
    ],
    returns: fixed(T.string),
    doc: 'The first match (or one of its capture groups); null when nothing (or only empty text) matches.',
    example: "re.extract(userAgent, 'aws-cli/([0-9.]+)', 1)",
  },
  {
    name: 're.replace',
    group: 're',
    params: [
      p('text', 'string', 'The text.'),
      p('pattern', 'string', 'A regular expression (RE2 syntax).'),
      p('replacement', 'string', 'The replacement; `\\1` inserts the first capture group.', { literal: true }),
    ],
    returns: fixed(T.string),
    doc: 'Replaces every match of the pattern.',
    example: "re.replace(arn, ':[0-9]{12}:', ':<account>:')",
  },
  // arrays
  {
    name: 'arrays.len',
    group: 'arrays',
    params: [p('array', 'array', 'An array.')],
    returns: fixed(T.int),
    doc: 'The number of elements.',
    example: 'arrays.len(p_any_ip_addresses)',
  },
  {
    name: 'arrays.overlap',
    group: 'arrays',
    params: [p('a', 'array', 'An array.'), p('b', 'array', 'Another array.')],
    returns: fixed(T.bool),
    doc: 'Whether the arrays share at least one element.',
    example: "arrays.overlap(p_any_ip_addresses, ['10.0.0.1', '10.0.0.2'])",
  },
  {
    name: 'arrays.difference',
    group: 'arrays',
    params: [p('a', 'array', 'An array.'), p('b', 'array', 'The elements to remove.')],
    returns: sameArray,
    doc: 'The distinct elements of `a` that are not in `b`, sorted.',
    example: 'arrays.difference(granted, used)',
  },
  {
    name: 'arrays.intersection',
    group: 'arrays',
    params: [p('a', 'array', 'An array.'), p('b', 'array', 'Another array.')],
    returns: sameArray,
    doc: 'The distinct elements found in both arrays, sorted.',
    example: 'arrays.intersection(a, b)',
  },
  {
    name: 'arrays.flatten',
    group: 'arrays',
    params: [p('array', 'array', 'An array of arrays.')],
    returns: (a) => (elementOf(a[0]).kind === 'array' ? elementOf(a[0]) : T.array(T.any)),
    doc: 'Concatenates an array of arrays into one array.',
    example: 'arrays.flatten([[1, 2], [3]])',
  },
  {
    name: 'arrays.map',
    group: 'arrays',
    params: [p('array', 'array', 'An array.'), p('fn', 'lambda', 'A function of one element: fn (x) { ... }.')],
    returns: (a) => T.array(a[1] ?? T.any),
    doc: 'Applies the function to every element.',
    example: 'arrays.map(names, fn (n) { strings.lower(n) })',
  },
  {
    name: 'arrays.filter',
    group: 'arrays',
    params: [p('array', 'array', 'An array.'), p('fn', 'lambda', 'A predicate of one element: fn (x) { ... }.')],
    returns: sameArray,
    doc: 'The elements for which the predicate is true.',
    example: 'arrays.filter(ports, fn (x) { x < 1024 })',
  },
  {
    name: 'arrays.contains',
    group: 'arrays',
    params: [p('array', 'array', 'An array.'), p('value', 'any', 'The value to find.')],
    returns: fixed(T.bool),
    doc: 'Whether the array holds the value.',
    example: "arrays.contains(p_any_ip_addresses, '10.0.0.1')",
  },
  // math
  {
    name: 'math.abs',
    group: 'math',
    params: [p('x', 'number', 'A number.')],
    returns: numericResult,
    doc: 'The absolute value.',
    example: 'math.abs(delta)',
  },
  {
    name: 'math.round',
    group: 'math',
    params: [p('x', 'number', 'A number.'), p('digits', 'int', 'Decimal places to keep.', { optional: true, literal: true })],
    returns: fixed(T.float),
    doc: 'Rounds half away from zero to `digits` decimal places (default 0).',
    example: 'math.round(ratio, 2)',
  },
  {
    name: 'math.floor',
    group: 'math',
    params: [p('x', 'number', 'A number.')],
    returns: fixed(T.float),
    doc: 'The largest whole number not greater than x.',
    example: 'math.floor(bytes / 1024)',
  },
  {
    name: 'math.ceil',
    group: 'math',
    params: [p('x', 'number', 'A number.')],
    returns: fixed(T.float),
    doc: 'The smallest whole number not less than x.',
    example: 'math.ceil(bytes / 1024)',
  },
  {
    name: 'math.sqrt',
    group: 'math',
    params: [p('x', 'number', 'A number.')],
    returns: fixed(T.float),
    doc: 'The square root.',
    example: 'math.sqrt(variance)',
  },
  {
    name: 'math.pow',
    group: 'math',
    params: [p('x', 'number', 'The base.'), p('y', 'number', 'The exponent.')],
    returns: fixed(T.float),
    doc: 'x raised to the power y.',
    example: 'math.pow(2, 10)',
  },
  {
    name: 'math.log',
    group: 'math',
    params: [p('x', 'number', 'A positive number.')],
    returns: fixed(T.float),
    doc: 'The natural logarithm.',
    example: 'math.log(bytes)',
  },
  {
    name: 'math.log10',
    group: 'math',
    params: [p('x', 'number', 'A positive number.')],
    returns: fixed(T.float),
    doc: 'The base-10 logarithm.',
    example: 'math.log10(bytes)',
  },
  {
    name: 'math.least',
    group: 'math',
    params: [p('x', 'any', 'Values of one type.', { variadic: true })],
    returns: firstArg,
    doc: 'The smallest of the values.',
    example: 'math.least(a, b, c)',
  },
  {
    name: 'math.greatest',
    group: 'math',
    params: [p('x', 'any', 'Values of one type.', { variadic: true })],
    returns: firstArg,
    doc: 'The largest of the values.',
    example: 'math.greatest(a, b, c)',
  },
  // json / object
  {
    name: 'json.extract',
    group: 'json',
    params: [
      p('value', 'json', 'A JSON column or JSON text.'),
      p('path', 'string', "A JSON path such as '$.user.name'.", { literal: true }),
    ],
    returns: fixed(T.string),
    doc: 'The scalar at a JSON path, as text; null when absent or not a scalar.',
    example: "json.extract(requestParameters, '$.bucketName')",
  },
  {
    name: 'json.serialize',
    group: 'json',
    params: [p('value', 'any', 'Any value.')],
    returns: fixed(T.string),
    doc: 'The value written as JSON text.',
    example: 'json.serialize(userIdentity)',
  },
  // general
  {
    name: 'coalesce',
    group: 'general',
    params: [p('value', 'any', 'Values of one type.', { variadic: true })],
    returns: firstArg,
    doc: 'The first value that is not null.',
    example: "coalesce(userName, 'unknown')",
  },
  // aggregations
  {
    name: 'agg.count',
    group: 'agg',
    aggregate: true,
    params: [p('value', 'any', 'Count only rows where this is not null.', { optional: true })],
    returns: fixed(T.int),
    doc: 'The number of rows (or of non-null values).',
    example: 'summarize agg.count() by eventName',
  },
  {
    name: 'agg.count_distinct',
    group: 'agg',
    aggregate: true,
    params: [p('value', 'any', 'The value to count.')],
    returns: fixed(T.int),
    doc: 'The number of distinct non-null values.',
    example: 'summarize agg.count_distinct(sourceIPAddress)',
  },
  {
    name: 'agg.sum',
    group: 'agg',
    aggregate: true,
    params: [p('value', 'number', 'A number.')],
    returns: numericResult,
    doc: 'The sum of the values.',
    example: 'summarize agg.sum(bytes) by srcAddr',
  },
  {
    name: 'agg.avg',
    group: 'agg',
    aggregate: true,
    params: [p('value', 'number', 'A number.')],
    returns: fixed(T.float),
    doc: 'The mean of the values.',
    example: 'summarize agg.avg(duration)',
  },
  {
    name: 'agg.min',
    group: 'agg',
    aggregate: true,
    params: [p('value', 'any', 'A value.')],
    returns: firstArg,
    doc: 'The smallest value.',
    example: 'summarize first_seen=agg.min(p_event_time) by userName',
  },
  {
    name: 'agg.max',
    group: 'agg',
    aggregate: true,
    params: [p('value', 'any', 'A value.')],
    returns: firstArg,
    doc: 'The largest value.',
    example: 'summarize last_seen=agg.max(p_event_time) by userName',
  },
  {
    name: 'agg.percentile',
    group: 'agg',
    aggregate: true,
    params: [p('value', 'number', 'A number.'), p('percent', 'number', 'The percentile, 0 to 100.', { literal: true })],
    returns: fixed(T.float),
    doc: 'The value below which `percent` percent of values fall (interpolated in DuckDB; approximate on Athena).',
    example: 'summarize p95=agg.percentile(duration, 95)',
  },
  {
    name: 'agg.make_set',
    group: 'agg',
    aggregate: true,
    params: [p('value', 'any', 'A value.')],
    returns: (a) => T.array(a[0] ?? T.any),
    doc: 'The distinct non-null values, sorted, as an array.',
    example: 'summarize regions=agg.make_set(awsRegion) by userName',
  },
  {
    name: 'agg.make_list',
    group: 'agg',
    aggregate: true,
    params: [p('value', 'any', 'A value.')],
    returns: (a) => T.array(a[0] ?? T.any),
    doc: 'All non-null values as an array (in no particular order).',
    example: 'summarize agg.make_list(eventName) by requestID',
  },
  {
    name: 'agg.take_any',
    group: 'agg',
    aggregate: true,
    params: [p('value', 'any', 'A value.')],
    returns: firstArg,
    doc: 'Any one value of the group.',
    example: 'summarize agg.take_any(userAgent) by sourceIPAddress',
  },
];

export const FUNCTIONS: ReadonlyMap<string, FunctionInfo> = new Map(LIST.map((f) => [f.name, f]));

export const NAMESPACES: readonly string[] = [
  ...new Set(LIST.filter((f) => f.name.includes('.')).map((f) => f.name.split('.')[0])),
];

export function minArgs(f: FunctionInfo): number {
  return f.params.filter((x) => !x.optional && !x.variadic).length + (f.params.some((x) => x.variadic) ? 1 : 0);
}

/** The parameter an argument at `index` binds to (variadic parameters absorb the rest). */
export function paramAt(f: FunctionInfo, index: number): FunctionParam | undefined {
  if (index < f.params.length) return f.params[index];
  const last = f.params[f.params.length - 1];
  return last?.variadic ? last : undefined;
}

export function signatureLabel(f: FunctionInfo): string {
  const params = f.params.map((x) => `${x.name}${x.optional ? '?' : ''}: ${x.kind}${x.variadic ? ', ...' : ''}`);
  return `${f.name}(${params.join(', ')})`;
}
