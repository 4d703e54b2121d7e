// The PantherFlow grammar as data: fixture files under grammar/, one per family of constructs, each a list of
//
//   # what the case shows
//
//   a query
//
//   ==>
//
//   its parse tree, printed compactly (printTree)
//
// cases, in the style of Lezer's grammar tests. Trees are compared ignoring whitespace outside quotes, so an
// expected tree may be laid out by hand. The parser's diagnostics follow the tree, one `⚠ line:column message`
// line each. `UPDATE_GOLDEN=1 npx vitest run tests/core/pantherflow/grammar.test.ts` rewrites the trees and
// diagnostics from the parser (review the diff before committing).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as A from '../../../core/pantherflow/ast';
import { quoteName } from '../../../core/pantherflow/lexer';
import { parse } from '../../../core/pantherflow/parser';
import { LineIndex } from '../../../core/pantherflow/position';
import { here } from './golden';

export const GRAMMAR_DIR = join(here, 'grammar');

export interface GrammarCase {
  readonly name: string;
  readonly query: string;
  /** The expected tree and diagnostics as written in the file. */
  readonly expected: string;
}

export interface GrammarFile {
  readonly file: string;
  /** Lines before the first case, kept when the file is rewritten. */
  readonly header: string;
  readonly cases: GrammarCase[];
}

export function grammarFiles(): string[] {
  return readdirSync(GRAMMAR_DIR)
    .filter((f) => f.endsWith('.txt'))
    .sort();
}

const trimBlankLines = (lines: string[]) => {
  let a = 0;
  let b = lines.length;
  while (a < b && lines[a].trim() === '') a++;
  while (b > a && lines[b - 1].trim() === '') b--;
  return lines.slice(a, b).join('\n');
};

/**
 * A case starts at a line `# name` (a query never has one: PantherFlow comments start with `//`); its query ends at
 * a line `==>`. Lines before the first case are the file's header.
 */
export function readGrammarFile(file: string): GrammarFile {
  const lines = readFileSync(join(GRAMMAR_DIR, file), 'utf8').split('\n');
  const caseStarts = lines.flatMap((l, i) => (l.startsWith('# ') ? [i] : []));
  const firstCase = caseStarts[0] ?? lines.length;
  const cases = caseStarts.map((at, n) => {
    const body = lines.slice(at + 1, caseStarts[n + 1] ?? lines.length);
    const arrow = body.findIndex((l) => l.trim() === '==>');
    if (arrow < 0) throw new Error(`${file}:${at + 1}: the case has no '==>' line`);
    return {
      name: lines[at].slice(2).trim(),
      query: trimBlankLines(body.slice(0, arrow)),
      expected: trimBlankLines(body.slice(arrow + 1)),
    };
  });
  return { file, header: lines.slice(0, firstCase).join('\n'), cases };
}

export function writeGrammarFile(file: GrammarFile): string {
  const cases = file.cases.map((c) => `# ${c.name}\n\n${c.query}\n\n==>\n\n${c.expected}\n`);
  return (file.header.trim() ? `${file.header.trimEnd()}\n\n` : '') + cases.join('\n');
}

/** The tree and the diagnostics of a query, as a fixture holds them. */
export function printParse(query: string, seen?: Set<string>): string {
  const { script, diagnostics } = parse(query);
  const lines = new LineIndex(query);
  const problems = diagnostics.map((d) => {
    const p = lines.position(d.start);
    return `⚠ ${p.line + 1}:${p.character + 1} ${d.message}`;
  });
  return [render(scriptNode(script, seen ?? new Set())), ...problems].join('\n');
}

/** The tree with whitespace outside quotes removed; diagnostic lines as they are. */
export function normalize(printed: string): string {
  const tree: string[] = [];
  const problems: string[] = [];
  for (const line of printed.split('\n')) (line.startsWith('⚠') ? problems : tree).push(line.trim());
  let out = '';
  let quote: string | null = null;
  const text = tree.join('\n');
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === quote) quote = null;
    } else if (c === '"' || c === '`') {
      quote = c;
      out += c;
    } else if (!/\s/.test(c)) out += c;
  }
  return [out, ...problems].join('\n');
}

// A printed node: a head and its children, `Head(child, child)`, or a bare atom.
interface Node {
  readonly head: string;
  readonly children?: readonly Node[];
}

const atom = (head: string): Node => ({ head });
const node = (head: string, ...children: (Node | undefined | false)[]): Node => ({
  head,
  children: children.filter((c): c is Node => Boolean(c)),
});

const WIDTH = 100;

function render(n: Node, indent = ''): string {
  const flat = renderFlat(n);
  if (indent.length + flat.length <= WIDTH || !n.children?.length) return flat;
  const inner = indent + '  ';
  return `${n.head}(\n${n.children.map((c) => inner + render(c, inner)).join(',\n')}\n${indent})`;
}

function renderFlat(n: Node): string {
  return n.children ? `${n.head}(${n.children.map(renderFlat).join(', ')})` : n.head;
}

const name = (i: A.Ident) => atom(quoteName(i.name));

function scriptNode(s: A.Script, seen: Set<string>): Node {
  const mark = (construct: string) => seen.add(construct);

  const pipeline = (head: string, p: A.Pipeline, ...before: Node[]) =>
    node(head, ...before, source(p.source), ...p.operators.map(operator));

  function statement(st: A.Statement): Node {
    if (st.kind === 'query') {
      mark('statement:query');
      return pipeline('Query', st.pipeline);
    }
    mark(`statement:let:${st.value.kind}`);
    return node(
      'Let',
      name(st.name),
      st.value.kind === 'tabular' ? pipeline('Tabular', st.value.pipeline) : node('Scalar', expr(st.value.expr)),
    );
  }

  function source(s: A.Source): Node {
    mark(`source:${s.kind}`);
    switch (s.kind) {
      case 'table':
        return node('Table', atom(s.parts.map((p) => quoteName(p.name)).join('.')));
      case 'union':
        return node('Union', ...s.sources.map(source));
      case 'datatable':
        return node('Datatable', ...s.rows.map(expr));
      case 'range':
        return node('Range', name(s.column), expr(s.from), expr(s.to), expr(s.step));
      case 'subquery':
        return pipeline('Subquery', s.pipeline);
    }
  }

  function assignment(a: A.Assignment): Node {
    mark(a.name ? 'assignment:named' : 'assignment:bare');
    return a.name ? node('Assign', name(a.name), expr(a.expr)) : expr(a.expr);
  }

  function operator(op: A.Operator): Node {
    mark(`operator:${op.kind}`);
    switch (op.kind) {
      case 'where':
        return node('Where', expr(op.predicate));
      case 'project':
        return node('Project', ...op.items.map(assignment));
      case 'extend':
        return node('Extend', ...op.items.map(assignment));
      case 'summarize':
        mark(`summarize:${op.aggregations.length ? 'aggregations' : 'none'}:${op.byKeyword ? 'by' : 'no-by'}`);
        return node('Summarize', ...op.aggregations.map(assignment), op.byKeyword && node('By', ...op.by.map(assignment)));
      case 'sort':
        return node(
          'Sort',
          ...op.keys.map((k) => {
            mark(`sort:${k.direction ?? 'none'}`);
            return node('Key', expr(k.expr), k.direction && atom(k.direction));
          }),
        );
      case 'limit':
        return node('Limit', expr(op.count));
      case 'search':
        return node('Search', expr(op.text));
      case 'join':
        mark(`join:${op.joinKind?.name ?? 'none'}`);
        if (op.on.length) mark('join:on');
        return node(
          'Join',
          op.joinKind && node('Kind', name(op.joinKind)),
          op.dest && op.destName && pipeline('Dest', op.dest, name(op.destName)),
          op.on.length > 0 && node('On', ...op.on.map(expr)),
        );
      case 'visualize':
        mark(`chart:${op.chart?.name ?? 'none'}`);
        return node(
          'Visualize',
          op.chart && name(op.chart),
          ...op.annotations.map((a) => {
            mark(`annotation:${a.name.name}`);
            return node('Annotation', name(a.name), expr(a.value));
          }),
        );
      case 'unknown':
        return node('Unknown', atom(quoteName(op.name)));
    }
  }

  function expr(e: A.Expr): Node {
    mark(`expr:${e.kind}`);
    switch (e.kind) {
      case 'literal':
        mark(`literal:${e.type}`);
        switch (e.type) {
          case 'string':
            return node('String', atom(JSON.stringify(e.value)));
          case 'null':
            return atom('Null');
          case 'timespan':
            return node('Timespan', atom(`${e.value}ms`));
          default:
            return node(e.type[0].toUpperCase() + e.type.slice(1), atom(String(e.value)));
        }
      case 'name':
        return node('Name', atom(e.name.startsWith('$') ? e.name : quoteName(e.name)));
      case 'member':
        return node('Member', expr(e.object), name(e.member));
      case 'index':
        return node('Index', expr(e.object), expr(e.index));
      case 'call':
        return node('Call', atom(e.callee.name), ...e.args.map(expr));
      case 'unary':
        mark(`unary:${e.op}`);
        return node('Unary', atom(e.op), expr(e.operand));
      case 'binary':
        mark(`binary:${e.op}`);
        return node('Binary', atom(e.op), expr(e.left), expr(e.right));
      case 'in':
        mark(`in:${Array.isArray(e.list) ? 'list' : 'expression'}:${e.negated ? 'negated' : 'plain'}`);
        return node(
          e.negated ? 'NotIn' : 'In',
          expr(e.value),
          Array.isArray(e.list) ? node('List', ...e.list.map(expr)) : expr(e.list),
        );
      case 'between':
        mark(`between:${e.negated ? 'negated' : 'plain'}`);
        return node(e.negated ? 'NotBetween' : 'Between', expr(e.value), expr(e.low), expr(e.high));
      case 'array':
        return node('Array', ...e.items.map(expr));
      case 'object':
        return node('Object', ...e.entries.map((en) => node('Entry', name(en.key), expr(en.value))));
      case 'lambda':
        return node('Lambda', node('Params', ...e.params.map(name)), expr(e.body));
      case 'missing':
        return atom('Missing');
    }
  }

  return node('Script', ...s.statements.map(statement));
}
