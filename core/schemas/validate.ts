// Schema validation with the specification's rules and messages. Works on what YAML gave (any shape), so a
// mistyped property is reported, never thrown.
import { FIELD_REQUIRED, NO_DUPLICATES } from '../validation/generic';
import { compileFastmatch, FastmatchError } from './parsers/fastmatch';
import { compileGrok, GrokError } from './grok';
import { isBuiltinTimeFormat, strftimeProblems } from './time';
import { BUILTIN_TIME_FORMATS, FIELD_TYPES, INDICATORS, MASK_TYPES, UDM_NAMES } from './types';

export interface SchemaProblem {
  level: 'error' | 'warning';
  /** Where, as a dotted path into the spec (`fields[2].timeFormats`). */
  path: string;
  message: string;
}

export interface ValidateOptions {
  /** Names of the schemas that exist already (managed and custom); the new name must differ, ignoring case. */
  existingNames?: Iterable<string>;
  /** A user's schema: its name needs the `Custom.` prefix. */
  custom?: boolean;
}

export const CUSTOM_PREFIX = 'Custom.';
export const MAX_SCHEMA_NAME_LENGTH = 248;
export const MAX_SCHEMA_NAME_WORDS = 6;
export const MESSAGES = {
  required: FIELD_REQUIRED,
  duplicateSchema: 'You already have a Schema with the same name',
  nestedField: 'Nested fields are not supported. Please ensure the field is at the root',
  fastmatchLength: 'Must be at least 4 characters long',
  fastmatchPlaceholder: 'Must contain at least one placeholder',
  script: 'Must be a Python function with the signature `def parse(log):`',
  duplicates: NO_DUPLICATES,
} as const;

const WORD = /^[A-Z][A-Za-z0-9]*$/;
const FIELD_NAME = /^[A-Za-z_@$#][A-Za-z0-9_@$#.\-:/]*$/;
const PATTERN_NAME = /^[A-Z][A-Z0-9_]*$/;
const EXPAND_KEY = /^[A-Za-z][A-Za-z0-9]*$/;
const CSV_DELIMITERS = [',', '\t', ' ', '|'];
const IP_VERSIONS = ['ipv4', 'ipv6', 'any'];

const TOP_KEYS = ['schema', 'description', 'referenceURL', 'parser', 'fields', 'isFieldDiscoveryEnabled', 'udm', 'version'];
const VALUE_KEYS = [
  'type',
  'description',
  'element',
  'fields',
  'indicators',
  'timeFormats',
  'timeFormat',
  'isEventTime',
  'isEmbeddedJSON',
  'validate',
];
const FIELD_KEYS = [...VALUE_KEYS, 'name', 'required', 'rename', 'copy', 'concat', 'split', 'mask', 'isDiscovered'];
const TEXT_KEYS = ['skipPrefix', 'emptyValues', 'trimSpace', 'expandFields'];

/** The name a custom schema is stored under: the `Custom.` prefix applied. */
export function customSchemaName(name: string): string {
  return name.startsWith(CUSTOM_PREFIX) ? name : CUSTOM_PREFIX + name;
}

/** Problems with a schema name alone (for a form field). */
export function validateSchemaName(name: unknown, options: ValidateOptions = {}): string[] {
  if (typeof name !== 'string' || name.trim() === '') return [MESSAGES.required];
  const problems: string[] = [];
  if (name.length > MAX_SCHEMA_NAME_LENGTH) problems.push(`Must be at most ${MAX_SCHEMA_NAME_LENGTH} characters`);
  if (!/^[A-Z]/.test(name)) problems.push('Must start with a capital letter');
  const words = name.split('.');
  if (words.some((w) => !WORD.test(w))) {
    problems.push('Must be capitalized alphanumeric words separated by dots');
  }
  if (words.length > MAX_SCHEMA_NAME_WORDS) problems.push(`Must have at most ${MAX_SCHEMA_NAME_WORDS} words separated by dots`);
  if (options.custom && !name.startsWith(CUSTOM_PREFIX)) problems.push(`Must start with the prefix '${CUSTOM_PREFIX}'`);
  if (options.existingNames) {
    const wanted = (options.custom ? customSchemaName(name) : name).toLowerCase();
    for (const existing of options.existingNames) {
      if (existing.toLowerCase() === wanted) {
        problems.push(MESSAGES.duplicateSchema);
        break;
      }
    }
  }
  return problems;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export const MAX_FIELDS = 10_000;
export const MAX_FIELD_DEPTH = 32;

class Collector {
  readonly problems: SchemaProblem[] = [];
  /** Fields seen so far, and whether the limit was reported (YAML aliases can make a small text huge). */
  fieldCount = 0;
  tooMany = false;
  error(path: string, message: string): void {
    this.problems.push({ level: 'error', path, message });
  }
  warn(path: string, message: string): void {
    this.problems.push({ level: 'warning', path, message });
  }
  unknownKeys(obj: Record<string, unknown>, allowed: string[], path: string): void {
    for (const key of Object.keys(obj)) {
      if (!allowed.includes(key)) this.error(path ? `${path}.${key}` : key, `Unknown property '${key}'`);
    }
  }
  stringList(value: unknown, path: string, min: number): string[] | undefined {
    if (!Array.isArray(value)) {
      this.error(path, 'Must be a list');
      return undefined;
    }
    if (value.length < min) this.error(path, `Must have at least ${min} item${min === 1 ? '' : 's'}`);
    value.forEach((v, i) => {
      if (typeof v !== 'string') this.error(`${path}[${i}]`, 'Must be a text value');
    });
    return value.filter((v): v is string => typeof v === 'string');
  }
  boolean(obj: Record<string, unknown>, key: string, path: string): void {
    if (obj[key] !== undefined && typeof obj[key] !== 'boolean')
      this.error(path ? `${path}.${key}` : key, 'Must be true or false');
  }
}

function isUrl(text: string): boolean {
  return /^https?:\/\/[^\s/$.?#][^\s]*$/i.test(text);
}

function validateTimeFormats(c: Collector, spec: Record<string, unknown>, path: string): void {
  const formats: string[] = [];
  if (spec.timeFormats !== undefined) formats.push(...(c.stringList(spec.timeFormats, `${path}.timeFormats`, 1) ?? []));
  if (spec.timeFormat !== undefined) {
    if (typeof spec.timeFormat !== 'string') c.error(`${path}.timeFormat`, 'Must be a text value');
    else formats.push(spec.timeFormat);
  }
  if (spec.timeFormats === undefined && spec.timeFormat === undefined) {
    c.error(path, 'Timestamps need a timeFormat or timeFormats');
    return;
  }
  for (const f of formats) {
    if (isBuiltinTimeFormat(f)) continue;
    if (!f.includes('%')) {
      c.error(
        `${path}.timeFormats`,
        `'${f}' is neither a built-in format (${BUILTIN_TIME_FORMATS.join(', ')}) nor a strftime format`,
      );
      continue;
    }
    for (const problem of strftimeProblems(f)) c.error(`${path}.timeFormats`, `'${f}': ${problem}`);
  }
}

function validateValue(c: Collector, spec: Record<string, unknown>, path: string): void {
  const type = spec.type;
  if (type === undefined) return c.error(`${path}.type`, MESSAGES.required);
  if (typeof type !== 'string' || !(FIELD_TYPES as readonly string[]).includes(type)) {
    return c.error(`${path}.type`, `Must be one of ${FIELD_TYPES.join(', ')}`);
  }
  if (type === 'timestamp') validateTimeFormats(c, spec, path);
  else {
    if (spec.timeFormats !== undefined || spec.timeFormat !== undefined)
      c.error(path, 'Only timestamp fields take a time format');
    if (spec.isEventTime !== undefined) c.error(`${path}.isEventTime`, 'Only timestamp fields can be the event time');
  }
  if (type === 'object') {
    if (spec.fields === undefined) c.error(`${path}.fields`, MESSAGES.required);
    else validateFields(c, spec.fields, `${path}.fields`);
  } else if (spec.fields !== undefined) c.error(`${path}.fields`, 'Only object fields have fields');
  if (type === 'array') {
    if (!isRecord(spec.element)) c.error(`${path}.element`, MESSAGES.required);
    else {
      c.unknownKeys(spec.element, VALUE_KEYS, `${path}.element`);
      validateValue(c, spec.element, `${path}.element`);
    }
  } else if (spec.element !== undefined) c.error(`${path}.element`, 'Only array fields have an element');
  if (spec.isEmbeddedJSON !== undefined && !['object', 'array', 'json'].includes(type)) {
    c.error(`${path}.isEmbeddedJSON`, 'Only object, array and json fields can hold embedded JSON');
  }
  c.boolean(spec, 'isEventTime', path);
  c.boolean(spec, 'isEmbeddedJSON', path);
  if (spec.indicators !== undefined) {
    if (type !== 'string') c.error(`${path}.indicators`, 'Indicators apply to string fields only');
    const list = c.stringList(spec.indicators, `${path}.indicators`, 1) ?? [];
    list.forEach((name, i) => {
      if (!(INDICATORS as readonly string[]).includes(name))
        c.error(`${path}.indicators[${i}]`, `Must be one of ${INDICATORS.join(', ')}`);
    });
  }
  if (spec.validate !== undefined) validateRules(c, spec.validate, `${path}.validate`, type);
  if (spec.description !== undefined && typeof spec.description !== 'string')
    c.error(`${path}.description`, 'Must be a text value');
}

function validateRules(c: Collector, rules: unknown, path: string, type: string): void {
  if (!isRecord(rules)) return c.error(path, 'Must be an object');
  if (type !== 'string') c.error(path, 'Validation applies to string fields only');
  c.unknownKeys(rules, ['allow', 'deny', 'ip', 'cidr'], path);
  if (rules.allow !== undefined) c.stringList(rules.allow, `${path}.allow`, 1);
  if (rules.deny !== undefined) c.stringList(rules.deny, `${path}.deny`, 1);
  for (const key of ['ip', 'cidr'] as const) {
    if (rules[key] !== undefined && !IP_VERSIONS.includes(rules[key] as string))
      c.error(`${path}.${key}`, 'Must be one of ipv4, ipv6, any');
  }
  if (Object.keys(rules).length === 0) c.error(path, 'Must have allow, deny, ip or cidr');
}

function validateTransforms(c: Collector, field: Record<string, unknown>, path: string): void {
  const present = ['rename', 'copy', 'concat', 'split'].filter((k) => field[k] !== undefined);
  if (present.length > 1) c.error(path, `Use only one of ${present.join(', ')}`);
  const requireText = (obj: Record<string, unknown>, key: string, p: string) => {
    if (typeof obj[key] !== 'string' || obj[key] === '') c.error(`${p}.${key}`, MESSAGES.required);
  };
  for (const key of ['rename', 'copy'] as const) {
    const t = field[key];
    if (t === undefined) continue;
    if (!isRecord(t)) c.error(`${path}.${key}`, 'Must be an object');
    else {
      c.unknownKeys(t, ['from'], `${path}.${key}`);
      requireText(t, 'from', `${path}.${key}`);
    }
  }
  if (field.concat !== undefined) {
    const t = field.concat;
    if (!isRecord(t)) c.error(`${path}.concat`, 'Must be an object');
    else {
      c.unknownKeys(t, ['paths', 'separator'], `${path}.concat`);
      if (t.paths === undefined) c.error(`${path}.concat.paths`, MESSAGES.required);
      else c.stringList(t.paths, `${path}.concat.paths`, 2);
      if (t.separator !== undefined && typeof t.separator !== 'string')
        c.error(`${path}.concat.separator`, 'Must be a text value');
    }
  }
  if (field.split !== undefined) {
    const t = field.split;
    if (!isRecord(t)) c.error(`${path}.split`, 'Must be an object');
    else {
      c.unknownKeys(t, ['from', 'separator', 'index'], `${path}.split`);
      requireText(t, 'from', `${path}.split`);
      requireText(t, 'separator', `${path}.split`);
      if (t.index === undefined) c.error(`${path}.split.index`, MESSAGES.required);
      else if (typeof t.index !== 'number' || !Number.isInteger(t.index) || t.index < 0)
        c.error(`${path}.split.index`, 'Must be a whole number, at least 0');
    }
  }
  if (field.mask !== undefined) {
    const m = field.mask;
    if (!isRecord(m)) return c.error(`${path}.mask`, 'Must be an object');
    c.unknownKeys(m, ['type', 'salt', 'to'], `${path}.mask`);
    if (m.type === undefined) c.error(`${path}.mask.type`, MESSAGES.required);
    else if (!(MASK_TYPES as readonly unknown[]).includes(m.type))
      c.error(`${path}.mask.type`, `Must be one of ${MASK_TYPES.join(', ')}`);
    if (m.type === 'redact' && m.salt !== undefined)
      c.error(`${path}.mask.salt`, "Only hash masks take a salt; redact takes 'to'");
    if (m.type !== 'redact' && m.to !== undefined) c.error(`${path}.mask.to`, "Only redact takes 'to'; hash masks take a salt");
    for (const key of ['salt', 'to'] as const) {
      if (m[key] !== undefined && typeof m[key] !== 'string') c.error(`${path}.mask.${key}`, 'Must be a text value');
    }
  }
}

function validateFields(c: Collector, fields: unknown, path: string): void {
  if (!Array.isArray(fields)) return c.error(path, 'Must be a list');
  if (c.tooMany) return;
  if ((path.match(/fields/g)?.length ?? 0) > MAX_FIELD_DEPTH)
    return c.error(path, `Fields nest more than ${MAX_FIELD_DEPTH} levels deep`);
  c.fieldCount += fields.length;
  if (c.fieldCount > MAX_FIELDS) {
    c.tooMany = true;
    return c.error(path, `A schema has at most ${MAX_FIELDS} fields`);
  }
  const seen = new Set<string>();
  fields.forEach((field, i) => {
    const p = `${path}[${i}]`;
    if (!isRecord(field)) return c.error(p, 'Must be an object');
    c.unknownKeys(field, FIELD_KEYS, p);
    const name = field.name;
    if (typeof name !== 'string' || name === '') c.error(`${p}.name`, MESSAGES.required);
    else {
      if (!FIELD_NAME.test(name))
        c.error(
          `${p}.name`,
          'Must start with a letter, an underscore, @, $ or #, and contain only letters, digits and _ - . : / @ $ #',
        );
      if (/[.[\]$]/.test(name)) c.warn(`${p}.name`, MESSAGES.nestedField);
      if (seen.has(name)) c.error(`${p}.name`, MESSAGES.duplicates);
      seen.add(name);
    }
    c.boolean(field, 'required', p);
    validateValue(c, field, p);
    validateTransforms(c, field, p);
  });
}

function validateTextOptions(c: Collector, spec: Record<string, unknown>, path: string): void {
  if (spec.skipPrefix !== undefined && typeof spec.skipPrefix !== 'string') c.error(`${path}.skipPrefix`, 'Must be a text value');
  if (spec.emptyValues !== undefined) c.stringList(spec.emptyValues, `${path}.emptyValues`, 0);
  c.boolean(spec, 'trimSpace', path);
  if (spec.expandFields !== undefined) {
    if (!isRecord(spec.expandFields)) c.error(`${path}.expandFields`, 'Must be an object');
    else {
      for (const [key, template] of Object.entries(spec.expandFields)) {
        if (!EXPAND_KEY.test(key)) c.error(`${path}.expandFields.${key}`, 'Must be alphanumeric and start with a letter');
        if (typeof template !== 'string') c.error(`${path}.expandFields.${key}`, 'Must be a text value');
      }
    }
  }
}

function validateParser(c: Collector, parser: unknown): void {
  if (!isRecord(parser)) return c.error('parser', 'Must be an object');
  c.unknownKeys(parser, ['csv', 'fastmatch', 'regex', 'script'], 'parser');
  const kinds = Object.keys(parser).filter((k) => parser[k] !== undefined && parser[k] !== null);
  if (kinds.length > 1) c.error('parser', `Choose one parser, not ${kinds.join(' and ')}`);
  if (parser.csv !== undefined) {
    const csv = parser.csv;
    if (!isRecord(csv)) return c.error('parser.csv', 'Must be an object');
    c.unknownKeys(csv, ['delimiter', 'hasHeader', 'columns', ...TEXT_KEYS], 'parser.csv');
    validateTextOptions(c, csv, 'parser.csv');
    c.boolean(csv, 'hasHeader', 'parser.csv');
    const delimiter = csv.delimiter;
    if (csv.hasHeader === true) {
      if (delimiter !== undefined && delimiter !== '' && !CSV_DELIMITERS.includes(delimiter as string)) {
        c.error('parser.csv.delimiter', 'Must be one of comma, tab, space or pipe');
      }
      if (csv.columns !== undefined) c.stringList(csv.columns, 'parser.csv.columns', 0);
    } else {
      if (delimiter === undefined || delimiter === '') c.error('parser.csv.delimiter', MESSAGES.required);
      else if (!CSV_DELIMITERS.includes(delimiter as string))
        c.error('parser.csv.delimiter', 'Must be one of comma, tab, space or pipe');
      if (csv.columns === undefined) c.error('parser.csv.columns', MESSAGES.required);
      else c.stringList(csv.columns, 'parser.csv.columns', 1);
    }
  }
  if (parser.fastmatch !== undefined) {
    const fm = parser.fastmatch;
    if (!isRecord(fm)) return c.error('parser.fastmatch', 'Must be an object');
    c.unknownKeys(fm, ['match', ...TEXT_KEYS], 'parser.fastmatch');
    validateTextOptions(c, fm, 'parser.fastmatch');
    if (fm.match === undefined) c.error('parser.fastmatch.match', MESSAGES.required);
    else {
      const patterns = c.stringList(fm.match, 'parser.fastmatch.match', 1) ?? [];
      patterns.forEach((pattern, i) => {
        const p = `parser.fastmatch.match[${i}]`;
        if (pattern.length < 4) return c.error(p, MESSAGES.fastmatchLength);
        if (!/%\{[^}]*\}/.test(pattern)) return c.error(p, MESSAGES.fastmatchPlaceholder);
        if (/[\r\n]/.test(pattern)) return c.error(p, 'Must not contain a new line');
        try {
          compileFastmatch(pattern);
        } catch (err) {
          if (err instanceof FastmatchError) c.error(p, err.message);
          else throw err;
        }
      });
    }
  }
  if (parser.regex !== undefined) {
    const rx = parser.regex;
    if (!isRecord(rx)) return c.error('parser.regex', 'Must be an object');
    c.unknownKeys(rx, ['match', 'patternDefinitions', ...TEXT_KEYS], 'parser.regex');
    validateTextOptions(c, rx, 'parser.regex');
    let definitions: Record<string, string> = {};
    if (rx.patternDefinitions !== undefined) {
      if (!isRecord(rx.patternDefinitions)) c.error('parser.regex.patternDefinitions', 'Must be an object');
      else {
        for (const [name, body] of Object.entries(rx.patternDefinitions)) {
          if (!PATTERN_NAME.test(name))
            c.error(`parser.regex.patternDefinitions.${name}`, 'Must be capital letters and digits, starting with a capital');
          if (typeof body !== 'string') c.error(`parser.regex.patternDefinitions.${name}`, 'Must be a text value');
        }
        definitions = rx.patternDefinitions as Record<string, string>;
      }
    }
    if (rx.match === undefined) c.error('parser.regex.match', MESSAGES.required);
    else {
      const patterns = c.stringList(rx.match, 'parser.regex.match', 1);
      if (patterns && patterns.length > 0) {
        try {
          compileGrok(patterns.join(''), definitions);
        } catch (err) {
          if (err instanceof GrokError) c.error('parser.regex.match', err.message);
          else throw err;
        }
      }
    }
  }
  if (parser.script !== undefined) {
    const s = parser.script;
    if (!isRecord(s)) return c.error('parser.script', 'Must be an object');
    if (typeof s.function !== 'string' || !/^def parse\(log\):/m.test(s.function))
      c.error('parser.script.function', MESSAGES.script);
  }
}

function validateUdm(c: Collector, udm: unknown): void {
  if (!Array.isArray(udm)) return c.error('udm', 'Must be a list');
  const seen = new Set<string>();
  udm.forEach((mapping, i) => {
    const p = `udm[${i}]`;
    if (!isRecord(mapping)) return c.error(p, 'Must be an object');
    c.unknownKeys(mapping, ['name', 'paths'], p);
    const name = mapping.name;
    if (typeof name !== 'string' || name === '') c.error(`${p}.name`, MESSAGES.required);
    else if (!(UDM_NAMES as readonly string[]).includes(name)) c.error(`${p}.name`, `Must be one of ${UDM_NAMES.join(', ')}`);
    else if (seen.has(name)) c.error(`${p}.name`, MESSAGES.duplicates);
    else seen.add(name);
    if (mapping.paths === undefined) c.error(`${p}.paths`, MESSAGES.required);
    else c.stringList(mapping.paths, `${p}.paths`, 1);
  });
}

/** Every problem with a schema spec (as loaded from YAML), errors and warnings, with where they are. */
export function validateSchema(spec: unknown, options: ValidateOptions = {}): SchemaProblem[] {
  const c = new Collector();
  if (!isRecord(spec)) {
    c.error('', 'A schema must be a YAML mapping with schema, fields and optionally parser');
    return c.problems;
  }
  c.unknownKeys(spec, TOP_KEYS, '');
  for (const message of validateSchemaName(spec.schema, options)) c.error('schema', message);
  if (spec.description !== undefined && typeof spec.description !== 'string') c.error('description', 'Must be a text value');
  if (spec.referenceURL !== undefined && (typeof spec.referenceURL !== 'string' || !isUrl(spec.referenceURL))) {
    c.error('referenceURL', 'Must be a valid URL');
  }
  c.boolean(spec, 'isFieldDiscoveryEnabled', '');
  if (spec.fields === undefined || (Array.isArray(spec.fields) && spec.fields.length === 0)) {
    if (spec.isFieldDiscoveryEnabled !== true) c.error('fields', MESSAGES.required);
  } else validateFields(c, spec.fields, 'fields');
  if (spec.parser !== undefined && spec.parser !== null) validateParser(c, spec.parser);
  if (spec.udm !== undefined) validateUdm(c, spec.udm);
  return c.problems;
}
