// The lookup tables detection content reads with `event.lookup('<name>', ...)`: the live detections path asks for
// those tables' data (functions/lib/lookups engineLookups) to send with each engine request.

/** The names of lookup tables content reads with `.lookup('<name>', ...)`. */
export function lookupNamesIn(content: unknown): string[] {
  const text = JSON.stringify(content ?? null);
  const names = new Set<string>();
  for (const match of text.matchAll(/\.lookup\(\s*(?:\\"|')([A-Za-z0-9_.-]{1,128})(?:\\"|')/g)) names.add(match[1]);
  return [...names].sort();
}
