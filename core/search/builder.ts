// The query builder (Search mode): log types, conditions in the simple-detection model, fields to show and a
// limit → one Athena SQL query over the log types' tables, carrying the range's partition filter.
import { quoteName, quoteString } from '../lake/sql-text';
import { LOGS_DATABASE, tableName } from '../lake/layout';
import type { Condition, Group, Item } from '../detections/simple/model';
import {
  PRIVATE_V4_EXCEPT_TEXT,
  PRIVATE_V4_TEXT,
  PRIVATE_V6_EXCEPT_TEXT,
  PRIVATE_V6_TEXT,
  SHARED_V4_TEXT,
} from '../detections/simple/evaluate';
import { parseCidr } from '../lookups/cidr';
import { eventTimeFilter, partitionFilter, type ResolvedRange } from './time-range';

export interface BuilderQuery {
  readonly logTypes: readonly string[];
  readonly conditions?: Group | null;
  readonly fields?: readonly string[] | null;
  readonly limit?: number | null;
}

export const BUILDER_DEFAULT_LIMIT = 1000;
export const BUILDER_MAX_LIMIT = 100_000;
/** The columns every table has, shown when several log types are searched without fields. */
export const COMMON_COLUMNS = [
  'p_event_time',
  'p_log_type',
  'p_row_id',
  'p_source_label',
  'p_any_ip_addresses',
  'p_any_domain_names',
];

export class BuilderError extends Error {}

const ident = quoteName;
const str = quoteString;

/** `a.b.c` → `"a"."b"."c"` (struct fields in both engines). */
export function fieldSql(path: string): string {
  if (!/^[A-Za-z_@$][\w@$-]*(\.[A-Za-z_@$][\w@$-]*)*$/.test(path)) throw new BuilderError(`${path} is not a field name`);
  return path.split('.').map(ident).join('.');
}

function value(v: unknown, field: string): string {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (typeof v === 'string') return str(v);
  throw new BuilderError(`The value of ${field} must be text, a number or true/false`);
}

const likeText = (v: unknown, field: string) => {
  if (typeof v !== 'string' && typeof v !== 'number') throw new BuilderError(`The value of ${field} must be text`);
  return String(v).replace(/[\\%_]/g, (c) => `\\${c}`);
};

// IP operators, in Athena's (Trino's) IP functions: `contains(network, address)` over `TRY_CAST(x AS IPADDRESS)`
// (a value that is no address is NULL, so it is in no network), `filter` and `cardinality` for arrays. The
// stand-in spells them in DuckDB (local/services/athena/translate.ts). Private and public follow the
// detections' evaluator (core/detections/simple/evaluate.ts, Python's ipaddress tables); an IPv4 address
// written as IPv6 is judged as IPv4, so `::ffff:0:0/96` is not listed here (Athena holds IPv4 in that form).
const address = (sql: string) => `TRY_CAST(${sql} AS IPADDRESS)`;
const inNetwork = (cidr: string, addr: string) => `contains(${str(cidr)}, ${addr})`;
const anyOf = (cidrs: readonly string[], addr: string) => `(${cidrs.map((n) => inNetwork(n, addr)).join(' OR ')})`;
const PRIVATE_V6_SQL = PRIVATE_V6_TEXT.filter((n) => n !== '::ffff:0:0/96');

function cidrValue(c: Condition): string {
  const text = typeof c.value === 'string' ? c.value.trim() : '';
  if (!text.includes('/') || !parseCidr(text))
    throw new BuilderError(`The value of ${c.target} must be a CIDR block such as 10.0.0.0/8 or 2001:db8::/32`);
  return text;
}

function isPrivateSql(addr: string): string {
  return `(${anyOf([...PRIVATE_V4_TEXT, ...PRIVATE_V6_SQL], addr)} AND NOT ${anyOf(
    [...PRIVATE_V4_EXCEPT_TEXT, ...PRIVATE_V6_EXCEPT_TEXT],
    addr,
  )})`;
}

function condition(c: Condition): string {
  const f = fieldSql(c.target);
  const text = `CAST(${f} AS varchar)`;
  switch (c.operator) {
    case '==':
      return `${f} = ${value(c.value, c.target)}`;
    case '!=':
      return `(${f} IS NULL OR ${f} <> ${value(c.value, c.target)})`;
    case 'in':
    case 'not in': {
      const values = Array.isArray(c.value) ? c.value : [c.value];
      if (!values.length) throw new BuilderError(`${c.target} ${c.operator} needs at least one value`);
      return `${f} ${c.operator === 'in' ? 'IN' : 'NOT IN'} (${values.map((v) => value(v, c.target)).join(', ')})`;
    }
    case 'contains':
      return `${text} LIKE ${str(`%${likeText(c.value, c.target)}%`)} ESCAPE '\\'`;
    case 'does not contain':
      return `(${f} IS NULL OR ${text} NOT LIKE ${str(`%${likeText(c.value, c.target)}%`)} ESCAPE '\\')`;
    case 'starts with':
      return `${text} LIKE ${str(`${likeText(c.value, c.target)}%`)} ESCAPE '\\'`;
    case 'ends with':
      return `${text} LIKE ${str(`%${likeText(c.value, c.target)}`)} ESCAPE '\\'`;
    case '>':
    case '<':
    case '>=':
    case '<=':
      return `${f} ${c.operator} ${value(c.value, c.target)}`;
    case 'is empty':
      return `(${f} IS NULL OR ${text} = '')`;
    case 'is not empty':
      return `(${f} IS NOT NULL AND ${text} <> '')`;
    case 'in cidr':
      return `COALESCE(${inNetwork(cidrValue(c), address(f))}, FALSE)`;
    case 'not in cidr':
      return `NOT COALESCE(${inNetwork(cidrValue(c), address(f))}, FALSE)`;
    case 'contains ip in cidr':
    case 'does not contain ip in cidr': {
      const any = `COALESCE(cardinality(filter(${f}, x -> COALESCE(${inNetwork(cidrValue(c), address('x'))}, FALSE))) > 0, FALSE)`;
      return c.operator === 'contains ip in cidr' ? any : `NOT ${any}`;
    }
    case 'is private':
      return `COALESCE(${isPrivateSql(address(f))}, FALSE)`;
    case 'is public': {
      const a = address(f);
      return `COALESCE(${a} IS NOT NULL AND NOT ${isPrivateSql(a)} AND NOT ${inNetwork(SHARED_V4_TEXT, a)}, FALSE)`;
    }
    default:
      throw new BuilderError(`The operator "${c.operator}" is not available in search yet; use Native SQL`);
  }
}

function group(g: Group): string {
  const parts = g.items.map(item);
  if (!parts.length) return 'TRUE';
  return parts.length === 1 ? parts[0] : `(${parts.join(g.conjunction === 'or' ? ' OR ' : ' AND ')})`;
}

const item = (i: Item): string => (i.kind === 'group' ? group(i) : condition(i));

/** The builder's SQL over the range; throws BuilderError for what it cannot express. */
export function builderSql(query: BuilderQuery, range: ResolvedRange): string {
  if (!query.logTypes.length) throw new BuilderError('Choose at least one log type');
  const limit = query.limit ?? BUILDER_DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > BUILDER_MAX_LIMIT)
    throw new BuilderError(`limit must be a whole number from 1 to ${BUILDER_MAX_LIMIT}`);
  const asked = query.fields?.length ? query.fields : query.logTypes.length > 1 ? COMMON_COLUMNS : undefined;
  const fields = asked && !asked.includes('p_event_time') ? ['p_event_time', ...asked] : asked;
  const select = fields ? fields.map((f) => `${fieldSql(f)} AS ${ident(f)}`).join(', ') : '*';
  const where = [partitionFilter(range), eventTimeFilter(range), query.conditions ? group(query.conditions) : 'TRUE']
    .filter((w) => w !== 'TRUE')
    .join(' AND ');
  const parts = query.logTypes.map(
    (logType) => `SELECT ${select} FROM ${ident(LOGS_DATABASE)}.${ident(tableName(logType))}${where ? ` WHERE ${where}` : ''}`,
  );
  const union = parts.length === 1 ? parts[0] : parts.map((p) => `(${p})`).join(' UNION ALL ');
  return `SELECT * FROM (${union}) ORDER BY "p_event_time" DESC LIMIT ${limit}`;
}
