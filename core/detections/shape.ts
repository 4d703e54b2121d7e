// A small structural checker for detection YAML: required and optional keys, value types, enums,
// and "exactly one of" groups. Unknown keys are errors (they are usually typos of optional keys).

export type Shape =
  | { kind: 'string'; pattern?: RegExp; patternMessage?: string }
  | { kind: 'boolean' }
  | { kind: 'integer'; min?: number; max?: number }
  | { kind: 'any' }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'list'; of: Shape }
  | { kind: 'map'; of: Shape }
  | ObjectShape;

export interface ObjectShape {
  kind: 'object';
  required?: Record<string, Shape>;
  optional?: Record<string, Shape>;
  /** Each group needs exactly one of its keys (the keys must also be listed in `optional`). */
  exactlyOne?: readonly (readonly string[])[];
  /** Keys not declared are accepted (free-form sub-documents such as test events). */
  open?: boolean;
}

export const str = (pattern?: RegExp, patternMessage?: string): Shape => ({ kind: 'string', pattern, patternMessage });
export const bool: Shape = { kind: 'boolean' };
export const int = (min?: number, max?: number): Shape => ({ kind: 'integer', min, max });
export const anything: Shape = { kind: 'any' };
export const oneOfValues = (values: readonly string[]): Shape => ({ kind: 'enum', values });
export const list = (of: Shape): Shape => ({ kind: 'list', of });
export const map = (of: Shape): Shape => ({ kind: 'map', of });
export const obj = (spec: Omit<ObjectShape, 'kind'>): ObjectShape => ({ kind: 'object', ...spec });

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'object') return 'mapping';
  return typeof value;
}

function describe(shape: Shape): string {
  switch (shape.kind) {
    case 'string':
      return 'a string';
    case 'boolean':
      return 'true or false';
    case 'integer':
      return 'an integer';
    case 'any':
      return 'a value';
    case 'enum':
      return `one of ${shape.values.join(', ')}`;
    case 'list':
      return `a list of ${describe(shape.of).replace(/^an? /, '')}s`;
    case 'map':
      return 'a mapping';
    case 'object':
      return 'a mapping';
  }
}

/** Every problem found, each as `path: message`. */
export function check(value: unknown, shape: Shape, path = ''): string[] {
  const at = (p: string) => (p ? `${p}: ` : '');
  switch (shape.kind) {
    case 'any':
      return [];
    case 'string':
      if (typeof value !== 'string') return [`${at(path)}must be ${describe(shape)}, got ${typeName(value)}`];
      if (shape.pattern && !shape.pattern.test(value))
        return [`${at(path)}${shape.patternMessage ?? `must match ${shape.pattern}`}`];
      return [];
    case 'boolean':
      return typeof value === 'boolean' ? [] : [`${at(path)}must be true or false, got ${typeName(value)}`];
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) return [`${at(path)}must be an integer, got ${typeName(value)}`];
      if (shape.min !== undefined && value < shape.min) return [`${at(path)}must be at least ${shape.min}`];
      if (shape.max !== undefined && value > shape.max) return [`${at(path)}must be at most ${shape.max}`];
      return [];
    case 'enum':
      return typeof value === 'string' && shape.values.includes(value)
        ? []
        : [`${at(path)}must be ${describe(shape)}, got ${JSON.stringify(value)}`];
    case 'list':
      if (!Array.isArray(value)) return [`${at(path)}must be ${describe(shape)}, got ${typeName(value)}`];
      return value.flatMap((item, i) => check(item, shape.of, `${path}[${i}]`));
    case 'map':
      if (!isRecord(value)) return [`${at(path)}must be a mapping, got ${typeName(value)}`];
      return Object.entries(value).flatMap(([k, v]) => check(v, shape.of, path ? `${path}.${k}` : k));
    case 'object':
      return checkObject(value, shape, path);
  }
}

function checkObject(value: unknown, shape: ObjectShape, path: string): string[] {
  const at = (key: string) => (path ? `${path}.${key}` : key);
  if (!isRecord(value)) return [`${path ? `${path}: ` : ''}must be a mapping, got ${typeName(value)}`];
  const issues: string[] = [];
  const required = shape.required ?? {};
  const optional = shape.optional ?? {};
  for (const [key, sub] of Object.entries(required)) {
    if (!(key in value)) issues.push(`missing required key ${at(key)}`);
    else issues.push(...check(value[key], sub, at(key)));
  }
  for (const [key, sub] of Object.entries(optional)) {
    if (key in value) issues.push(...check(value[key], sub, at(key)));
  }
  for (const group of shape.exactlyOne ?? []) {
    const present = group.filter((k) => k in value);
    if (present.length !== 1) {
      issues.push(
        present.length === 0
          ? `${path ? `${path}: ` : ''}needs one of ${group.join(', ')}`
          : `${path ? `${path}: ` : ''}has ${present.join(' and ')}; only one of them is allowed`,
      );
    }
  }
  if (!shape.open) {
    const known = new Set([...Object.keys(required), ...Object.keys(optional)]);
    for (const key of Object.keys(value)) if (!known.has(key)) issues.push(`unknown key ${at(key)}`);
  }
  return issues;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
