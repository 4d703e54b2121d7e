// Completion: the cursor situation → candidates. Items carry the range they replace (0-based offsets and
// line/character), LSP-style, so an editor adapter only maps kinds and positions.
import { qualifiedName, type Catalog } from '../catalog';
import { quoteName } from '../lexer';
import { FUNCTIONS, NAMESPACES, signatureLabel, type FunctionInfo } from '../functions';
import { EXPRESSION_KEYWORDS, OPERATORS, SOURCE_KEYWORDS } from '../operators';
import { LineIndex, type Range } from '../position';
import { typeToString } from '../types';
import { analysisOf } from './analysis-cache';
import { cursorSituation } from './cursor';

export type CompletionKind = 'operator' | 'keyword' | 'table' | 'variable' | 'column' | 'field' | 'function' | 'namespace';

export interface CompletionItem {
  readonly label: string;
  readonly kind: CompletionKind;
  readonly detail?: string;
  /** Markdown. */
  readonly documentation?: string;
  readonly insertText: string;
  /** The text the item replaces. */
  readonly range: Range;
  /** Orders items: lower first. */
  readonly sortText: string;
}

export interface CompletionList {
  readonly items: CompletionItem[];
}

export function functionDoc(f: FunctionInfo): string {
  return `\`${signatureLabel(f)}\`\n\n${f.doc}\n\nExample: \`${f.example}\``;
}

export function complete(text: string, offset: number, catalog: Catalog): CompletionList {
  const a = analysisOf(text, catalog);
  const s = cursorSituation(a, offset);
  if (s.kind === 'none') return { items: [] };
  const range = new LineIndex(text).range(s.replace);
  const items: CompletionItem[] = [];
  const add = (rank: number, item: Omit<CompletionItem, 'range' | 'sortText'>) =>
    items.push({ ...item, range, sortText: `${rank}_${item.label}` });

  switch (s.kind) {
    case 'operator':
      for (const o of OPERATORS)
        add(0, {
          label: o.name,
          kind: 'operator',
          detail: o.syntax,
          documentation: `${o.doc}\n\nExample: \`${o.example}\``,
          insertText: o.name + ' ',
        });
      break;
    case 'source': {
      for (const t of catalog.tables()) {
        const name = qualifiedName(t);
        add(1, {
          label: name,
          kind: 'table',
          detail: `${t.columns.length} columns`,
          documentation: t.description,
          insertText: name,
        });
      }
      for (const l of a.lets.values())
        if (l.kind === 'tabular' && l.statement.end <= offset)
          add(0, { label: l.name, kind: 'variable', detail: 'let', insertText: l.name });
      if (!s.typed.includes('.'))
        for (const k of SOURCE_KEYWORDS)
          add(2, { label: k.name, kind: 'keyword', detail: k.syntax, documentation: k.doc, insertText: k.name + ' ' });
      break;
    }
    case 'keyword':
      s.words.forEach((w, i) => add(i, { label: w, kind: 'keyword', insertText: w }));
      break;
    case 'function':
      for (const f of FUNCTIONS.values()) {
        if (!f.name.startsWith(s.namespace + '.')) continue;
        const short = f.name.slice(s.namespace.length + 1);
        add(0, {
          label: short,
          kind: 'function',
          detail: signatureLabel(f),
          documentation: functionDoc(f),
          insertText: short + '(',
        });
      }
      break;
    case 'field':
      for (const f of s.fields)
        add(0, { label: f.name, kind: 'field', detail: typeToString(f.type), insertText: quoteName(f.name) });
      break;
    case 'expression': {
      if (s.afterValue) {
        const words = s.operator === 'sort' ? ['asc', 'desc'] : s.aggregation ? ['by'] : [];
        words.forEach((w, i) => add(i, { label: w, kind: 'keyword', insertText: w }));
        for (const w of ['and', 'or', 'in', 'not in', 'between']) add(5, { label: w, kind: 'keyword', insertText: w + ' ' });
        break;
      }
      for (const c of s.columns)
        if (!c.name.startsWith('$'))
          add(s.aggregation ? 1 : 0, {
            label: c.name,
            kind: 'column',
            detail: typeToString(c.type),
            documentation: c.description,
            insertText: quoteName(c.name),
          });
      for (const l of a.lets.values())
        if (l.kind === 'scalar' && l.statement.end <= offset)
          add(1, { label: l.name, kind: 'variable', detail: `let: ${typeToString(l.type)}`, insertText: l.name });
      for (const ns of NAMESPACES)
        add(s.aggregation && ns === 'agg' ? 0 : 2, {
          label: ns,
          kind: 'namespace',
          detail: `${ns}.* functions`,
          insertText: ns + '.',
        });
      for (const f of FUNCTIONS.values())
        if (!f.name.includes('.'))
          add(2, {
            label: f.name,
            kind: 'function',
            detail: signatureLabel(f),
            documentation: functionDoc(f),
            insertText: f.name + '(',
          });
      if (s.operator === 'join')
        ['$left', '$right'].forEach((side) => add(1, { label: side, kind: 'keyword', insertText: side + '.' }));
      for (const k of EXPRESSION_KEYWORDS) add(3, { label: k, kind: 'keyword', insertText: k });
      break;
    }
  }
  const typed = text.slice(s.replace.start, s.replace.end).toLowerCase();
  const matching = items.filter(
    (i) => typed === '' || i.label.toLowerCase().includes(typed) || fuzzy(typed, i.label.toLowerCase()),
  );
  return { items: matching.sort((x, y) => (x.sortText < y.sortText ? -1 : x.sortText > y.sortText ? 1 : 0)) };
}

/** The typed letters appear in order in the label ("evn" matches "eventName"). */
function fuzzy(typed: string, label: string): boolean {
  let j = 0;
  for (const c of label) if (c === typed[j]) j++;
  return j === typed.length;
}
