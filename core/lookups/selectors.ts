// Selectors: the JSONPath expressions that pick, from an event, the values looked up in a table (the
// `Selectors` of a `LogTypeMap.AssociatedLogTypes` entry). The subset accepted: `$` then `.name`,
// `['name']` / `["name"]`, `[n]` and `[*]` / `.*`; a bare `name.sub` is read as `$.name.sub`. A selector
// that walks through an array yields every value it reaches.

export type SelectorStep = { kind: 'field'; name: string } | { kind: 'index'; index: number } | { kind: 'all' };

export interface Selector {
  text: string;
  steps: SelectorStep[];
  /** Whether the selector can reach more than one value (a `[*]` step). */
  many: boolean;
}

export class SelectorError extends Error {}

/** Parses a selector, or throws SelectorError with the reason. */
export function parseSelector(text: string): Selector {
  const source = text.trim();
  if (!source) throw new SelectorError('A selector cannot be empty');
  let rest = source.startsWith('$') ? source.slice(1) : '.' + source;
  const steps: SelectorStep[] = [];
  while (rest.length) {
    let match: RegExpMatchArray | null;
    if ((match = rest.match(/^\.([A-Za-z_@$][\w@$-]*)/))) steps.push({ kind: 'field', name: match[1] });
    else if ((match = rest.match(/^\.\*/)) || (match = rest.match(/^\[\*\]/))) steps.push({ kind: 'all' });
    else if ((match = rest.match(/^\[(\d+)\]/))) steps.push({ kind: 'index', index: Number(match[1]) });
    else if ((match = rest.match(/^\['((?:[^'\\]|\\.)*)'\]/)) || (match = rest.match(/^\["((?:[^"\\]|\\.)*)"\]/)))
      steps.push({ kind: 'field', name: match[1].replace(/\\(.)/g, '$1') });
    else throw new SelectorError(`Invalid selector '${source}': unexpected '${rest.slice(0, 10)}'`);
    rest = rest.slice(match[0].length);
  }
  if (!steps.length) throw new SelectorError(`Invalid selector '${source}': it selects the whole event`);
  return { text: source, steps, many: steps.some((s) => s.kind === 'all') };
}

/** Whether the text is a valid selector. */
export function selectorProblem(text: string): string | undefined {
  try {
    parseSelector(text);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The values a selector reaches in an event (arrays at the end are spread; nulls and objects skipped). */
export function selectValues(event: unknown, selector: Selector): string[] {
  let current: unknown[] = [event];
  for (const step of selector.steps) {
    const next: unknown[] = [];
    for (const value of current) {
      if (value === null || typeof value !== 'object') continue;
      if (step.kind === 'field') {
        if (!Array.isArray(value) && Object.prototype.hasOwnProperty.call(value, step.name))
          next.push((value as Record<string, unknown>)[step.name]);
      } else if (step.kind === 'index') {
        if (Array.isArray(value) && step.index < value.length) next.push(value[step.index]);
      } else if (Array.isArray(value)) next.push(...value);
      else next.push(...Object.values(value));
    }
    current = next;
    if (!current.length) return [];
  }
  const out: string[] = [];
  const add = (value: unknown) => {
    if (typeof value === 'string') out.push(value);
    else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') out.push(String(value));
  };
  for (const value of current) {
    if (Array.isArray(value)) value.forEach(add);
    else add(value);
  }
  return out;
}

/** Field paths of a schema's fields, as selectors (for completion in the selectors editor). */
export function selectorOfPath(path: string[]): string {
  return (
    '$' + path.map((name) => (/^[A-Za-z_@$][\w@$-]*$/.test(name) ? `.${name}` : `['${name.replace(/'/g, "\\'")}']`)).join('')
  );
}
