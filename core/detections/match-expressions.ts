// Validation of the match-expression language (simple detections, InlineFilters, DynamicSeverities
// conditions, AlertTitle/GroupBy/AlertContext key specifiers) for authoring: the same rules the
// Python engine applies when it compiles them, so an editor or `caracal test` can report a broken
// expression against its file. The engine stays the authority at run time.
import { isRecord } from './shape';

const VALUE_CONDITIONS = [
  'Equals',
  'DoesNotEqual',
  'IEquals',
  'IDoesNotEqual',
  'StartsWith',
  'DoesNotStartWith',
  'IStartsWith',
  'IDoesNotStartWith',
  'EndsWith',
  'DoesNotEndWith',
  'IEndsWith',
  'IDoesNotEndWith',
  'Contains',
  'DoesNotContain',
  'IContains',
  'IDoesNotContain',
  'IsGreaterThan',
  'IsGreaterThanOrEqual',
  'IsGreaterThanOrEquals',
  'IsLessThan',
  'IsLessThanOrEqual',
  'IsLessThanOrEquals',
  'IsIPAddressInCIDR',
  'IsIPAddressNotInCIDR',
  'CIDRContainsIPAddresses',
  'CIDRDoesNotContainIPAddresses',
] as const;
const LIST_VALUE_CONDITIONS = ['IsIn', 'IsNotIn', 'IIsIn', 'IIsNotIn'] as const;
const UNARY_CONDITIONS = [
  'Exists',
  'DoesNotExist',
  'IsNull',
  'IsNotNull',
  'IsNullOrEmpty',
  'IsNotNullOrEmpty',
  'IsIPAddress',
  'IsIPv4Address',
  'IsIPv6Address',
  'IsIPAddressPrivate',
  'IsIPAddressPublic',
] as const;
const ELEMENT_CONDITIONS = ['AnyElement', 'AllElements', 'NoElement', 'OnlyOneElement'] as const;
const ABSOLUTE_CONDITIONS = ['AlwaysTrue', 'AlwaysFalse'] as const;
const COMBINATORS = ['All', 'Any', 'OnlyOne', 'None'] as const;
const KEY_SPECIFIERS = ['Key', 'DeepKey', 'KeyPath', 'Enrichment'] as const;

/** Every condition name the language has. */
export const MATCH_CONDITIONS: readonly string[] = [
  ...VALUE_CONDITIONS,
  ...LIST_VALUE_CONDITIONS,
  ...UNARY_CONDITIONS,
  ...ELEMENT_CONDITIONS,
  ...ABSOLUTE_CONDITIONS,
].sort();

// Segments, `[n]`/`[*]` indexes and dots, as the engine's parser reads them.
const KEY_PATH = /^(?:[^.[\]]+|\[(?:\*|-?\d+)\]|\.)+$/;

const has = (list: readonly string[], value: string) => list.includes(value);

/** Problems with a key specifier (`Key`, `DeepKey`, `KeyPath` or `Enrichment`), or undefined when absent. */
export function keySpecifierProblems(expression: Record<string, unknown>, at: string): string[] | undefined {
  const present = KEY_SPECIFIERS.filter((k) => k in expression);
  if (present.length === 0) return undefined;
  if (present.length > 1) return [`${at}: only one key specifier is allowed, found ${present.join(', ')}`];
  const kind = present[0];
  const spec = expression[kind];
  switch (kind) {
    case 'Key':
      return typeof spec === 'string' && spec ? [] : [`${at}: Key must be a non-empty string`];
    case 'DeepKey':
      return Array.isArray(spec) && spec.length > 0 && spec.every((k) => typeof k === 'string' || Number.isInteger(k))
        ? []
        : [`${at}: DeepKey must be a non-empty list of keys and indexes`];
    case 'KeyPath':
      return typeof spec === 'string' && KEY_PATH.test(spec.trim()) ? [] : [`${at}: invalid KeyPath ${JSON.stringify(spec)}`];
    case 'Enrichment':
      return isRecord(spec) && ['Table', 'Selector', 'FieldPath'].every((k) => typeof spec[k] === 'string')
        ? []
        : [`${at}: Enrichment needs string Table, Selector and FieldPath`];
  }
}

/** Problems with one match expression; `at` names where it is (e.g. `Detection[2]`). */
export function matchExpressionProblems(expression: unknown, at: string): string[] {
  if (!isRecord(expression)) return [`${at}: a match expression must be a mapping`];
  const combinator = COMBINATORS.find((c) => c in expression);
  if (combinator) {
    if (Object.keys(expression).length !== 1) return [`${at}: ${combinator} must be the only key of its expression`];
    return matchExpressionListProblems(expression[combinator], `${at}.${combinator}`);
  }
  const condition = expression.Condition;
  if (typeof condition !== 'string') return [`${at}: a match expression needs a Condition (or All, Any, OnlyOne, None)`];
  const allowed = new Set<string>([...KEY_SPECIFIERS, 'Condition', 'Value', 'Values', 'Expressions']);
  const unknown = Object.keys(expression).filter((k) => !allowed.has(k));
  if (unknown.length) return [`${at}: unknown key(s) in match expression: ${unknown.sort().join(', ')}`];
  if (!MATCH_CONDITIONS.includes(condition)) return [`${at}: unknown Condition [${condition}]`];
  if (has(ABSOLUTE_CONDITIONS, condition)) return [];
  const keyProblems = keySpecifierProblems(expression, at);
  if (keyProblems?.length) return keyProblems;
  const values = expression.Values;
  if (
    keyProblems === undefined &&
    Array.isArray(values) &&
    values.length > 0 &&
    values.every((v) => isRecord(v) && KEY_SPECIFIERS.some((k) => k in v))
  ) {
    if (!has(VALUE_CONDITIONS, condition)) return [`${at}: condition ${condition} cannot compare two keys`];
    if (values.length !== 2) return [`${at}: a multi-key ${condition} compares exactly two keys`];
    return values.flatMap((v, i) => keySpecifierProblems(v as Record<string, unknown>, `${at}.Values[${i}]`) ?? []);
  }
  if (has(ELEMENT_CONDITIONS, condition)) {
    if (!('Expressions' in expression)) return [`${at}: ${condition} needs Expressions`];
    return matchExpressionListProblems(expression.Expressions, `${at}.Expressions`);
  }
  if (has(LIST_VALUE_CONDITIONS, condition)) return Array.isArray(values) ? [] : [`${at}: ${condition} needs a Values list`];
  if (has(VALUE_CONDITIONS, condition) && !('Value' in expression) && !Array.isArray(values))
    return [`${at}: ${condition} needs a Value`];
  return [];
}

/** Problems with a list of match expressions (all of which must hold). */
export function matchExpressionListProblems(expressions: unknown, at: string): string[] {
  if (!Array.isArray(expressions)) return [`${at}: must be a list of match expressions`];
  return expressions.flatMap((e, i) => matchExpressionProblems(e, `${at}[${i}]`));
}

/** Problems with the match-expression keys of a rule document. */
export function ruleExpressionProblems(document: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if ('Detection' in document) problems.push(...matchExpressionListProblems(document.Detection, 'Detection'));
  if ('InlineFilters' in document) problems.push(...matchExpressionListProblems(document.InlineFilters, 'InlineFilters'));
  if (Array.isArray(document.DynamicSeverities)) {
    document.DynamicSeverities.forEach((entry, i) => {
      const at = `DynamicSeverities[${i}]`;
      if (
        !isRecord(entry) ||
        typeof entry.ChangeTo !== 'string' ||
        !/^(info|low|medium|high|critical|default)$/i.test(entry.ChangeTo)
      ) {
        problems.push(`${at}: needs ChangeTo (a severity) and Conditions`);
      } else problems.push(...matchExpressionListProblems(entry.Conditions, `${at}.Conditions`));
    });
  }
  if (Array.isArray(document.GroupBy)) {
    document.GroupBy.forEach((spec, i) => {
      const found = isRecord(spec) ? keySpecifierProblems(spec, `GroupBy[${i}]`) : undefined;
      problems.push(...(found ?? [`GroupBy[${i}]: expected a key specifier (Key, DeepKey, KeyPath or Enrichment)`]));
    });
  }
  if (Array.isArray(document.AlertContext)) {
    document.AlertContext.forEach((entry, i) => {
      const at = `AlertContext[${i}]`;
      if (!isRecord(entry) || typeof entry.KeyName !== 'string') problems.push(`${at}: needs a KeyName and a KeyValue`);
      else {
        const found = isRecord(entry.KeyValue) ? keySpecifierProblems(entry.KeyValue, `${at}.KeyValue`) : undefined;
        problems.push(...(found ?? [`${at}.KeyValue: expected a key specifier (Key, DeepKey, KeyPath or Enrichment)`]));
      }
    });
  }
  return problems;
}
