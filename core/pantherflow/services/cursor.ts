// The cursor situation: what may be typed at an offset (an operator, a table, a column of the scope there, a
// function of a namespace, a field, a keyword), read from the tokens before the cursor and the checked tree.
// Completion is a function of this; it knows nothing of tokens.
import type * as A from '../ast';
import type { Analysis, Column } from '../checker';
import type { Token } from '../lexer';
import type { Span } from '../position';
import { NAMESPACES } from '../functions';
import { T, type FlowType } from '../types';
import { visitScript } from '../visit';

export type Situation =
  | { readonly kind: 'none' }
  | { readonly kind: 'operator'; readonly replace: Span }
  | { readonly kind: 'source'; readonly replace: Span; readonly typed: string }
  | {
      readonly kind: 'expression';
      readonly replace: Span;
      readonly columns: readonly Column[];
      readonly aggregation: boolean;
      readonly afterValue: boolean;
      readonly operator?: string;
    }
  | { readonly kind: 'function'; readonly replace: Span; readonly namespace: string }
  | { readonly kind: 'field'; readonly replace: Span; readonly fields: readonly Column[] }
  | { readonly kind: 'keyword'; readonly replace: Span; readonly words: readonly string[] };

const isWord = (t: Token | undefined) => t !== undefined && (t.kind === 'ident' || t.kind === 'quotedIdent');
const is = (t: Token | undefined, text: string) =>
  t !== undefined && (t.kind === 'punct' || t.kind === 'ident') && t.text === text;

export function cursorSituation(a: Analysis, offset: number): Situation {
  const tokens = a.tokens.filter((t) => t.kind !== 'eof');
  const inside = tokens.find((t) => t.start < offset && offset < t.end);
  if (inside && (inside.kind === 'string' || inside.kind === 'comment' || inside.kind === 'error')) return { kind: 'none' };
  const lineComment = tokens.find((t) => t.kind === 'comment' && t.start < offset && offset <= t.end);
  if (lineComment) return { kind: 'none' };
  const before = tokens.filter((t) => t.end <= offset && t.kind !== 'comment');
  let last = before[before.length - 1];
  let replace: Span = { start: offset, end: offset };
  let typed = '';
  if (last && last.end === offset && isWord(last)) {
    replace = { start: last.start, end: offset };
    typed = last.text;
    before.pop();
    last = before[before.length - 1];
  }
  // A dotted chain before the word: `strings.`, `userIdentity.`, `panther_logs.public.`
  const chain: string[] = [];
  let i = before.length - 1;
  while (i >= 1 && is(before[i], '.') && isWord(before[i - 1]) && before[i].start === before[i - 1].end) {
    chain.unshift(before[i - 1].kind === 'quotedIdent' ? (before[i - 1].value ?? '') : before[i - 1].text);
    i -= 2;
    if (!(i >= 0 && is(before[i], '$') && before[i].end === before[i + 1].start)) continue;
    chain[0] = '$' + chain[0];
    i -= 1;
  }
  const chainStart = chain.length ? before[i + 1].start : replace.start;
  const prev = before[i];
  const segment = segmentOf(before.slice(0, i + 1));

  if (segment.kind === 'source') {
    return { kind: 'source', replace: { start: chainStart, end: replace.end }, typed: [...chain, typed].join('.') };
  }
  const letValue = is(prev, '=') && isWord(before[i - 1]) && is(before[i - 2], 'let');
  if (!prev || is(prev, ';') || letValue)
    return { kind: 'source', replace: { start: chainStart, end: replace.end }, typed: [...chain, typed].join('.') };
  if (is(prev, '|') && chain.length === 0) return { kind: 'operator', replace };

  const op = segment.operator;
  if (is(prev, '=') && is(before[i - 1], 'kind') && op === 'join')
    return { kind: 'keyword', replace, words: ['inner', 'leftouter', 'rightouter', 'fullouter', 'cross'] };
  if (op === 'visualize') {
    if (is(prev, 'visualize')) return { kind: 'keyword', replace, words: ['bar', 'line', 'pie', 'table'] };
    if (!is(prev, '=')) return { kind: 'keyword', replace, words: ['xcolumn=', 'series='] };
  }
  if (op === 'join' && !segment.afterOn && !is(prev, '=')) return { kind: 'keyword', replace, words: ['kind=', 'on'] };

  const columns = scopeAt(a, offset);
  if (chain.length) {
    const root = chain[0];
    if ((NAMESPACES as readonly string[]).includes(root) && chain.length === 1 && !columns.some((c) => c.name === root)) {
      return { kind: 'function', replace, namespace: root };
    }
    let type: FlowType | undefined = columns.find((c) => c.name === root)?.type;
    if (root === '$left' || root === '$right') type = joinSide(a, offset, root);
    for (const part of chain.slice(1))
      type = type?.kind === 'object' ? type.fields?.find((f) => f.name === part)?.type : undefined;
    if (type?.kind === 'object' && type.fields)
      return { kind: 'field', replace, fields: type.fields.map((f) => ({ name: f.name, type: f.type })) };
    return { kind: 'none' };
  }
  const afterValue =
    !!prev &&
    (isWord(prev) ||
      prev.kind === 'int' ||
      prev.kind === 'float' ||
      prev.kind === 'string' ||
      prev.kind === 'timespan' ||
      is(prev, ')') ||
      is(prev, ']')) &&
    !/^(by|and|or|not|in|where|project|extend|summarize|sort|limit|search|between|on)$/.test(prev.text);
  return { kind: 'expression', replace, columns, aggregation: op === 'summarize' && !segment.afterBy, afterValue, operator: op };
}

interface Segment {
  readonly kind: 'source' | 'operator';
  readonly operator?: string;
  readonly afterBy?: boolean;
  readonly afterOn?: boolean;
}

/** Where the tokens before the cursor leave us: in a source position, or inside which operator. */
function segmentOf(before: readonly Token[]): Segment {
  let depth = 0;
  let afterBy = false;
  let afterOn = false;
  for (let j = before.length - 1; j >= 0; j--) {
    const t = before[j];
    if (t.kind !== 'punct' && t.kind !== 'ident') continue;
    if (t.text === ')' || t.text === ']' || t.text === '}') depth++;
    else if (t.text === '(' || t.text === '[' || t.text === '{') {
      if (depth === 0) {
        // `dest=(` opens a subquery: the next word is a source.
        if (t.text === '(' && is(before[j - 1], '=') && isWord(before[j - 2]) && before[j - 2].text !== 'kind')
          return j === before.length - 1 ? { kind: 'source' } : { kind: 'operator' };
        if (
          t.text === '(' &&
          j === before.length - 1 &&
          (j === 0 || is(before[j - 1], ';') || is(before[j - 1], ',') || is(before[j - 1], 'union'))
        )
          return { kind: 'source' };
      } else depth--;
    } else if (depth === 0) {
      if (t.text === 'by') afterBy = true;
      if (t.text === 'on') afterOn = true;
      if (t.text === '|') {
        const op = before[j + 1];
        return { kind: 'operator', operator: op?.text, afterBy, afterOn };
      }
      if (t.text === 'union' && j === before.length - 1) return { kind: 'source' };
      if (t.text === ',' && unionAhead(before, j)) return j === before.length - 1 ? { kind: 'source' } : { kind: 'operator' };
      if (t.text === ';') return { kind: 'operator' };
    }
  }
  return { kind: 'operator' };
}

function unionAhead(before: readonly Token[], comma: number): boolean {
  for (let j = comma - 1; j >= 0; j--) {
    const t = before[j];
    if (t.text === '|' || t.text === ';' || t.text === '(') return false;
    if (t.text === 'union') return true;
  }
  return false;
}

/** The columns in scope at the offset: those flowing into the operator around it. */
export function scopeAt(a: Analysis, offset: number): Column[] {
  const topLevel = new Set(
    a.script.statements.map((st) =>
      st.kind === 'query' ? st.pipeline : st.value.kind === 'tabular' ? st.value.pipeline : undefined,
    ),
  );
  let best: { pipeline: A.Pipeline } | undefined;
  visitScript(a.script, {
    pipeline(p) {
      if (p.start > offset || textBetweenHas(a, p.end, offset, [';'])) return;
      // A nested pipeline (a join's right side, a subquery) ends at its `)`.
      if (!topLevel.has(p) && textBetweenHas(a, p.end, offset, [')', '|'])) return;
      if (!best || p.start >= best.pipeline.start) best = { pipeline: p };
    },
  });
  if (!best) return [];
  const p = best.pipeline;
  const k = p.pipes.filter((x) => x < offset).length;
  if (k === 0) return [];
  const op = p.operators[k - 1];
  const input = op && a.inputs.get(op);
  if (input) return [...input];
  const prevOp = p.operators[k - 2];
  if (!prevOp) return a.sourceColumns.get(p.source) ?? [];
  return a.outputs.get(p) ?? [];
}

function joinSide(a: Analysis, offset: number, side: string): FlowType | undefined {
  let found: A.JoinOp | undefined;
  visitScript(a.script, {
    operator(op) {
      if (op.kind === 'join' && op.start <= offset && (!found || op.start > found.start)) found = op;
    },
  });
  if (!found) return undefined;
  if (side === '$left') return T.object(a.inputs.get(found) ?? []);
  return found.dest ? T.object(a.outputs.get(found.dest) ?? []) : undefined;
}

function textBetweenHas(a: Analysis, from: number, to: number, puncts: readonly string[]): boolean {
  return a.tokens.some((t) => t.kind === 'punct' && puncts.includes(t.text) && t.start >= from && t.end <= to);
}
