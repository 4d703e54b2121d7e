// SQL text → tokens: strings, quoted names and comments are read as such, so a keyword inside a string is no
// keyword. The parser (parse.ts) reads them; the Athena stand-in's translation and the scheduled queries'
// placeholders edit text by them.

/** A token: its kind, text (unquoted for strings and quoted names) and offsets in the SQL (end exclusive). */
export type SqlToken = (
  | { readonly kind: 'word'; readonly text: string; readonly upper: string }
  | { readonly kind: 'quoted'; readonly text: string }
  | { readonly kind: 'string'; readonly text: string }
  | { readonly kind: 'number'; readonly text: string }
  | { readonly kind: 'punct'; readonly text: string }
) & { readonly at: number; end: number };

export class SqlTokenError extends Error {}

/** SQL text → tokens (comments dropped); throws SqlTokenError on an unterminated string, name or comment. */
export function tokenizeSql(sql: string): SqlToken[] {
  const out: SqlToken[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      if (end < 0) throw new SqlTokenError('A comment is not closed');
      i = end + 2;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      let text = '';
      for (;;) {
        if (j >= sql.length) throw new SqlTokenError(c === "'" ? 'A string is not closed' : 'A quoted name is not closed');
        if (sql[j] === c) {
          if (sql[j + 1] === c) {
            text += c;
            j += 2;
            continue;
          }
          break;
        }
        text += sql[j++];
      }
      out.push({ kind: c === "'" ? 'string' : 'quoted', text, at: i, end: j + 1 });
      i = j + 1;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(sql.slice(i))![0];
      out.push({ kind: 'word', text: m, upper: m.toUpperCase(), at: i, end: i + m.length });
      i += m.length;
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(sql[i + 1] ?? ''))) {
      const m = /^[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?/.exec(sql.slice(i))![0];
      out.push({ kind: 'number', text: m, at: i, end: i + m.length });
      i += m.length;
    } else {
      const two = sql.slice(i, i + 2);
      const text = ['<=', '>=', '<>', '!=', '||', '->', '::'].includes(two) ? two : c;
      out.push({ kind: 'punct', text, at: i, end: i + text.length });
      i += text.length;
    }
  }
  return out;
}
