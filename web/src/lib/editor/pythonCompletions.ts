// Completions for detection Python, in a pure layer (cursor situation → suggestions) with no Monaco: the
// methods of the event object after `event.` (or the function's argument name), and the global helpers'
// module names at the start of an expression or after `import` / `from`.

export interface PythonCompletion {
  readonly label: string;
  readonly kind: 'method' | 'module' | 'function';
  readonly insertText: string;
  readonly detail: string;
  readonly documentation?: string;
}

/** The methods the engine's event object offers (PantherEvent). */
export const EVENT_METHODS: readonly PythonCompletion[] = [
  {
    label: 'get',
    kind: 'method',
    insertText: "get('${1:key}')",
    detail: 'event.get(key, default=None)',
    documentation: 'The value of a top-level field, or the default when it is missing.',
  },
  {
    label: 'deep_get',
    kind: 'method',
    insertText: "deep_get('${1:key}', '${2:nested_key}', default=${3:None})",
    detail: 'event.deep_get(*keys, default=None)',
    documentation: 'The value at a path of nested keys, or the default when any is missing.',
  },
  {
    label: 'deep_walk',
    kind: 'method',
    insertText: "deep_walk('${1:key}', '${2:nested_key}', default=${3:None})",
    detail: 'event.deep_walk(*keys, default=None, return_val="all")',
    documentation: 'Like deep_get, walking through lists on the way; return_val is "all", "first" or "last".',
  },
  {
    label: 'udm',
    kind: 'method',
    insertText: "udm('${1:source_ip}')",
    detail: 'event.udm(*keys, default=None)',
    documentation: "A field by its data model name (the log type's data model), else by its path.",
  },
  {
    label: 'lookup',
    kind: 'method',
    insertText: "lookup('${1:lookup_table}', '${2:key}')",
    detail: 'event.lookup(lookup_table_name, lookup_key)',
    documentation: 'The enrichment a lookup table matched for this event.',
  },
];

/** The word characters ending `prefix` (what is being typed). */
const typedWord = (prefix: string) => /[A-Za-z_][A-Za-z0-9_]*$/.exec(prefix)?.[0] ?? '';

/** The name of the argument of the detection's function (`def rule(event)`, `def policy(resource)`). */
export function argumentNames(source: string): string[] {
  const names = new Set<string>(['event']);
  for (const match of source.matchAll(/^def\s+[A-Za-z_][A-Za-z0-9_]*\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)/gm)) names.add(match[1]);
  return [...names];
}

/**
 * What to suggest with the cursor after `linePrefix` (the current line up to the cursor) in `source`:
 * event methods after `<argument>.`, helper modules after `import`/`from` or as a bare name.
 */
export function pythonCompletions(linePrefix: string, source: string, helpers: readonly string[]): PythonCompletion[] {
  const member = /([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_]*)$/.exec(linePrefix);
  if (member) {
    if (!argumentNames(source).includes(member[1])) return [];
    return EVENT_METHODS.filter((m) => m.label.startsWith(member[2]));
  }
  const word = typedWord(linePrefix);
  const modules = helpers.map<PythonCompletion>((name) => ({
    label: name,
    kind: 'module',
    insertText: name,
    detail: 'global helper',
  }));
  if (/^\s*(from|import)\s+[A-Za-z0-9_]*$/.test(linePrefix)) return modules.filter((m) => m.label.startsWith(word));
  if (!word) return [];
  return modules.filter((m) => m.label.startsWith(word));
}
