// Athena's text of a result value (GetQueryResults' VarCharValue), both ways. Athena (Trino) writes an array as
// `[a, b]`, a row as `{name=a, other=b}`, a map as `{key=value}`, nested as deep as the value is, with
// elements unquoted and a null element as `null`; a `json` value is JSON text. The local Athena stand-in writes
// that text (local/services/athena), and the search service reads it back into arrays and objects
// (functions/lib/search), so arrays come back as arrays on AWS and locally alike.
// The text is ambiguous where Athena's is: an element holding `, `, `=`, a bracket or the word null reads back
// otherwise, and scalar elements read back as text (the column type says `array`, not of what).

/** A value (from the query engine: arrays, objects for rows and maps, scalars) as Athena writes it. */
export function athenaText(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(athenaText).join(', ')}]`;
  if (typeof value === 'object')
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}=${athenaText(v)}`)
      .join(', ')}}`;
  return String(value);
}

/** Athena's text of an array, row or map value read back; undefined when it is not such text. */
export function readAthenaText(text: string): unknown {
  let i = 0;
  const fail = () => {
    throw new SyntaxError('not Athena value text');
  };
  // A scalar runs to the next `, ` or closing bracket of its level.
  function scalar(stop: string): string | null {
    const start = i;
    while (i < text.length && !(text[i] === stop || (text[i] === ',' && text[i + 1] === ' '))) i++;
    const s = text.slice(start, i);
    return s === 'null' ? null : s;
  }
  function value(stop: string): unknown {
    if (text[i] === '[') return list();
    if (text[i] === '{') return entries();
    return scalar(stop);
  }
  function list(): unknown[] {
    i++;
    const out: unknown[] = [];
    if (text[i] === ']') {
      i++;
      return out;
    }
    for (;;) {
      out.push(value(']'));
      if (text[i] === ']') {
        i++;
        return out;
      }
      if (text[i] === ',' && text[i + 1] === ' ') i += 2;
      else fail();
    }
  }
  function entries(): Record<string, unknown> {
    i++;
    const out: Record<string, unknown> = {};
    if (text[i] === '}') {
      i++;
      return out;
    }
    for (;;) {
      const eq = text.indexOf('=', i);
      if (eq < 0) fail();
      const key = text.slice(i, eq);
      i = eq + 1;
      out[key] = value('}');
      if (text[i] === '}') {
        i++;
        return out;
      }
      if (text[i] === ',' && text[i + 1] === ' ') i += 2;
      else fail();
    }
  }
  if (text[0] !== '[' && text[0] !== '{') return undefined;
  try {
    const out = value('');
    return i === text.length ? out : undefined;
  } catch {
    return undefined;
  }
}
