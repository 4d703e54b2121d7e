// Schema inference: field specs from sample events, the way a person onboarding a custom log would start.
// Types (with int widened to float, scalars to string, conflicts to json), nested objects and arrays,
// timestamps with the format that reads every sample, likely indicators, and one event time.
import { isIP } from './net';
import { compileTimeFormat, type Instant } from './time';
import type { FieldSpec, Indicator, ValueSpec } from './types';

const TIME_CANDIDATES = [
  'rfc3339',
  '%d/%b/%Y:%H:%M:%S %z',
  '%a, %d %b %Y %H:%M:%S %Z',
  '%a %b %e %H:%M:%S %Y',
  '%b %d %Y %H:%M:%S',
  '%m/%d/%Y %H:%M:%S',
  '%m/%d/%Y %I:%M:%S %p',
  '%Y/%m/%d %H:%M:%S',
  '%b %e %H:%M:%S',
];
const TIME_PARSERS = TIME_CANDIDATES.map((f) => [f, compileTimeFormat(f)] as const);
const REFERENCE: Instant = { s: Date.UTC(2030, 0, 1) / 1000, ns: 0 };
const TIME_NAME = /(time|date|_at$|At$|timestamp|^ts$|epoch|created|updated|modified)/i;
const EVENT_TIME_NAMES = [
  'eventTime',
  'timestamp',
  '@timestamp',
  'time',
  'event_time',
  'eventtime',
  'Timestamp',
  'TIMESTAMP',
  'created_at',
  'createdAt',
  'date',
  'published',
  'creationTime',
  'CreationTime',
  'occurred_at',
];
const FIELD_NAME = /^[A-Za-z_@$#][A-Za-z0-9_@$#.\-:]*$/;
const MAX_OBJECT_KEYS = 200;

type Kind = 'string' | 'int' | 'float' | 'boolean' | 'object' | 'array' | 'json';

class Shape {
  kinds = new Set<Kind>();
  seen = 0;
  /** Time formats that read every string value so far (undefined until the first string). */
  timeFormats: string[] | undefined;
  numericTime = true;
  strings: string[] = [];
  children = new Map<string, Shape>();
  element: Shape | undefined;

  add(value: unknown, depth: number): void {
    if (value === null || value === undefined) return;
    this.seen++;
    if (depth > 32) return void this.kinds.add('json');
    if (typeof value === 'string') {
      this.kinds.add('string');
      if (this.strings.length < 50) this.strings.push(value);
      const candidates = this.timeFormats ?? TIME_CANDIDATES;
      this.timeFormats = candidates.filter((f) => TIME_PARSERS.find(([n]) => n === f)![1](value, REFERENCE) !== null);
    } else if (typeof value === 'number') {
      this.kinds.add(Number.isInteger(value) ? 'int' : 'float');
      if (!(value >= 1e9 && value < 1e19)) this.numericTime = false;
    } else if (typeof value === 'boolean') {
      this.kinds.add('boolean');
    } else if (Array.isArray(value)) {
      this.kinds.add('array');
      this.element ??= new Shape();
      for (const item of value) this.element.add(item, depth + 1);
    } else if (typeof value === 'object') {
      this.kinds.add('object');
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        let child = this.children.get(k);
        if (!child) {
          // A map keyed by data (ids, names) is a json value; stop tracking so memory stays bounded.
          if (this.children.size >= MAX_OBJECT_KEYS) {
            this.kinds.add('json');
            continue;
          }
          this.children.set(k, (child = new Shape()));
        }
        child.add(v, depth + 1);
      }
    }
  }

  kind(): Kind | undefined {
    const kinds = this.kinds;
    if (kinds.size === 0) return undefined;
    if (kinds.size === 1) return [...kinds][0];
    if ([...kinds].every((k) => k === 'int' || k === 'float')) return 'float';
    if ([...kinds].every((k) => k === 'string' || k === 'int' || k === 'float' || k === 'boolean')) return 'string';
    return 'json';
  }
}

function indicatorsFor(name: string, values: string[]): Indicator[] | undefined {
  if (values.length === 0) return undefined;
  const all = (re: RegExp) => values.every((v) => re.test(v));
  const lower = name.toLowerCase();
  if (values.every((v) => isIP(v))) return ['ip'];
  if (all(/^arn:aws[a-z-]*:/)) return ['aws_arn'];
  if (all(/^[^\s@]+@[^\s@]+\.[^\s@]+$/)) return ['email'];
  if (all(/^i-[0-9a-f]{8,17}$/)) return ['aws_instance_id'];
  if (all(/^([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}$/)) return ['mac'];
  if (/account/.test(lower) && all(/^\d{12}$/)) return ['aws_account_id'];
  if (/sha256/.test(lower) && all(/^[0-9a-fA-F]{64}$/)) return ['sha256'];
  if (/sha1/.test(lower) && all(/^[0-9a-fA-F]{40}$/)) return ['sha1'];
  if (/md5/.test(lower) && all(/^[0-9a-fA-F]{32}$/)) return ['md5'];
  if (/(^|_)url$|Url$|URL$|uri$/i.test(name) && all(/^[a-z][a-z0-9+.-]*:\/\//i)) return ['url'];
  if (/(domain|hostname|host)$/i.test(name)) return ['hostname'];
  if (/(^|_)(ip|ipaddress|ip_address|address|addr)$|Ip$|IP$|IpAddress$|Addr$/.test(name)) return ['ip'];
  if (/^(user(_?name)?|login(_?name)?|email)$/i.test(name)) return ['username'];
  return undefined;
}

function toValueSpec(node: Shape, name: string): ValueSpec {
  const kind = node.kind() ?? 'json';
  switch (kind) {
    case 'string': {
      if (node.kinds.size === 1 && node.timeFormats && node.timeFormats.length > 0) {
        return { type: 'timestamp', timeFormats: [node.timeFormats[0]] };
      }
      const indicators = node.kinds.size === 1 ? indicatorsFor(name, node.strings) : undefined;
      return indicators ? { type: 'string', indicators } : { type: 'string' };
    }
    case 'int':
    case 'float':
      if (node.numericTime && TIME_NAME.test(name)) return { type: 'timestamp', timeFormats: ['unix_auto'] };
      return { type: kind === 'int' ? 'bigint' : 'float' };
    case 'boolean':
      return { type: 'boolean' };
    case 'array':
      return { type: 'array', element: node.element && node.element.kind() ? toValueSpec(node.element, name) : { type: 'json' } };
    case 'object':
      if (node.children.size === 0) return { type: 'json' };
      return { type: 'object', fields: toFields(node) };
    default:
      return { type: 'json' };
  }
}

function toFields(node: Shape): FieldSpec[] {
  const fields: FieldSpec[] = [];
  for (const [key, child] of node.children) {
    if (!child.kind()) continue;
    const value = toValueSpec(child, key);
    if (FIELD_NAME.test(key)) fields.push({ name: key, ...value });
    else fields.push({ name: safeName(key), rename: { from: key }, ...value });
  }
  return fields;
}

function safeName(key: string): string {
  const cleaned = key.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
}

/** The event time: a top-level timestamp (by preferred name, else the first), else the first nested one. */
function markEventTime(fields: FieldSpec[]): void {
  const timestamps = fields.filter((f) => f.type === 'timestamp');
  if (timestamps.length > 0) {
    const chosen = EVENT_TIME_NAMES.map((n) => timestamps.find((f) => f.name === n)).find((f) => f) ?? timestamps[0];
    chosen.isEventTime = true;
    return;
  }
  const nested = (list: FieldSpec[]): FieldSpec | undefined => {
    for (const f of list) {
      if (f.type === 'timestamp') return f;
      const inner = f.type === 'object' && f.fields ? nested(f.fields) : undefined;
      if (inner) return inner;
    }
    return undefined;
  };
  const found = nested(fields);
  if (found) found.isEventTime = true;
}

/** Accumulates sample events; `fields()` gives the inferred spec at any point. */
export class SchemaInferrer {
  private readonly root = new Shape();

  add(event: Record<string, unknown>): void {
    this.root.add(event, 0);
  }

  /** Adds one value at a path from the root (`[]` marks an array element), for field discovery. */
  addAt(path: string[], value: unknown): void {
    let nested: unknown = value;
    for (let i = path.length - 1; i >= 0; i--) nested = path[i] === '[]' ? [nested] : { [path[i]]: nested };
    this.root.add(nested, 0);
  }

  get count(): number {
    return this.root.seen;
  }

  fields(): FieldSpec[] {
    const fields = toFields(this.root);
    markEventTime(fields);
    return fields;
  }
}

export function inferFields(events: Record<string, unknown>[]): FieldSpec[] {
  const inferrer = new SchemaInferrer();
  for (const e of events) inferrer.add(e);
  return inferrer.fields();
}
