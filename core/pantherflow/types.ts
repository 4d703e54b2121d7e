// Value types of PantherFlow columns and expressions.

export type ScalarKind = 'string' | 'int' | 'float' | 'bool' | 'timestamp' | 'timespan' | 'json' | 'null' | 'any';

export type FlowType =
  | { readonly kind: ScalarKind }
  | { readonly kind: 'array'; readonly element: FlowType }
  /** A structured value with named fields (a struct/row column). `fields` absent means the fields are unknown. */
  | { readonly kind: 'object'; readonly fields?: readonly Field[] };

export interface Field {
  readonly name: string;
  readonly type: FlowType;
  readonly description?: string;
}

const scalar = (kind: ScalarKind): FlowType => ({ kind });
export const T = {
  string: scalar('string'),
  int: scalar('int'),
  float: scalar('float'),
  bool: scalar('bool'),
  timestamp: scalar('timestamp'),
  timespan: scalar('timespan'),
  json: scalar('json'),
  null: scalar('null'),
  any: scalar('any'),
  array: (element: FlowType): FlowType => ({ kind: 'array', element }),
  object: (fields?: readonly Field[]): FlowType => (fields ? { kind: 'object', fields } : { kind: 'object' }),
};

export function typeToString(t: FlowType): string {
  if (t.kind === 'array') return `array<${typeToString(t.element)}>`;
  if (t.kind === 'object')
    return t.fields ? `object<${t.fields.map((f) => `${f.name}:${typeToString(f.type)}`).join(', ')}>` : 'object';
  return t.kind;
}

/** Reads the notation typeToString writes: `string`, `array<int>`, `object<a:string, b:array<int>>`. */
export function parseType(text: string): FlowType {
  let i = 0;
  const skip = () => {
    while (text[i] === ' ') i++;
  };
  const word = (): string => {
    skip();
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i));
    if (!m) throw new Error(`bad type '${text}' at ${i}`);
    i += m[0].length;
    return m[0];
  };
  const eat = (c: string) => {
    skip();
    if (text[i] !== c) throw new Error(`bad type '${text}': expected '${c}' at ${i}`);
    i++;
  };
  const one = (): FlowType => {
    const w = word();
    skip();
    if (w === 'array') {
      eat('<');
      const element = one();
      eat('>');
      return T.array(element);
    }
    if (w === 'object') {
      if (text[i] !== '<') return T.object();
      eat('<');
      const fields: Field[] = [];
      for (;;) {
        const name = word();
        eat(':');
        fields.push({ name, type: one() });
        skip();
        if (text[i] === ',') {
          i++;
          continue;
        }
        eat('>');
        return T.object(fields);
      }
    }
    const scalars: ScalarKind[] = ['string', 'int', 'float', 'bool', 'timestamp', 'timespan', 'json', 'null', 'any'];
    if ((scalars as string[]).includes(w)) return { kind: w as ScalarKind };
    throw new Error(`unknown type '${w}' in '${text}'`);
  };
  const t = one();
  skip();
  if (i !== text.length) throw new Error(`bad type '${text}': trailing text at ${i}`);
  return t;
}

export const isNumeric = (t: FlowType) => t.kind === 'int' || t.kind === 'float';
/** Types whose values are only known when the query runs: accept them wherever a concrete type is expected. */
export const isLoose = (t: FlowType) => t.kind === 'any' || t.kind === 'null' || t.kind === 'json';

/** The type two values unify to (datatable columns, union, coalesce), or undefined if they cannot. */
export function unify(a: FlowType, b: FlowType): FlowType | undefined {
  if (a.kind === 'null') return b;
  if (b.kind === 'null') return a;
  if (a.kind === 'any' || b.kind === 'any') return T.any;
  if (isNumeric(a) && isNumeric(b)) return a.kind === 'float' || b.kind === 'float' ? T.float : T.int;
  if (a.kind === 'array' && b.kind === 'array') {
    const e = unify(a.element, b.element);
    return e && T.array(e);
  }
  if (a.kind === 'object' && b.kind === 'object') {
    if (!a.fields || !b.fields) return T.object();
    const fields: Field[] = [...a.fields];
    for (const f of b.fields) {
      const i = fields.findIndex((x) => x.name === f.name);
      if (i < 0) fields.push(f);
      else {
        const u = unify(fields[i].type, f.type);
        if (!u) return undefined;
        fields[i] = { name: f.name, type: u };
      }
    }
    return T.object(fields);
  }
  return a.kind === b.kind ? a : undefined;
}

/** Whether a value of type `actual` may be used where `expected` is wanted. */
export function assignable(actual: FlowType, expected: FlowType): boolean {
  if (isLoose(actual) || expected.kind === 'any') return true;
  if (expected.kind === 'float' && actual.kind === 'int') return true;
  if (expected.kind === 'array' && actual.kind === 'array') return assignable(actual.element, expected.element);
  return actual.kind === expected.kind;
}
