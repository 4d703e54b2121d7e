// The schema language: a log type's parser and fields, as written in YAML by the user or shipped as managed.

export const FIELD_TYPES = [
  'string',
  'object',
  'array',
  'json',
  'int',
  'float',
  'smallint',
  'bigint',
  'boolean',
  'timestamp',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const INDICATORS = [
  'ip',
  'domain',
  'hostname',
  'url',
  'md5',
  'sha1',
  'sha256',
  'aws_arn',
  'aws_account_id',
  'aws_instance_id',
  'aws_tag',
  'trace_id',
  'username',
  'email',
  'net_addr',
  'mac',
  'actor_id',
  'serial_number',
] as const;
export type Indicator = (typeof INDICATORS)[number];

export const BUILTIN_TIME_FORMATS = ['rfc3339', 'unix', 'unix_ms', 'unix_us', 'unix_ns', 'unix_auto', 'cloudflare'] as const;

export const MASK_TYPES = ['md5', 'sha1', 'sha256', 'sha512', 'redact'] as const;
export type MaskType = (typeof MASK_TYPES)[number];

export type IpVersion = 'ipv4' | 'ipv6' | 'any';

export interface ValidateSpec {
  allow?: string[];
  deny?: string[];
  ip?: IpVersion;
  cidr?: IpVersion;
}

export interface MaskSpec {
  type: MaskType;
  salt?: string;
  to?: string;
}

/** A value description without a name: the element of an array. */
export interface ValueSpec {
  type: FieldType;
  description?: string;
  element?: ValueSpec;
  fields?: FieldSpec[];
  indicators?: Indicator[];
  timeFormats?: string[];
  /** Legacy single format; read as `timeFormats: [timeFormat]`. */
  timeFormat?: string;
  isEventTime?: boolean;
  isEmbeddedJSON?: boolean;
  validate?: ValidateSpec;
}

export interface FieldSpec extends ValueSpec {
  name: string;
  required?: boolean;
  /** Take the value from another field of the enclosing object (its raw name). */
  rename?: { from: string };
  /** Copy the value of a field, by dotted path from the enclosing object. */
  copy?: { from: string };
  /** Join the values of several paths. */
  concat?: { paths: string[]; separator?: string };
  /** Take one part of a field split by a separator. */
  split?: { from: string; separator: string; index: number };
  /** Replace the value by its salted hash or by a fixed text. */
  mask?: MaskSpec;
  /** Set by field discovery: the field was found in the data, not written by a person. */
  isDiscovered?: boolean;
}

export type CsvDelimiter = ',' | '\t' | ' ' | '|';

export interface TextParserOptions {
  skipPrefix?: string;
  emptyValues?: string[];
  trimSpace?: boolean;
  /** New fields built from templates over the parsed values: `name: "%{a}:%{b}"`. */
  expandFields?: Record<string, string>;
}

export interface CsvParserSpec extends TextParserOptions {
  delimiter?: string;
  hasHeader?: boolean;
  columns?: string[];
}

export interface FastmatchParserSpec extends TextParserOptions {
  match: string[];
}

export interface RegexParserSpec extends TextParserOptions {
  match: string[];
  patternDefinitions?: Record<string, string>;
}

export interface ParserSpec {
  csv?: CsvParserSpec;
  fastmatch?: FastmatchParserSpec;
  regex?: RegexParserSpec;
  /** Python `def parse(log):`; run by the pipeline, not by this library. */
  script?: { function: string };
}

const ENDPOINT_UDM = ['address', 'domain', 'ip', 'mac', 'port', 'arns', 'bytes'] as const;
/** Unified data model names a schema can map its fields to (into `p_udm`). */
export const UDM_NAMES = [
  'user.email',
  'user.name',
  'user.full_name',
  'user.provider_id',
  'user.arns',
  ...ENDPOINT_UDM.map((n) => `source.${n}`),
  ...ENDPOINT_UDM.map((n) => `destination.${n}`),
] as const;

/** A unified data model name and the event paths (dotted, output field names) that give its value, in order. */
export interface UdmMapping {
  name: string;
  paths: string[];
}

export interface SchemaSpec {
  schema: string;
  description?: string;
  referenceURL?: string;
  parser?: ParserSpec;
  fields: FieldSpec[];
  isFieldDiscoveryEnabled?: boolean;
  udm?: UdmMapping[];
}

export type ParserType = 'csv' | 'fastmatch' | 'regex' | 'script' | 'none';

export function parserType(spec: SchemaSpec): ParserType {
  const p = spec.parser;
  if (!p) return 'none';
  if (p.csv) return 'csv';
  if (p.fastmatch) return 'fastmatch';
  if (p.regex) return 'regex';
  if (p.script) return 'script';
  return 'none';
}
