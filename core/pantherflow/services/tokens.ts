// Semantic highlighting: every token classified from the checked tree (a column, a function, a table, a let
// name...) rather than by its spelling alone. `encodeSemanticTokens` gives LSP's relative encoding, which
// Monaco's DocumentSemanticTokensProvider takes as is.
import type { Catalog } from '../catalog';
import { KEYWORDS } from '../operators';
import { LineIndex } from '../position';
import { visitScript } from '../visit';
import { analysisOf } from './analysis-cache';

export const TOKEN_TYPES = [
  'keyword',
  'operator',
  'function',
  'namespace',
  'type',
  'variable',
  'property',
  'parameter',
  'string',
  'number',
  'comment',
] as const;
export type TokenType = (typeof TOKEN_TYPES)[number];

export interface SemanticToken {
  readonly start: number;
  readonly length: number;
  readonly line: number;
  readonly character: number;
  readonly type: TokenType;
}

const OPERATOR_PUNCT = new Set(['|', '==', '!=', '<', '<=', '>', '>=', '+', '-', '*', '/', '%', '=', '..']);

export function semanticTokens(text: string, catalog: Catalog): SemanticToken[] {
  const a = analysisOf(text, catalog);
  const lines = new LineIndex(text);
  const byStart = new Map<number, TokenType>();
  const mark = (start: number, type: TokenType) => byStart.set(start, type);
  const markDotted = (start: number, name: string, last: TokenType, rest: TokenType) => {
    let at = start;
    const parts = name.split('.');
    parts.forEach((p, i) => {
      mark(at, i === parts.length - 1 ? last : rest);
      at += p.length + 1;
    });
  };
  const lambdaParams: { name: string; start: number; end: number }[] = [];

  for (const st of a.script.statements) if (st.kind === 'let') mark(st.name.start, 'variable');
  visitScript(a.script, {
    source(s) {
      if (s.kind === 'table') {
        const b = a.sources.get(s);
        s.parts.forEach((p, i) =>
          mark(p.start, b?.kind === 'let' ? 'variable' : i === s.parts.length - 1 ? 'type' : 'namespace'),
        );
      }
      if (s.kind === 'range') mark(s.column.start, 'property');
    },
    operator(op) {
      if (op.kind === 'project' || op.kind === 'extend') op.items.forEach((i) => i.name && mark(i.name.start, 'property'));
      if (op.kind === 'summarize') [...op.aggregations, ...op.by].forEach((i) => i.name && mark(i.name.start, 'property'));
      if (op.kind === 'join') {
        if (op.joinKind) mark(op.joinKind.start, 'keyword');
        if (op.destName) mark(op.destName.start, 'property');
      }
      if (op.kind === 'visualize') {
        if (op.chart) mark(op.chart.start, 'keyword');
        op.annotations.forEach((x) => mark(x.name.start, 'keyword'));
      }
    },
    expr(e) {
      switch (e.kind) {
        case 'call':
          markDotted(e.callee.start, text.slice(e.callee.start, e.callee.end), 'function', 'namespace');
          break;
        case 'name':
          if (e.name.startsWith('$')) mark(e.start, 'keyword');
          else if (a.scalarLets.has(e)) mark(e.start, 'variable');
          else if (lambdaParams.some((p) => p.name === e.name && p.start <= e.start && e.end <= p.end))
            mark(e.start, 'parameter');
          else mark(e.start, 'property');
          break;
        case 'member':
          mark(e.member.start, 'property');
          break;
        case 'object':
          e.entries.forEach((x) => mark(x.key.start, 'property'));
          break;
        case 'lambda':
          e.params.forEach((p) => {
            mark(p.start, 'parameter');
            lambdaParams.push({ name: p.name, start: e.start, end: e.end });
          });
          break;
        default:
          break;
      }
    },
  });

  const out: SemanticToken[] = [];
  for (const t of a.tokens) {
    let type: TokenType | undefined = byStart.get(t.start);
    if (t.kind === 'comment') type = 'comment';
    else if (t.kind === 'string') type = byStart.get(t.start) === 'property' ? 'property' : 'string';
    else if (t.kind === 'int' || t.kind === 'float' || t.kind === 'timespan') type = 'number';
    else if (t.kind === 'punct') type = OPERATOR_PUNCT.has(t.text) ? 'operator' : undefined;
    else if (t.kind === 'ident' && !type && KEYWORDS.has(t.text)) type = 'keyword';
    if (!type || t.end <= t.start) continue;
    const p = lines.position(t.start);
    out.push({ start: t.start, length: t.end - t.start, line: p.line, character: p.character, type });
  }
  return out;
}

/** LSP's encoding: per token [deltaLine, deltaStart, length, typeIndex, modifiers]. */
export function encodeSemanticTokens(tokens: readonly SemanticToken[]): Uint32Array {
  const data = new Uint32Array(tokens.length * 5);
  let line = 0;
  let character = 0;
  tokens.forEach((t, i) => {
    const dl = t.line - line;
    data.set([dl, dl === 0 ? t.character - character : t.character, t.length, TOKEN_TYPES.indexOf(t.type), 0], i * 5);
    line = t.line;
    character = t.character;
  });
  return data;
}
