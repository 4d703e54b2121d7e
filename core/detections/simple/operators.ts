// The operators of the simple-detection builder and of inline filters: their labels, their
// codes, the field types each suits, the kind of value each takes and the match-expression condition it is
// written as (core/detections/match-expressions.ts; evaluated by the engine's caracal_engine/match.py).

/** The operator codes, in the order the builder lists them. */
export const OPERATOR_CODES = [
  '==',
  '!=',
  'in',
  'not in',
  'in cidr',
  'not in cidr',
  'is public',
  'is private',
  'is empty',
  'is not empty',
  'contains',
  'does not contain',
  'starts with',
  'ends with',
  '>',
  '<',
  '>=',
  '<=',
  'contains ip in cidr',
  'does not contain ip in cidr',
] as const;
export type OperatorCode = (typeof OPERATOR_CODES)[number];

/** The labels the builder shows. */
export const OPERATOR_LABELS: Readonly<Record<OperatorCode, string>> = {
  '==': 'is',
  '!=': 'is not',
  in: 'is in',
  'not in': 'is not in',
  'in cidr': 'is in CIDR',
  'not in cidr': 'is not in CIDR',
  'is public': 'is public',
  'is private': 'is private',
  'is empty': 'is empty',
  'is not empty': 'is not empty',
  contains: 'contains',
  'does not contain': 'does not contain',
  'starts with': 'starts with',
  'ends with': 'ends with',
  '>': 'greater than',
  '<': 'less than',
  '>=': 'greater or equal',
  '<=': 'less or equal',
  'contains ip in cidr': 'contains IP in CIDR',
  'does not contain ip in cidr': 'does not contain IP in CIDR',
};

export const isOperatorCode = (value: unknown): value is OperatorCode =>
  typeof value === 'string' && (OPERATOR_CODES as readonly string[]).includes(value);

/**
 * The type of a field as the builder sees it: its scalar kind (the schema's int, smallint and bigint are `int`,
 * a string with the `ip` indicator is `ip`) and whether it is an array of that kind. `unknown` is a field the
 * chosen log types' schemas do not list (typed by hand or read from YAML): every operator is offered.
 */
export const FIELD_KINDS = ['string', 'int', 'float', 'bool', 'ip', 'timestamp', 'object', 'json', 'unknown'] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

export interface FieldType {
  readonly kind: FieldKind;
  readonly array: boolean;
}

/** A filter field's type as text (`string`, `ip[]`, ...), as the filterFields query answers it. */
export const fieldTypeName = (type: FieldType) => `${type.kind}${type.array ? '[]' : ''}`;

export function parseFieldType(name: string): FieldType {
  const array = name.endsWith('[]');
  const kind = array ? name.slice(0, -2) : name;
  return (FIELD_KINDS as readonly string[]).includes(kind)
    ? { kind: kind as FieldKind, array }
    : { kind: 'unknown', array: false };
}

export const UNKNOWN_FIELD: FieldType = { kind: 'unknown', array: false };

const UNARY: readonly OperatorCode[] = ['is empty', 'is not empty'];
const EQUALITY: readonly OperatorCode[] = ['==', '!=', 'in', 'not in'];
const ORDER: readonly OperatorCode[] = ['>', '<', '>=', '<='];
const TEXT: readonly OperatorCode[] = ['contains', 'does not contain', 'starts with', 'ends with'];
const ADDRESS: readonly OperatorCode[] = ['in cidr', 'not in cidr', 'is public', 'is private'];

const SCALAR_OPERATORS: Readonly<Record<FieldKind, readonly OperatorCode[]>> = {
  string: [...EQUALITY, ...UNARY, ...TEXT],
  int: [...EQUALITY, ...UNARY, ...ORDER],
  float: [...EQUALITY, ...UNARY, ...ORDER],
  bool: ['==', '!=', ...UNARY],
  ip: [...EQUALITY, ...ADDRESS, ...UNARY],
  timestamp: ['==', '!=', ...UNARY, 'starts with'],
  // A JSON or object field equals (or is one of) JSON values typed as JSON text (the json and json_array value types).
  object: ['==', '!=', 'in', 'not in', ...UNARY],
  json: ['==', '!=', 'in', 'not in', ...UNARY],
  unknown: OPERATOR_CODES,
};

/** The operators a field of this type offers, in the builder's order. */
export function operatorsFor(type: FieldType): readonly OperatorCode[] {
  if (!type.array) return SCALAR_OPERATORS[type.kind];
  const allowed: OperatorCode[] = ['contains', 'does not contain', ...UNARY];
  if (type.kind === 'ip') allowed.push('contains ip in cidr', 'does not contain ip in cidr');
  return OPERATOR_CODES.filter((o) => allowed.includes(o));
}

/** The kinds of value a condition takes: each has its own input and its own check of what is typed. */
export type ValueKind =
  | 'none'
  | 'string'
  | 'int'
  | 'float'
  | 'bool'
  | 'ip'
  | 'cidr'
  | 'json'
  | 'json_array'
  | 'string[]'
  | 'int[]'
  | 'float[]'
  | 'bool[]'
  | 'ip[]';

const scalarValue = (kind: FieldKind): ValueKind => {
  switch (kind) {
    case 'int':
    case 'float':
    case 'bool':
    case 'ip':
      return kind;
    case 'object':
    case 'json':
      return 'json';
    default:
      return 'string';
  }
};

/** The list kind of a scalar kind: a JSON value's list is one JSON array (json_array). */
const listValue = (kind: FieldKind): ValueKind => {
  const scalar = scalarValue(kind);
  return scalar === 'json' ? 'json_array' : (`${scalar}[]` as ValueKind);
};

/** The kind of value an operator takes on a field of this type. */
export function valueKindFor(type: FieldType, operator: OperatorCode): ValueKind {
  switch (operator) {
    case 'is public':
    case 'is private':
    case 'is empty':
    case 'is not empty':
      return 'none';
    case 'in cidr':
    case 'not in cidr':
    case 'contains ip in cidr':
    case 'does not contain ip in cidr':
      return 'cidr';
    case 'in':
    case 'not in':
      return listValue(type.kind);
    case '>':
    case '<':
    case '>=':
    case '<=':
      return type.kind === 'int' ? 'int' : 'float';
    case 'starts with':
    case 'ends with':
      return 'string';
    case 'contains':
    case 'does not contain':
      return type.array ? scalarValue(type.kind) : 'string';
    default:
      return scalarValue(type.kind);
  }
}

/** How each operator is written as a match expression. */
export interface OperatorExpression {
  /** The Condition. */
  readonly condition: string;
  /** `Value`, `Values` (a list) or neither. */
  readonly takes: 'Value' | 'Values' | 'none';
  /** Written as `AnyElement` / `NoElement` of the field with this element condition. */
  readonly element?: 'AnyElement' | 'NoElement';
}

export const OPERATOR_EXPRESSIONS: Readonly<Record<OperatorCode, OperatorExpression>> = {
  '==': { condition: 'Equals', takes: 'Value' },
  '!=': { condition: 'DoesNotEqual', takes: 'Value' },
  in: { condition: 'IsIn', takes: 'Values' },
  'not in': { condition: 'IsNotIn', takes: 'Values' },
  'in cidr': { condition: 'IsIPAddressInCIDR', takes: 'Value' },
  'not in cidr': { condition: 'IsIPAddressNotInCIDR', takes: 'Value' },
  'is public': { condition: 'IsIPAddressPublic', takes: 'none' },
  'is private': { condition: 'IsIPAddressPrivate', takes: 'none' },
  'is empty': { condition: 'IsNullOrEmpty', takes: 'none' },
  'is not empty': { condition: 'IsNotNullOrEmpty', takes: 'none' },
  contains: { condition: 'Contains', takes: 'Value' },
  'does not contain': { condition: 'DoesNotContain', takes: 'Value' },
  'starts with': { condition: 'StartsWith', takes: 'Value' },
  'ends with': { condition: 'EndsWith', takes: 'Value' },
  '>': { condition: 'IsGreaterThan', takes: 'Value' },
  '<': { condition: 'IsLessThan', takes: 'Value' },
  '>=': { condition: 'IsGreaterThanOrEqual', takes: 'Value' },
  '<=': { condition: 'IsLessThanOrEqual', takes: 'Value' },
  'contains ip in cidr': { condition: 'IsIPAddressInCIDR', takes: 'Value', element: 'AnyElement' },
  'does not contain ip in cidr': { condition: 'IsIPAddressInCIDR', takes: 'Value', element: 'NoElement' },
};
