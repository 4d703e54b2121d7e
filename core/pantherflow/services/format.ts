// Formatting: one statement per line, each `|` operator on its own line, single spaces between tokens, comments
// kept. Token-based, so it formats incomplete queries too; text with a lexical error is left untouched.
import { tokenize, type Token } from '../lexer';
import { KEYWORDS } from '../operators';

const NO_SPACE_BEFORE = new Set([',', ')', ']', '.', ';', ':']);
const NO_SPACE_AFTER = new Set(['(', '[', '.', '$']);

export interface FormatResult {
  readonly text: string;
  readonly changed: boolean;
}

export function format(text: string): FormatResult {
  const tokens = tokenize(text).filter((t) => t.kind !== 'eof');
  if (tokens.some((t) => t.kind === 'error')) return { text, changed: false };
  let out = '';
  let depth = 0;
  const braces: boolean[] = [];
  let prev: Token | undefined;
  let beforePrev: Token | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind !== 'comment' && i > 0) beforePrev = prevSignificant(tokens, i - 1);
    const atLineStart = out === '' || out.endsWith('\n');
    if (t.kind === 'comment') {
      out += (atLineStart ? '' : ' ') + t.text + '\n';
      prev = undefined;
      continue;
    }
    if (t.text === '|' && t.kind === 'punct' && depth === 0) {
      out = out.replace(/ +$/, '');
      out += atLineStart ? '|' : '\n|';
      prev = t;
      continue;
    }
    if (!atLineStart && prev && needsSpace(beforePrev, prev, t, tokens[i + 1], braces, depth)) out += ' ';
    out += t.text;
    if (t.kind === 'punct') {
      if (t.text === '(' || t.text === '[') depth++;
      if (t.text === ')' || t.text === ']') depth = Math.max(0, depth - 1);
      if (t.text === '{') braces.push(prev?.text === ')');
      if (t.text === '}') braces.pop();
      if (t.text === ';' && depth === 0) {
        out += '\n';
        prev = undefined;
        continue;
      }
    }
    prev = t;
  }
  const formatted = out.replace(/ +\n/g, '\n').trimEnd() + '\n';
  return { text: formatted, changed: formatted !== text };
}

function prevSignificant(tokens: readonly Token[], from: number): Token | undefined {
  let seen = 0;
  for (let j = from; j >= 0; j--) {
    if (tokens[j].kind === 'comment') continue;
    if (++seen === 2) return tokens[j];
  }
  return undefined;
}

function needsSpace(
  beforePrev: Token | undefined,
  prev: Token,
  t: Token,
  beforeNext: Token | undefined,
  braces: boolean[],
  depth: number,
): boolean {
  const p = prev.text;
  const lambdaBrace = braces[braces.length - 1] === true;
  if (t.kind === 'punct' && NO_SPACE_BEFORE.has(t.text)) return false;
  if (prev.kind === 'punct' && NO_SPACE_AFTER.has(p)) return false;
  const name = prev.kind === 'quotedIdent' || (prev.kind === 'ident' && !KEYWORDS.has(p));
  if (t.text === '(' && name) return false;
  if (t.text === '[' && (name || p === ']' || p === ')')) return false;
  if (t.text === '{' && prev.kind === 'punct' && p !== ')') return p === ',' || p === ':' || p === '=';
  if (p === '{' && prev.kind === 'punct') return lambdaBrace;
  if (t.text === '}') return lambdaBrace;
  if (t.text === '=') return !TIGHT_ASSIGNMENTS.has(p) && !(beforeNext?.text === '(' && depth === 0);
  if (p === '=') return !(beforePrev && TIGHT_ASSIGNMENTS.has(beforePrev.text)) && t.text !== '(';
  if (p === '-' && prev.kind === 'punct') return !isUnary(beforePrev);
  return true;
}

/** Operator parameters written without spaces: kind=inner, xcolumn=x, series=n, dest=(...). */
const TIGHT_ASSIGNMENTS = new Set(['kind', 'xcolumn', 'series']);
const VALUE_END = new Set([')', ']', '}']);
const KEYWORDS_BEFORE_VALUE = new Set([
  'where',
  'and',
  'or',
  'not',
  'in',
  'by',
  'between',
  'limit',
  'return',
  'on',
  'from',
  'to',
  'step',
]);

/** A `-` is unary when nothing that ends a value comes before it. */
function isUnary(before: Token | undefined): boolean {
  if (!before) return true;
  if (before.kind === 'punct') return !VALUE_END.has(before.text);
  return before.kind === 'ident' && KEYWORDS_BEFORE_VALUE.has(before.text);
}
