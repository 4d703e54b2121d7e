// The rules of a multi-value (tag) input: what one entry, or a pasted text, adds to the values and what it refuses.

export const MULTI_VALUE_MESSAGES = {
  exists: 'Value exists already',
  invalid: 'Invalid value',
} as const;

/** 'One or more invalid values were ignored: {list}' */
export const ignoredValuesMessage = (ignored: readonly string[]) =>
  `One or more invalid values were ignored: ${ignored.join(', ')}`;

/** What is wrong with one entry, or nothing. */
export type EntryRule = (entry: string) => string | undefined;

/** One entry typed and confirmed (comma or Enter): added, or refused with the reason. */
export function addEntry(
  values: readonly string[],
  raw: string,
  rule?: EntryRule,
): { values: readonly string[]; error?: string } {
  const entry = raw.trim();
  if (entry === '') return { values };
  if (values.includes(entry)) return { values, error: MULTI_VALUE_MESSAGES.exists };
  if (rule?.(entry)) return { values, error: MULTI_VALUE_MESSAGES.invalid };
  return { values: [...values, entry] };
}

/**
 * Pasted text, split on newlines (and on commas unless turned off) and trimmed: empty entries are dropped,
 * the valid new ones added, and the duplicates and invalid ones ignored and listed.
 */
export function addPasted(
  values: readonly string[],
  text: string,
  options: { readonly rule?: EntryRule; readonly splitOnCommas: boolean },
): { values: readonly string[]; ignored: readonly string[] } {
  const next = [...values];
  const ignored: string[] = [];
  for (const entry of text.split(options.splitOnCommas ? /[,\r\n]/ : /[\r\n]/)) {
    const added = addEntry(next, entry, options.rule);
    if (added.error) ignored.push(entry.trim());
    else if (added.values.length > next.length) next.push(entry.trim());
  }
  return { values: next, ignored };
}
