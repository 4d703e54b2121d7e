// Hover: documentation for the function, column, field, table, let name or operator under the cursor.
import type * as A from '../ast';
import { qualifiedName, type Catalog } from '../catalog';
import { FUNCTIONS } from '../functions';
import { operatorInfo } from '../operators';
import { LineIndex, type Range, type Span } from '../position';
import { typeToString } from '../types';
import { visitScript } from '../visit';
import { analysisOf } from './analysis-cache';
import { functionDoc } from './completion';
import { scopeAt } from './cursor';

export interface Hover {
  /** Markdown. */
  readonly contents: string;
  readonly range: Range;
}

const within = (s: Span, offset: number) => s.start <= offset && offset <= s.end && s.start < s.end;

export function hover(text: string, offset: number, catalog: Catalog): Hover | null {
  const a = analysisOf(text, catalog);
  const lines = new LineIndex(text);
  let best: { span: Span; contents: string } | undefined;
  const offer = (span: Span, contents: string | undefined) => {
    if (contents && within(span, offset) && (!best || span.end - span.start <= best.span.end - best.span.start))
      best = { span, contents };
  };

  for (const st of a.script.statements) {
    if (st.kind !== 'let') continue;
    const binding = a.lets.get(st.name.name);
    if (binding?.kind === 'scalar') offer(st.name, `let \`${st.name.name}\`: ${typeToString(binding.type)}`);
    if (binding?.kind === 'tabular') offer(st.name, `let \`${st.name.name}\`: a table of ${binding.columns.length} columns`);
  }
  visitScript(a.script, {
    source(s) {
      if (s.kind === 'table') {
        const b = a.sources.get(s);
        if (b?.kind === 'table') {
          const cols = b.table.columns.map((c) => `- \`${c.name}\`: ${typeToString(c.type)}`).join('\n');
          offer(s, `**${qualifiedName(b.table)}**${b.table.description ? `\n\n${b.table.description}` : ''}\n\n${cols}`);
        }
        if (b?.kind === 'let') offer(s, `let \`${b.name}\``);
      } else if (s.kind !== 'subquery') {
        const info = operatorInfo(s.kind);
        if (info) offer(s.keyword, `\`${info.syntax}\`\n\n${info.doc}`);
      }
    },
    operator(op) {
      const info = operatorInfo(op.kind);
      if (info) offer(op.keyword, `\`${info.syntax}\`\n\n${info.doc}\n\nExample: \`${info.example}\``);
    },
    expr(e) {
      exprHover(e);
    },
  });

  function exprHover(e: A.Expr): void {
    const type = a.types.get(e);
    if (e.kind === 'call') {
      const f = FUNCTIONS.get(e.callee.name);
      if (f) offer(e.callee, functionDoc(f));
    } else if (e.kind === 'name' && type) {
      const binding = a.scalarLets.get(e);
      if (binding) return offer(e, `let \`${e.name}\`: ${typeToString(type)}`);
      const column = scopeAt(a, e.start).find((c) => c.name === e.name);
      offer(e, `column \`${e.name}\`: ${typeToString(type)}${column?.description ? `\n\n${column.description}` : ''}`);
    } else if (e.kind === 'member' && type) {
      offer(e.member, `field \`${e.member.name}\`: ${typeToString(type)}`);
    }
  }

  if (!best) return null;
  return { contents: best.contents, range: lines.range(best.span) };
}
