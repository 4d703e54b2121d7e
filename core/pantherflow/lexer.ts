// Lexer: PantherFlow text → tokens with exact offsets. Comments are kept as tokens of their own (the formatter
// and the highlighter need them); the parser skips them. A bad character becomes an `error` token, never a throw.

export type TokenKind = 'ident' | 'quotedIdent' | 'int' | 'float' | 'timespan' | 'string' | 'punct' | 'comment' | 'error' | 'eof';

export interface Token {
  readonly kind: TokenKind;
  /** Source text of the token, exactly as written. */
  readonly text: string;
  readonly start: number;
  readonly end: number;
  /** Decoded value: the string's content, the quoted identifier's name, or the error's message. */
  readonly value?: string;
}

export const TIMESPAN_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

const PUNCT = [
  '==',
  '!=',
  '<=',
  '>=',
  '..',
  '|',
  ';',
  ',',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '=',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '.',
  ':',
  '$',
];

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0', '\\': '\\', "'": "'", '"': '"', '`': '`' };

function isIdentStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
}

function isIdentPart(c: string): boolean {
  return isIdentStart(c) || (c >= '0' && c <= '9');
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const push = (kind: TokenKind, start: number, value?: string) =>
    tokens.push({ kind, text: text.slice(start, i), start, end: i, value });

  while (i < text.length) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    const start = i;
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      push('comment', start);
      continue;
    }
    if (isIdentStart(c)) {
      while (i < text.length && isIdentPart(text[i])) i++;
      push('ident', start);
      continue;
    }
    if (isDigit(c)) {
      while (i < text.length && isDigit(text[i])) i++;
      let kind: TokenKind = 'int';
      if (text[i] === '.' && isDigit(text[i + 1] ?? '')) {
        i++;
        while (i < text.length && isDigit(text[i])) i++;
        kind = 'float';
      }
      if (
        (text[i] === 'e' || text[i] === 'E') &&
        (isDigit(text[i + 1] ?? '') || ((text[i + 1] === '+' || text[i + 1] === '-') && isDigit(text[i + 2] ?? '')))
      ) {
        i += 2;
        while (i < text.length && isDigit(text[i])) i++;
        kind = 'float';
      }
      if (isIdentStart(text[i] ?? '')) {
        const unitStart = i;
        while (i < text.length && isIdentPart(text[i])) i++;
        const unit = text.slice(unitStart, i);
        if (unit in TIMESPAN_UNITS) push('timespan', start);
        else push('error', start, `unknown timespan unit '${unit}' (use ${Object.keys(TIMESPAN_UNITS).join(', ')})`);
        continue;
      }
      push(kind, start);
      continue;
    }
    if (c === "'" || c === '"' || c === '`') {
      i++;
      let value = '';
      let closed = false;
      while (i < text.length) {
        const d = text[i];
        if (d === c) {
          i++;
          closed = true;
          break;
        }
        if (d === '\n') break;
        if (d === '\\') {
          const e = text[i + 1];
          if (e !== undefined && e in ESCAPES) {
            value += ESCAPES[e];
            i += 2;
            continue;
          }
          if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            value += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
            i += 6;
            continue;
          }
          // Any other backslash stays as written, so regular expressions read naturally: '\d+\.\d+'.
          value += d;
          i++;
          continue;
        }
        value += d;
        i++;
      }
      if (!closed) push('error', start, c === '`' ? 'unterminated quoted name' : 'unterminated string');
      else push(c === '`' ? 'quotedIdent' : 'string', start, value);
      continue;
    }
    const punct = PUNCT.find((p) => text.startsWith(p, i));
    if (punct) {
      i += punct.length;
      push('punct', start);
      continue;
    }
    i++;
    const hint = c === '&' ? ' (write `and`)' : c === '!' ? ' (write `not`, or != to compare)' : '';
    push('error', start, `unexpected character '${c}'${hint}`);
  }
  tokens.push({ kind: 'eof', text: '', start: text.length, end: text.length });
  return tokens;
}

/** Milliseconds of a timespan literal such as `1d`, `1.5s`, `30m`. */
export function timespanMillis(literal: string): number {
  const m = /^([0-9.eE+-]+?)([a-z]+)$/.exec(literal);
  if (!m) return NaN;
  return Math.round(Number(m[1]) * (TIMESPAN_UNITS[m[2]] ?? NaN));
}

/** A name as the user writes it: backquoted (with escapes) unless it is a plain identifier. */
export function quoteName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : '`' + name.replace(/\\/g, '\\\\').replace(/`/g, '\\`') + '`';
}
