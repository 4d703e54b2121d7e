// The builder's model of a list of match expressions (a simple detection's Detection, a rule's InlineFilters):
// conditions {target, operator, value} in groups joined by and/or, nested up to MAX_GROUP_DEPTH, read from and
// written to the match expressions the engine evaluates, losslessly. What the builder cannot show is named.
import { isRecord } from '../shape';
import { OPERATOR_CODES, OPERATOR_EXPRESSIONS, type OperatorCode } from './operators';
import { UnreadJson } from './values';

/** Levels of groups the builder shows, the outermost group being the first; deeper nesting is edited as YAML. */
export const MAX_GROUP_DEPTH = 3;

/** How a condition names its field in YAML: kept so that reading and writing changes nothing. */
export type KeyStyle = 'Key' | 'KeyPath' | 'DeepKey';

export interface Condition {
  readonly kind: 'condition';
  /** The field, as a key path (`a.b[0].c`); for `Key` the key itself. */
  readonly target: string;
  readonly operator: OperatorCode;
  /** Absent for operators that take none. */
  readonly value?: unknown;
  /** Absent: written as KeyPath. */
  readonly keyStyle?: KeyStyle;
}

export interface Group {
  readonly kind: 'group';
  readonly conjunction: 'and' | 'or';
  readonly items: readonly Item[];
}

export type Item = Condition | Group;

export const emptyGroup = (conjunction: 'and' | 'or' = 'and'): Group => ({ kind: 'group', conjunction, items: [] });

/** Why a list of match expressions cannot be shown by the builder. */
export type Unrepresentable = { readonly reason: 'unrepresentable' | 'too-deep'; readonly at: string };

export type GroupReading = { readonly ok: true; readonly group: Group } | ({ readonly ok: false } & Unrepresentable);

// ------------------------------------------------------------------------------------------------ keys

const SEGMENT = /([^.[\]]+)|\[(\*|-?\d+)\]|\./y;

/** `a.b[0].c[*]` → ['a', 'b', 0, 'c', '*'], as the engine reads a KeyPath; null when it is not one. */
export function parseKeyPath(path: string): (string | number)[] | null {
  if (!path.trim()) return null;
  const parts: (string | number)[] = [];
  SEGMENT.lastIndex = 0;
  while (SEGMENT.lastIndex < path.length) {
    const found = SEGMENT.exec(path);
    if (!found) return null;
    if (found[1] !== undefined) parts.push(found[1]);
    else if (found[2] !== undefined) parts.push(found[2] === '*' ? '*' : Number(found[2]));
  }
  return parts;
}

const SPECIFIERS = ['Key', 'KeyPath', 'DeepKey', 'Enrichment'] as const;

/** A condition's target and key style from its key specifier; null when the builder cannot show it. */
function readTarget(expression: Record<string, unknown>): { target: string; keyStyle: KeyStyle } | null {
  const present = SPECIFIERS.filter((k) => k in expression);
  if (present.length !== 1) return null;
  const spec = expression[present[0]];
  switch (present[0]) {
    case 'Key':
      return typeof spec === 'string' && spec !== '' ? { target: spec, keyStyle: 'Key' } : null;
    case 'KeyPath':
      return typeof spec === 'string' && parseKeyPath(spec) ? { target: spec, keyStyle: 'KeyPath' } : null;
    case 'DeepKey': {
      if (!Array.isArray(spec) || spec.length === 0) return null;
      // Shown as a key path, so each key must read back as itself.
      if (!spec.every((k) => (typeof k === 'string' && /^[^.[\]]+$/.test(k)) || Number.isInteger(k))) return null;
      const target = spec.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('');
      return { target, keyStyle: 'DeepKey' };
    }
    default:
      return null;
  }
}

function writeTarget(condition: Condition): Record<string, unknown> {
  switch (condition.keyStyle) {
    case 'Key':
      return { Key: condition.target };
    case 'DeepKey':
      return { DeepKey: parseKeyPath(condition.target) ?? [condition.target] };
    default:
      return { KeyPath: condition.target };
  }
}

/** A condition with another target: a `Key` stays one while the target is a plain key, else it becomes a KeyPath. */
export function withTarget(condition: Condition, target: string): Condition {
  const plain = /^[^.[\]]+$/.test(target);
  const keyStyle = condition.keyStyle === 'Key' && plain ? 'Key' : condition.keyStyle === 'DeepKey' ? 'DeepKey' : undefined;
  const next: Condition = { ...condition, target };
  if (keyStyle) return { ...next, keyStyle };
  const { keyStyle: _dropped, ...rest } = next;
  return rest;
}

// ------------------------------------------------------------------------------------------- reading

const only = (record: Record<string, unknown>, keys: readonly string[]) => Object.keys(record).every((k) => keys.includes(k));

function readCondition(expression: Record<string, unknown>): Condition | null {
  const target = readTarget(expression);
  if (!target) return null;
  const base = {
    kind: 'condition' as const,
    target: target.target,
    ...(target.keyStyle === 'KeyPath' ? {} : { keyStyle: target.keyStyle }),
  };
  const condition = expression.Condition;
  const specifier = SPECIFIERS.find((k) => k in expression)!;

  // contains / does not contain IP in CIDR: AnyElement / NoElement of one IsIPAddressInCIDR element test.
  if (condition === 'AnyElement' || condition === 'NoElement') {
    if (!only(expression, [specifier, 'Condition', 'Expressions'])) return null;
    const inner = expression.Expressions;
    if (!Array.isArray(inner) || inner.length !== 1 || !isRecord(inner[0])) return null;
    const element = inner[0];
    if (!only(element, ['Condition', 'Value']) || element.Condition !== 'IsIPAddressInCIDR' || !('Value' in element)) return null;
    return {
      ...base,
      operator: condition === 'AnyElement' ? 'contains ip in cidr' : 'does not contain ip in cidr',
      value: element.Value,
    };
  }
  const operator = OPERATOR_CODES.find(
    (o) => OPERATOR_EXPRESSIONS[o].condition === condition && OPERATOR_EXPRESSIONS[o].element === undefined,
  );
  if (!operator) return null;
  const takes = OPERATOR_EXPRESSIONS[operator].takes;
  if (takes === 'none') return only(expression, [specifier, 'Condition']) ? { ...base, operator } : null;
  if (takes === 'Values') {
    if (!only(expression, [specifier, 'Condition', 'Values']) || !Array.isArray(expression.Values)) return null;
    return { ...base, operator, value: expression.Values };
  }
  if (!only(expression, [specifier, 'Condition', 'Value']) || !('Value' in expression)) return null;
  // A list or mapping Value is a JSON value (the json value type); the builder checks it against the field's type.
  return { ...base, operator, value: expression.Value };
}

function readItem(expression: unknown, depth: number, at: string): Item | Unrepresentable {
  if (!isRecord(expression)) return { reason: 'unrepresentable', at };
  const keys = Object.keys(expression);
  if (keys.length === 1 && (keys[0] === 'All' || keys[0] === 'Any')) {
    return readGroup(expression[keys[0]], keys[0] === 'All' ? 'and' : 'or', depth + 1, `${at}.${keys[0]}`);
  }
  return readCondition(expression) ?? { reason: 'unrepresentable', at };
}

function readGroup(list: unknown, conjunction: 'and' | 'or', depth: number, at: string): Group | Unrepresentable {
  if (!Array.isArray(list)) return { reason: 'unrepresentable', at };
  const items: Item[] = [];
  let deep: Unrepresentable | undefined;
  for (const [i, expression] of list.entries()) {
    const item = readItem(expression, depth, `${at}[${i}]`);
    if ('reason' in item) {
      if (item.reason === 'unrepresentable') return item;
      deep ??= item;
      continue;
    }
    items.push(item);
  }
  if (depth > MAX_GROUP_DEPTH) return { reason: 'too-deep', at };
  return deep ?? { kind: 'group', conjunction, items };
}

/**
 * The builder's group for a list of match expressions (all of which must hold): an `and` group whose items are
 * the list's expressions (`All` / `Any` ones are nested groups). Null or absent is an empty group.
 */
export function readExpressions(expressions: unknown, at = 'Detection'): GroupReading {
  if (expressions === undefined || expressions === null) return { ok: true, group: emptyGroup() };
  const group = readGroup(expressions, 'and', 1, at);
  return 'reason' in group ? { ok: false, ...group } : { ok: true, group };
}

// ------------------------------------------------------------------------------------------- writing

function writeCondition(item: Condition): Record<string, unknown> {
  // JSON text that does not parse is written as the text typed (the builder refuses to save it).
  const condition = item.value instanceof UnreadJson ? { ...item, value: item.value.text } : item;
  const how = OPERATOR_EXPRESSIONS[condition.operator];
  const key = writeTarget(condition);
  if (how.element) {
    return { ...key, Condition: how.element, Expressions: [{ Condition: how.condition, Value: condition.value ?? '' }] };
  }
  if (how.takes === 'none') return { ...key, Condition: how.condition };
  if (how.takes === 'Values') {
    const values = Array.isArray(condition.value) ? condition.value : condition.value === undefined ? [] : [condition.value];
    return { ...key, Condition: how.condition, Values: values };
  }
  return { ...key, Condition: how.condition, Value: condition.value ?? '' };
}

function writeItem(item: Item): Record<string, unknown> {
  if (item.kind === 'condition') return writeCondition(item);
  return { [item.conjunction === 'and' ? 'All' : 'Any']: item.items.map(writeItem) };
}

/**
 * The match expressions of the outer group (a list, all of which must hold): its items; an outer `or` group,
 * which the builder does not make, is written as one `Any`.
 */
export function writeExpressions(group: Group): Record<string, unknown>[] {
  const items = group.items.map(writeItem);
  return group.conjunction === 'and' ? items : [{ Any: items }];
}

// --------------------------------------------------------------------------------------------- shape

/** How deep a group nests (the group itself is 1). */
export function groupDepth(group: Group): number {
  return 1 + Math.max(0, ...group.items.map((i) => (i.kind === 'group' ? groupDepth(i) : 0)));
}

/** Every condition of a group, depth first. */
export function conditionsOf(group: Group): Condition[] {
  return group.items.flatMap((i) => (i.kind === 'condition' ? [i] : conditionsOf(i)));
}

/** A path to an item: indexes from the outer group. */
export type ItemPath = readonly number[];

/** The group with the item at `path` replaced (or removed, when `next` is null). */
export function replaceAt(group: Group, path: ItemPath, next: Item | null): Group {
  const [index, ...rest] = path;
  if (rest.length === 0) {
    const items = [...group.items];
    if (next === null) items.splice(index, 1);
    else items[index] = next;
    return { ...group, items };
  }
  const child = group.items[index];
  if (child?.kind !== 'group') return group;
  const items = [...group.items];
  items[index] = replaceAt(child, rest, next);
  return { ...group, items };
}

/** The group with an item appended to the group at `path` (the outer group for []). */
export function appendAt(group: Group, path: ItemPath, item: Item): Group {
  if (path.length === 0) return { ...group, items: [...group.items, item] };
  const [index, ...rest] = path;
  const child = group.items[index];
  if (child?.kind !== 'group') return group;
  const items = [...group.items];
  items[index] = appendAt(child, rest, item);
  return { ...group, items };
}
