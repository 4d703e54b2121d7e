// The match-expression language evaluated in TypeScript, with the semantics of the engine's
// caracal_engine/match.py (which stays the authority when detections run): used to show, before saving, how
// many of an alert's events an inline filter would drop. tests/engine/fixtures/match-parity.json holds cases
// both implementations must answer alike.
import { isRecord } from '../shape';
import { parseKeyPath } from './model';

export type Predicate = (document: unknown) => boolean;

export class MatchExpressionError extends Error {}

const MISSING = Symbol('missing');

// ---------------------------------------------------------------------------------------------- keys

function child(value: unknown, key: string | number): unknown {
  if (typeof key === 'number') {
    if (Array.isArray(value) && key >= -value.length && key < value.length) return value[key < 0 ? value.length + key : key];
    return MISSING;
  }
  if (isRecord(value)) {
    if (key in value) return value[key];
    const lowered = key.toLowerCase();
    for (const original of Object.keys(value)) if (original.toLowerCase() === lowered) return value[original];
  }
  return MISSING;
}

type Resolver = (document: unknown) => unknown[];

function resolver(parts: readonly (string | number)[]): Resolver {
  return (document) => {
    let current: unknown[] = [document];
    for (const part of parts) {
      const following: unknown[] = [];
      for (const value of current) {
        if (part === '*') {
          if (Array.isArray(value)) following.push(...value);
        } else {
          const found = child(value, part);
          if (found !== MISSING) following.push(found);
        }
      }
      current = following;
    }
    return current;
  };
}

function keyResolver(expression: Record<string, unknown>): Resolver | null {
  const specifiers = (['Key', 'DeepKey', 'KeyPath', 'Enrichment'] as const).filter((k) => k in expression);
  if (specifiers.length > 1) throw new MatchExpressionError(`only one key specifier is allowed, found ${specifiers.join(', ')}`);
  if (!specifiers.length) return null;
  const spec = expression[specifiers[0]];
  switch (specifiers[0]) {
    case 'Key':
      if (typeof spec !== 'string') throw new MatchExpressionError('Key must be a string');
      return resolver([spec]);
    case 'DeepKey':
      if (!Array.isArray(spec) || !spec.length || !spec.every((k) => typeof k === 'string' || Number.isInteger(k)))
        throw new MatchExpressionError('DeepKey must be a non-empty list of keys and indexes');
      return resolver(spec as (string | number)[]);
    case 'KeyPath': {
      const parts = typeof spec === 'string' ? parseKeyPath(spec) : null;
      if (!parts) throw new MatchExpressionError(`invalid KeyPath [${String(spec)}]`);
      return resolver(parts);
    }
    case 'Enrichment': {
      if (!isRecord(spec) || !['Table', 'Selector', 'FieldPath'].every((k) => typeof spec[k] === 'string'))
        throw new MatchExpressionError('Enrichment needs string Table, Selector and FieldPath');
      const path = parseKeyPath(spec.FieldPath as string);
      if (!path) throw new MatchExpressionError(`invalid FieldPath [${String(spec.FieldPath)}]`);
      return resolver(['p_enrichment', spec.Table as string, spec.Selector as string, ...path]);
    }
  }
}

// ---------------------------------------------------------------------------------------- comparisons

const PYTHON_FLOAT =
  /^\s*[-+]?(\d+(_\d+)*\.?(\d+(_\d+)*)?|\.\d+(_\d+)*)([eE][-+]?\d+(_\d+)*)?\s*$|^\s*[-+]?(inf|infinity|nan)\s*$/i;

function number(value: unknown): number | null {
  if (typeof value === 'boolean') return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && PYTHON_FLOAT.test(value)) {
    const text = value.trim().replace(/_/g, '').toLowerCase();
    if (text.endsWith('nan')) return NaN;
    if (text.endsWith('inf') || text.endsWith('infinity')) return text.startsWith('-') ? -Infinity : Infinity;
    return Number(text);
  }
  return null;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}

function equal(actual: unknown, expected: unknown): boolean {
  if (typeof actual === 'boolean' || typeof expected === 'boolean') {
    if (typeof actual === 'boolean' && typeof expected === 'boolean') return actual === expected;
    const text = typeof actual === 'string' ? actual : typeof expected === 'string' ? expected : null;
    const flag = typeof expected === 'boolean' ? expected : actual;
    return text !== null && text.toLowerCase() === (flag ? 'true' : 'false');
  }
  if (deepEqual(actual, expected)) return true;
  const left = number(actual);
  const right = number(expected);
  return left !== null && right !== null && left === right;
}

/** Python's str() of a scalar, as the engine compares text. */
function text(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isInteger(value) && !Object.is(value, -0) ? String(value) : pythonFloat(value);
  return null;
}

function pythonFloat(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  const shown = String(value);
  return /[.e]/.test(shown) ? shown.replace(/e([+-])(\d)$/, 'e$10$2') : `${shown}.0`;
}

const fold = (s: string) => s.toLowerCase();

function stringTest(test: (a: string, b: string) => boolean, folded: boolean) {
  return (actual: unknown, expected: unknown) => {
    let left = text(actual);
    let right = text(expected);
    if (left === null || right === null) return false;
    if (folded) [left, right] = [fold(left), fold(right)];
    return test(left, right);
  };
}

function contains(folded: boolean) {
  const substring = stringTest((a, b) => a.includes(b), folded);
  return (actual: unknown, expected: unknown) => {
    if (Array.isArray(actual)) {
      if (folded) return actual.some((a) => text(a) !== null && fold(text(a)!) === fold(text(expected) ?? ''));
      return actual.some((a) => equal(a, expected));
    }
    return substring(actual, expected);
  };
}

function ordered(test: (a: number, b: number) => boolean) {
  return (actual: unknown, expected: unknown) => {
    const left = number(actual);
    const right = number(expected);
    return left !== null && right !== null && test(left, right);
  };
}

// ------------------------------------------------------------------------------------------ addresses

interface Address {
  readonly version: 4 | 6;
  readonly value: bigint;
}

function parseIPv4(textValue: string): bigint | null {
  const parts = textValue.split('.');
  if (parts.length !== 4) return null;
  let result = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || (part.length > 1 && part.startsWith('0')) || Number(part) > 255) return null;
    result = (result << 8n) | BigInt(part);
  }
  return result;
}

function parseIPv6(textValue: string): bigint | null {
  let body = textValue;
  if (body.includes('%')) body = body.slice(0, body.indexOf('%'));
  let tail: bigint[] = [];
  const lastColon = body.lastIndexOf(':');
  if (lastColon < 0) return null;
  if (body.slice(lastColon + 1).includes('.')) {
    const v4 = parseIPv4(body.slice(lastColon + 1));
    if (v4 === null) return null;
    tail = [v4 >> 16n, v4 & 0xffffn];
    const prefix = body.slice(0, lastColon + 1);
    body = prefix.endsWith('::') ? prefix : prefix.slice(0, -1);
  }
  const halves = body.split('::');
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const left = groups(halves[0]);
  const right = halves.length === 2 ? groups(halves[1]) : [];
  if (![...left, ...right].every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return null;
  const count = left.length + right.length + tail.length;
  if (halves.length === 2 ? count > 7 : count !== 8) return null;
  const values = [
    ...left.map((g) => BigInt(`0x${g}`)),
    ...Array<bigint>(8 - count).fill(0n),
    ...right.map((g) => BigInt(`0x${g}`)),
    ...tail,
  ];
  return values.reduce((acc, g) => (acc << 16n) | g, 0n);
}

function ip(value: unknown): Address | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  const v4 = parseIPv4(trimmed);
  if (v4 !== null) return { version: 4, value: v4 };
  const v6 = trimmed.includes(':') ? parseIPv6(trimmed) : null;
  return v6 === null ? null : { version: 6, value: v6 };
}

interface Network {
  readonly version: 4 | 6;
  readonly base: bigint;
  readonly bits: number;
}

function network(value: unknown): Network | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  const [addressText, bitsText, ...extra] = trimmed.split('/');
  if (extra.length) return null;
  const address = ip(addressText);
  if (!address || addressText !== addressText.trim()) return null;
  const width = address.version === 4 ? 32 : 128;
  if (bitsText !== undefined && !/^\d+$/.test(bitsText)) return null;
  const bits = bitsText === undefined ? width : Number(bitsText);
  if (bits > width) return null;
  const mask = ((1n << BigInt(width)) - 1n) ^ ((1n << BigInt(width - bits)) - 1n);
  return { version: address.version, base: address.value & mask, bits };
}

function within(address: Address, net: Network): boolean {
  if (address.version !== net.version) return false;
  const width = address.version === 4 ? 32 : 128;
  const mask = ((1n << BigInt(width)) - 1n) ^ ((1n << BigInt(width - net.bits)) - 1n);
  return (address.value & mask) === net.base;
}

const nets = (list: string[]) => list.map((n) => network(n)!);

// Python 3.13's ipaddress tables (is_private, is_global); as text also for search's SQL (core/search/builder).
export const PRIVATE_V4_TEXT = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '240.0.0.0/4',
  '255.255.255.255/32',
];
export const PRIVATE_V4_EXCEPT_TEXT = ['192.0.0.9/32', '192.0.0.10/32'];
export const PRIVATE_V6_TEXT = [
  '::1/128',
  '::/128',
  '::ffff:0:0/96',
  '64:ff9b:1::/48',
  '100::/64',
  '2001::/23',
  '2001:db8::/32',
  '2002::/16',
  '3fff::/20',
  'fc00::/7',
  'fe80::/10',
];
export const PRIVATE_V6_EXCEPT_TEXT = [
  '2001:1::1/128',
  '2001:1::2/128',
  '2001:3::/32',
  '2001:4:112::/48',
  '2001:20::/28',
  '2001:30::/28',
];
export const SHARED_V4_TEXT = '100.64.0.0/10';
const PRIVATE_V4 = nets(PRIVATE_V4_TEXT);
const PRIVATE_V4_EXCEPT = nets(PRIVATE_V4_EXCEPT_TEXT);
const PRIVATE_V6 = nets(PRIVATE_V6_TEXT);
const PRIVATE_V6_EXCEPT = nets(PRIVATE_V6_EXCEPT_TEXT);
const SHARED_V4 = network(SHARED_V4_TEXT)!;

function isPrivate(address: Address): boolean {
  if (address.version === 6 && address.value >> 32n === 0xffffn) {
    return isPrivate({ version: 4, value: address.value & 0xffffffffn });
  }
  const [ranges, except] = address.version === 4 ? [PRIVATE_V4, PRIVATE_V4_EXCEPT] : [PRIVATE_V6, PRIVATE_V6_EXCEPT];
  return ranges.some((n) => within(address, n)) && !except.some((n) => within(address, n));
}

const isLoopback = (a: Address) => (a.version === 4 ? within(a, network('127.0.0.0/8')!) : a.value === 1n);
const isLinkLocal = (a: Address) => within(a, network(a.version === 4 ? '169.254.0.0/16' : 'fe80::/10')!);

function isGlobal(address: Address): boolean {
  if (address.version === 4) return !within(address, SHARED_V4) && !isPrivate(address);
  return !isPrivate(address);
}

const privateValue = (value: unknown) => {
  const address = ip(value);
  return address !== null && (isPrivate(address) || isLoopback(address) || isLinkLocal(address));
};

function inCidr(actual: unknown, cidr: unknown): boolean {
  const address = ip(actual);
  const net = network(cidr);
  return address !== null && net !== null && within(address, net);
}

// ------------------------------------------------------------------------------------------ conditions

type Compare = (actual: unknown, expected: unknown) => boolean;

const VALUE_CONDITIONS: Record<string, Compare> = {
  Equals: equal,
  IEquals: stringTest((a, b) => a === b, true),
  StartsWith: stringTest((a, b) => a.startsWith(b), false),
  IStartsWith: stringTest((a, b) => a.startsWith(b), true),
  EndsWith: stringTest((a, b) => a.endsWith(b), false),
  IEndsWith: stringTest((a, b) => a.endsWith(b), true),
  Contains: contains(false),
  IContains: contains(true),
  IsGreaterThan: ordered((a, b) => a > b),
  IsGreaterThanOrEqual: ordered((a, b) => a >= b),
  IsGreaterThanOrEquals: ordered((a, b) => a >= b),
  IsLessThan: ordered((a, b) => a < b),
  IsLessThanOrEqual: ordered((a, b) => a <= b),
  IsLessThanOrEquals: ordered((a, b) => a <= b),
  IsIPAddressInCIDR: inCidr,
  CIDRContainsIPAddresses: (actual, address) => inCidr(address, actual),
};

const NEGATED_VALUE_CONDITIONS: Record<string, string> = {
  DoesNotEqual: 'Equals',
  IDoesNotEqual: 'IEquals',
  DoesNotStartWith: 'StartsWith',
  IDoesNotStartWith: 'IStartsWith',
  DoesNotEndWith: 'EndsWith',
  IDoesNotEndWith: 'IEndsWith',
  DoesNotContain: 'Contains',
  IDoesNotContain: 'IContains',
  IsIPAddressNotInCIDR: 'IsIPAddressInCIDR',
  CIDRDoesNotContainIPAddresses: 'CIDRContainsIPAddresses',
};

const empty = (value: unknown) =>
  value === null ||
  value === undefined ||
  value === '' ||
  (Array.isArray(value) && value.length === 0) ||
  (isRecord(value) && Object.keys(value).length === 0);

const UNARY_CONDITIONS: Record<string, (value: unknown) => boolean> = {
  IsNull: (v) => v === null || v === undefined,
  IsNullOrEmpty: empty,
  IsIPAddress: (v) => ip(v) !== null,
  IsIPv4Address: (v) => ip(v)?.version === 4,
  IsIPv6Address: (v) => ip(v)?.version === 6,
  IsIPAddressPrivate: privateValue,
  IsIPAddressPublic: (v) => {
    const address = ip(v);
    return address !== null && !privateValue(v) && isGlobal(address);
  },
};
const NEGATED_UNARY: Record<string, string> = { IsNotNull: 'IsNull', IsNotNullOrEmpty: 'IsNullOrEmpty' };
const ELEMENT_CONDITIONS = ['AnyElement', 'AllElements', 'NoElement', 'OnlyOneElement'];
const COMBINATORS = ['All', 'Any', 'OnlyOne', 'None'] as const;
const ALLOWED_KEYS = new Set(['Key', 'DeepKey', 'KeyPath', 'Enrichment', 'Condition', 'Value', 'Values', 'Expressions']);

const isKeySpecifier = (item: unknown) => isRecord(item) && ['Key', 'DeepKey', 'KeyPath', 'Enrichment'].some((k) => k in item);

const anyValue =
  (resolve: Resolver, test: (value: unknown) => boolean): Predicate =>
  (document) =>
    resolve(document).some(test);

const negate =
  (predicate: Predicate): Predicate =>
  (document) =>
    !predicate(document);

function expressionList(expressions: unknown, where: string): unknown[] {
  if (!Array.isArray(expressions)) throw new MatchExpressionError(`${where} must be a list of match expressions`);
  return expressions;
}

/** Compiles one match expression into a predicate over an event's decoded JSON; throws MatchExpressionError. */
export function compileExpression(expression: unknown): Predicate {
  if (!isRecord(expression)) throw new MatchExpressionError('a match expression must be a mapping');
  const combinator = COMBINATORS.find((c) => c in expression);
  if (combinator) {
    if (Object.keys(expression).length !== 1)
      throw new MatchExpressionError(`${combinator} must be the only key of its expression`);
    const parts = expressionList(expression[combinator], combinator).map(compileExpression);
    if (combinator === 'All') return (d) => parts.every((p) => p(d));
    if (combinator === 'Any') return (d) => parts.some((p) => p(d));
    if (combinator === 'OnlyOne') return (d) => parts.filter((p) => p(d)).length === 1;
    return (d) => !parts.some((p) => p(d));
  }
  const condition = expression.Condition;
  if (typeof condition !== 'string')
    throw new MatchExpressionError('a match expression needs a Condition (or All/Any/OnlyOne/None)');
  const unknownKeys = Object.keys(expression).filter((k) => !ALLOWED_KEYS.has(k));
  if (unknownKeys.length) throw new MatchExpressionError(`unknown key(s) in match expression: ${unknownKeys.sort().join(', ')}`);
  if (condition === 'AlwaysTrue') return () => true;
  if (condition === 'AlwaysFalse') return () => false;

  const values = expression.Values;
  let resolve = keyResolver(expression);
  if (!resolve) {
    if (Array.isArray(values) && values.length && values.every(isKeySpecifier)) return compileMultiKey(condition, values);
    resolve = (document) => [document];
  }
  const found = resolve;
  if (ELEMENT_CONDITIONS.includes(condition)) {
    if (!('Expressions' in expression)) throw new MatchExpressionError(`${condition} needs Expressions`);
    const test = compileExpressions(expression.Expressions, 'Expressions');
    const matching = (d: unknown): [number, number] => {
      const elements = found(d).flatMap((v) => (Array.isArray(v) ? v : []));
      return [elements.filter(test).length, elements.length];
    };
    if (condition === 'AnyElement') return (d) => matching(d)[0] > 0;
    if (condition === 'AllElements') return (d) => ((m) => m[1] > 0 && m[0] === m[1])(matching(d));
    if (condition === 'NoElement') return (d) => matching(d)[0] === 0;
    return (d) => matching(d)[0] === 1;
  }
  if (condition === 'Exists') return (d) => found(d).length > 0;
  if (condition === 'DoesNotExist') return (d) => found(d).length === 0;
  if (condition in UNARY_CONDITIONS) {
    const test = UNARY_CONDITIONS[condition];
    if (condition === 'IsNull' || condition === 'IsNullOrEmpty')
      return (d) => ((r) => (r.length === 0 ? test(null) : r.some(test)))(found(d));
    return anyValue(found, test);
  }
  if (condition in NEGATED_UNARY) return negate(compileExpression({ ...expression, Condition: NEGATED_UNARY[condition] }));
  if (['IsIn', 'IsNotIn', 'IIsIn', 'IIsNotIn'].includes(condition)) {
    if (!Array.isArray(values)) throw new MatchExpressionError(`${condition} needs a Values list`);
    let positive: Predicate;
    if (condition.startsWith('II')) {
      const folded = values.map((v) => fold(text(v) ?? ''));
      positive = anyValue(found, (v) => text(v) !== null && folded.includes(fold(text(v)!)));
    } else positive = anyValue(found, (v) => values.some((e) => equal(v, e)));
    return condition.includes('Not') ? negate(positive) : positive;
  }
  const negated = condition in NEGATED_VALUE_CONDITIONS;
  const compare = VALUE_CONDITIONS[NEGATED_VALUE_CONDITIONS[condition] ?? condition];
  if (!compare) throw new MatchExpressionError(`unknown Condition [${condition}]`);
  let expected: unknown[];
  if ('Value' in expression) expected = [expression.Value];
  else if (Array.isArray(values)) expected = values;
  else throw new MatchExpressionError(`${condition} needs a Value`);
  const positive = anyValue(found, (v) => expected.some((e) => compare(v, e)));
  return negated ? negate(positive) : positive;
}

function compileMultiKey(condition: string, specifiers: unknown[]): Predicate {
  if (specifiers.length !== 2) throw new MatchExpressionError(`a multi-key ${condition} compares exactly two keys`);
  const left = keyResolver(specifiers[0] as Record<string, unknown>)!;
  const right = keyResolver(specifiers[1] as Record<string, unknown>)!;
  const negated = condition in NEGATED_VALUE_CONDITIONS;
  const compare = VALUE_CONDITIONS[NEGATED_VALUE_CONDITIONS[condition] ?? condition];
  if (!compare) throw new MatchExpressionError(`condition ${condition} cannot compare two keys`);
  const positive: Predicate = (d) => {
    const rights = right(d);
    return left(d).some((a) => rights.some((b) => compare(a, b)));
  };
  return negated ? negate(positive) : positive;
}

/** Compiles a list of match expressions, all of which must hold. */
export function compileExpressions(expressions: unknown, where = 'Detection'): Predicate {
  const parts = expressionList(expressions, where).map(compileExpression);
  return (document) => parts.every((p) => p(document));
}
