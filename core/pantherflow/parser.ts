// Parser: tokens → syntax tree. Recursive descent with recovery: an error is recorded with its span and the
// parser skips to the next `|` or `;`, so a half-typed query still yields a tree the editor services can use.
import type * as A from './ast';
import { OPERATOR_NAMES } from './ast';
import { error, type Diagnostic, closest, didYouMean } from './diagnostic';
import { timespanMillis, tokenize, type Token } from './lexer';
import type { Span } from './position';

export interface ParseResult {
  readonly script: A.Script;
  readonly tokens: Token[];
  readonly diagnostics: Diagnostic[];
}

class Bail extends Error {}

export function parse(text: string): ParseResult {
  const all = tokenize(text);
  const parser = new Parser(
    all.filter((t) => t.kind !== 'comment'),
    text.length,
  );
  const script = parser.script();
  return { script, tokens: all, diagnostics: parser.diagnostics };
}

class Parser {
  readonly diagnostics: Diagnostic[] = [];
  private i = 0;

  constructor(
    private readonly toks: Token[],
    private readonly length: number,
  ) {}

  private get tok(): Token {
    return this.toks[this.i];
  }
  private peek(n = 1): Token {
    return this.toks[Math.min(this.i + n, this.toks.length - 1)];
  }
  private at(text: string): boolean {
    const t = this.tok;
    return (t.kind === 'punct' || t.kind === 'ident') && t.text === text;
  }
  private atEnd(): boolean {
    return this.tok.kind === 'eof';
  }
  private next(): Token {
    const t = this.tok;
    if (t.kind !== 'eof') this.i++;
    return t;
  }
  private prevEnd(): number {
    return this.i > 0 ? this.toks[this.i - 1].end : 0;
  }
  private fail(span: Span, message: string, suggestion?: string): never {
    this.diagnostics.push(error(span, message, suggestion));
    throw new Bail();
  }
  private describe(t: Token): string {
    if (t.kind === 'eof') return 'end of query';
    if (t.kind === 'error') return t.value ?? 'bad token';
    return `'${t.text}'`;
  }
  private expect(text: string, what?: string): Token {
    if (this.at(text)) return this.next();
    const t = this.tok;
    if (t.kind === 'error') this.fail(t, t.value ?? 'bad token');
    return this.fail(
      t.kind === 'eof' ? { start: this.prevEnd(), end: this.prevEnd() } : t,
      `expected ${what ?? `'${text}'`}, found ${this.describe(t)}`,
    );
  }
  private ident(what: string): A.Ident {
    const t = this.tok;
    if (t.kind === 'ident' || t.kind === 'quotedIdent') {
      this.next();
      return { name: t.kind === 'quotedIdent' ? (t.value ?? '') : t.text, start: t.start, end: t.end };
    }
    if (t.kind === 'error') this.fail(t, t.value ?? 'bad token');
    return this.fail(
      t.kind === 'eof' ? { start: this.prevEnd(), end: this.prevEnd() } : t,
      `expected ${what}, found ${this.describe(t)}`,
    );
  }
  /** Skip to the next `|`, `;` or end at bracket depth 0 (error recovery). */
  private recover(insideParens = false): void {
    let depth = 0;
    while (this.tok.kind !== 'eof') {
      const t = this.tok.text;
      if (this.tok.kind === 'punct') {
        if (depth === 0 && (t === '|' || t === ';')) return;
        if (t === '(' || t === '[' || t === '{') depth++;
        if (t === ')' || t === ']' || t === '}') {
          if (depth === 0 && insideParens) return;
          depth = Math.max(0, depth - 1);
        }
      }
      this.next();
    }
  }

  script(): A.Script {
    const statements: A.Statement[] = [];
    while (!this.atEnd()) {
      if (this.at(';')) {
        this.next();
        continue;
      }
      const start = this.i;
      try {
        statements.push(this.statement());
      } catch (e) {
        if (!(e instanceof Bail)) throw e;
        this.recover();
        if (this.i === start) this.next();
        while (!this.at(';') && !this.atEnd()) this.next();
        continue;
      }
      if (!this.at(';') && !this.atEnd()) {
        const t = this.tok;
        const hint = t.text === '=' && t.kind === 'punct' ? ' (use == to compare)' : '';
        this.diagnostics.push(error(t, `expected '|' or ';', found ${this.describe(t)}${hint}`));
        while (!this.at(';') && !this.atEnd()) this.next();
      }
    }
    return { statements, start: 0, end: this.length };
  }

  private statement(): A.Statement {
    if (this.at('let')) {
      const kw = this.next();
      const name = this.ident('a name after let');
      this.expect('=');
      const value = this.letValue();
      return { kind: 'let', name, value, start: kw.start, end: this.prevEnd() };
    }
    const pipeline = this.pipeline(false);
    return { kind: 'query', pipeline, start: pipeline.start, end: pipeline.end };
  }

  private letValue(): A.LetStatement['value'] {
    const t = this.tok;
    if (t.kind === 'ident' && (t.text === 'union' || t.text === 'datatable' || t.text === 'range'))
      return { kind: 'tabular', pipeline: this.pipeline(false) };
    const save = this.i;
    const expr = this.expr();
    if (isNameChain(expr)) {
      this.i = save;
      return { kind: 'tabular', pipeline: this.pipeline(false) };
    }
    return { kind: 'scalar', expr };
  }

  /** A source followed by `| operator`s. Inside parentheses (`nested`), stops at `)`. */
  private pipeline(nested: boolean): A.Pipeline {
    const source = this.source();
    const operators: A.Operator[] = [];
    const pipes: number[] = [];
    while (this.at('|')) {
      const pipe = this.next();
      pipes.push(pipe.start);
      const opStart = this.i;
      try {
        operators.push(this.operator());
      } catch (e) {
        if (!(e instanceof Bail)) throw e;
        const kw = this.toks[opStart];
        if (
          kw.kind === 'ident' &&
          (OPERATOR_NAMES as readonly string[]).includes(kw.text) &&
          operators.at(-1)?.start !== pipe.start
        ) {
          operators.push(partialOperator(kw, this.prevEnd()));
        }
        this.recover(nested);
      }
      if (nested && this.at(')')) break;
    }
    const end = operators.length ? operators[operators.length - 1].end : source.end;
    return { source, operators, pipes, start: source.start, end: Math.max(end, this.prevEnd()) };
  }

  private source(): A.Source {
    const t = this.tok;
    if (t.kind === 'ident' && t.text === 'union' && !this.peekIsPipeOrEnd()) {
      this.next();
      const sources: A.Source[] = [this.unionItem()];
      while (this.at(',')) {
        this.next();
        sources.push(this.unionItem());
      }
      return { kind: 'union', keyword: span(t), sources, start: t.start, end: this.prevEnd() };
    }
    if (t.kind === 'ident' && t.text === 'datatable' && this.peek().text === '[') {
      this.next();
      const arr = this.primary();
      const rows = arr.kind === 'array' ? arr.items : [];
      return { kind: 'datatable', keyword: span(t), rows, start: t.start, end: this.prevEnd() };
    }
    if (t.kind === 'ident' && t.text === 'range' && (this.peek().kind === 'ident' || this.peek().kind === 'quotedIdent')) {
      this.next();
      const column = this.ident('a column name after range');
      this.expect('from', "'from'");
      const from = this.expr();
      this.expect('to', "'to'");
      const to = this.expr();
      this.expect('step', "'step'");
      const step = this.expr();
      return { kind: 'range', keyword: span(t), column, from, to, step, start: t.start, end: this.prevEnd() };
    }
    if (this.at('(')) {
      const open = this.next();
      const pipeline = this.pipeline(true);
      this.expect(')');
      return { kind: 'subquery', pipeline, start: open.start, end: this.prevEnd() };
    }
    return this.tableName();
  }

  private peekIsPipeOrEnd(): boolean {
    const n = this.peek();
    return n.kind === 'eof' || n.text === '|' || n.text === ';';
  }

  private unionItem(): A.Source {
    if (this.at('(')) return this.source();
    return this.tableName();
  }

  private tableName(): A.TableSource {
    const parts = [this.ident('a table name')];
    while (this.at('.') && (this.peek().kind === 'ident' || this.peek().kind === 'quotedIdent')) {
      this.next();
      parts.push(this.ident('a name'));
    }
    return { kind: 'table', parts, start: parts[0].start, end: parts[parts.length - 1].end };
  }

  private operator(): A.Operator {
    const t = this.tok;
    if (t.kind !== 'ident') {
      const at = t.kind === 'eof' ? { start: this.prevEnd(), end: this.prevEnd() } : t;
      const hint = t.text === '|' ? ' (write `or` to combine conditions)' : '';
      if (t.text === '|') this.next();
      this.fail(at, `expected an operator after '|' (${OPERATOR_NAMES.join(', ')}), found ${this.describe(t)}${hint}`);
    }
    this.next();
    const keyword = span(t);
    const done = <T extends A.Operator>(op: Omit<T, 'start' | 'end' | 'keyword'>): T =>
      ({ ...op, keyword, start: t.start, end: this.prevEnd() }) as T;
    switch (t.text) {
      case 'where':
        return done<A.WhereOp>({ kind: 'where', predicate: this.expr() });
      case 'project':
        return done<A.ProjectOp>({ kind: 'project', items: this.assignments() });
      case 'extend':
        return done<A.ExtendOp>({ kind: 'extend', items: this.assignments() });
      case 'summarize': {
        const aggregations = this.at('by') ? [] : this.assignments();
        let by: A.Assignment[] = [];
        let byKeyword: Span | undefined;
        if (this.at('by')) {
          byKeyword = span(this.next());
          by = this.assignments();
        }
        return done<A.SummarizeOp>({ kind: 'summarize', aggregations, by, byKeyword });
      }
      case 'sort': {
        if (this.at('by')) this.next();
        const keys: A.SortKey[] = [];
        do {
          if (keys.length) this.next();
          const expr = this.expr();
          let direction: 'asc' | 'desc' | undefined;
          if (this.at('asc') || this.at('desc')) direction = this.next().text as 'asc' | 'desc';
          keys.push({ expr, direction, start: expr.start, end: this.prevEnd() });
        } while (this.at(','));
        return done<A.SortOp>({ kind: 'sort', keys });
      }
      case 'limit':
        return done<A.LimitOp>({ kind: 'limit', count: this.expr() });
      case 'search':
        return done<A.SearchOp>({ kind: 'search', text: this.expr() });
      case 'join':
        return this.join(keyword, t.start);
      case 'visualize': {
        const chart = this.tok.kind === 'ident' ? this.ident('a chart kind') : undefined;
        const annotations: { name: A.Ident; value: A.Expr }[] = [];
        while (this.tok.kind === 'ident' && this.peek().text === '=') {
          const name = this.ident('an annotation');
          this.next();
          annotations.push({ name, value: this.expr() });
        }
        if (!chart)
          this.fail(
            this.tok.kind === 'eof' ? { start: this.prevEnd(), end: this.prevEnd() } : this.tok,
            'expected a chart kind after visualize (bar, line, pie, table)',
          );
        return done<A.VisualizeOp>({ kind: 'visualize', chart, annotations });
      }
      default: {
        const suggestion = closest(t.text, OPERATOR_NAMES);
        this.diagnostics.push(error(t, `unknown operator \`${t.text}\`${didYouMean(suggestion)}`, suggestion));
        this.recover();
        return { kind: 'unknown', name: t.text, keyword, start: t.start, end: this.prevEnd() };
      }
    }
  }

  private join(keyword: Span, start: number): A.JoinOp {
    let joinKind: A.Ident | undefined;
    let destName: A.Ident | undefined;
    let dest: A.Pipeline | undefined;
    while (this.tok.kind === 'ident' && this.peek().text === '=') {
      const name = this.ident('a join parameter');
      this.next();
      if (name.name === 'kind') joinKind = this.ident('a join kind (inner, leftouter, rightouter, fullouter, cross)');
      else {
        destName = name;
        this.expect('(', "'(' and a subquery");
        dest = this.pipeline(true);
        if (this.atEnd()) {
          // Still being typed: keep the right side so the editor knows its columns.
          this.diagnostics.push(error({ start: this.prevEnd(), end: this.prevEnd() }, "expected ')' after the join's subquery"));
          return { kind: 'join', joinKind, destName, dest, on: [], keyword, start, end: this.prevEnd() };
        }
        this.expect(')');
      }
    }
    if (!dest)
      this.fail(
        this.tok.kind === 'eof' ? { start: this.prevEnd(), end: this.prevEnd() } : this.tok,
        'expected the right side of the join: name=(subquery), e.g. dest=(panther_logs.public.okta_systemlog)',
      );
    const on: A.Expr[] = [];
    if (this.at('on')) {
      this.next();
      // A half-written condition still yields the join (with its right side), for the editor's sake.
      try {
        on.push(this.expr());
        while (this.at(',')) {
          this.next();
          on.push(this.expr());
        }
      } catch (e) {
        if (!(e instanceof Bail)) throw e;
      }
    }
    return { kind: 'join', joinKind, destName, dest, on, keyword, start, end: this.prevEnd() };
  }

  private assignments(): A.Assignment[] {
    const items: A.Assignment[] = [];
    do {
      if (items.length) this.next();
      const t = this.tok;
      if ((t.kind === 'ident' || t.kind === 'quotedIdent') && this.peek().text === '=') {
        const name = this.ident('a name');
        this.next();
        const expr = this.expr();
        items.push({ name, expr, start: name.start, end: expr.end });
      } else {
        const expr = this.expr();
        items.push({ expr, start: expr.start, end: expr.end });
      }
    } while (this.at(','));
    return items;
  }

  // Expressions, lowest precedence first.
  expr(): A.Expr {
    return this.or();
  }
  private binary(ops: string[], next: () => A.Expr): A.Expr {
    let left = next();
    while (ops.some((o) => this.at(o))) {
      const opTok = this.next();
      const right = next();
      left = {
        kind: 'binary',
        op: opTok.text as A.BinaryOp,
        opSpan: span(opTok),
        left,
        right,
        start: left.start,
        end: right.end,
      };
    }
    return left;
  }
  private or(): A.Expr {
    return this.binary(['or'], () => this.and());
  }
  private and(): A.Expr {
    return this.binary(['and'], () => this.not());
  }
  private not(): A.Expr {
    if (this.at('not') && !(this.peek().text === 'in' || this.peek().text === 'between')) {
      const t = this.next();
      const operand = this.not();
      return { kind: 'unary', op: 'not', operand, start: t.start, end: operand.end };
    }
    return this.comparison();
  }
  private comparison(): A.Expr {
    const left = this.additive();
    let negated = false;
    if (this.at('not') && (this.peek().text === 'in' || this.peek().text === 'between')) {
      this.next();
      negated = true;
    }
    if (this.at('in')) {
      this.next();
      let list: A.Expr[] | A.Expr;
      if (this.at('(')) {
        this.next();
        list = this.at(')') ? [] : this.exprList(')');
        this.expect(')');
      } else list = this.additive();
      return { kind: 'in', negated, value: left, list, start: left.start, end: this.prevEnd() };
    }
    if (this.at('between')) {
      this.next();
      const paren = this.at('(');
      if (paren) this.next();
      const low = this.additive();
      this.expect('..', "'..' between the bounds");
      const high = this.additive();
      if (paren) this.expect(')');
      return { kind: 'between', negated, value: left, low, high, start: left.start, end: this.prevEnd() };
    }
    if (negated) this.fail(this.tok, "expected 'in' or 'between' after 'not'");
    for (const op of ['==', '!=', '<=', '>=', '<', '>']) {
      if (this.at(op)) {
        const opTok = this.next();
        const right = this.additive();
        return { kind: 'binary', op: op as A.BinaryOp, opSpan: span(opTok), left, right, start: left.start, end: right.end };
      }
    }
    return left;
  }
  private additive(): A.Expr {
    return this.binary(['+', '-'], () => this.multiplicative());
  }
  private multiplicative(): A.Expr {
    return this.binary(['*', '/', '%'], () => this.unary());
  }
  private unary(): A.Expr {
    if (this.at('-')) {
      const t = this.next();
      const operand = this.unary();
      return { kind: 'unary', op: '-', operand, start: t.start, end: operand.end };
    }
    return this.postfix();
  }
  private postfix(): A.Expr {
    let e = this.primary();
    for (;;) {
      if (this.at('.') && (this.peek().kind === 'ident' || this.peek().kind === 'quotedIdent')) {
        this.next();
        const member = this.ident('a field name');
        e = { kind: 'member', object: e, member, start: e.start, end: member.end };
      } else if (this.at('.')) {
        const dot = this.next();
        this.fail({ start: dot.end, end: dot.end }, `expected a field name after '.', found ${this.describe(this.tok)}`);
      } else if (this.at('[')) {
        this.next();
        const index = this.expr();
        this.expect(']');
        e = { kind: 'index', object: e, index, start: e.start, end: this.prevEnd() };
      } else if (this.at('(') && isNameChain(e)) {
        e = this.call(e);
      } else return e;
    }
  }
  private call(calleeExpr: A.Expr): A.CallExpr {
    const callee: A.Ident = { name: nameChain(calleeExpr).join('.'), start: calleeExpr.start, end: calleeExpr.end };
    const open = this.next().start;
    const args: A.Expr[] = [];
    const commas: number[] = [];
    if (!this.at(')')) {
      args.push(this.expr());
      while (this.at(',')) {
        commas.push(this.next().start);
        args.push(this.expr());
      }
    }
    let close: number | undefined;
    if (this.at(')')) close = this.next().start;
    else
      this.fail(
        this.tok.kind === 'eof' ? { start: this.prevEnd(), end: this.prevEnd() } : this.tok,
        `expected ',' or ')' in the call to ${callee.name}, found ${this.describe(this.tok)}`,
      );
    return { kind: 'call', callee, args, open, commas, close, start: calleeExpr.start, end: this.prevEnd() };
  }
  private exprList(close: string): A.Expr[] {
    const items = [this.expr()];
    while (this.at(',')) {
      this.next();
      if (this.at(close)) break;
      items.push(this.expr());
    }
    return items;
  }
  primary(): A.Expr {
    const t = this.tok;
    switch (t.kind) {
      case 'int':
      case 'float':
        this.next();
        return { kind: 'literal', type: t.kind, value: Number(t.text), raw: t.text, start: t.start, end: t.end };
      case 'timespan':
        this.next();
        return { kind: 'literal', type: 'timespan', value: timespanMillis(t.text), raw: t.text, start: t.start, end: t.end };
      case 'string':
        this.next();
        return { kind: 'literal', type: 'string', value: t.value ?? '', raw: t.text, start: t.start, end: t.end };
      case 'quotedIdent':
        this.next();
        return { kind: 'name', name: t.value ?? '', start: t.start, end: t.end };
      case 'error':
        return this.fail(t, t.value ?? 'bad token');
      case 'ident': {
        if (t.text === 'true' || t.text === 'false') {
          this.next();
          return { kind: 'literal', type: 'bool', value: t.text === 'true', raw: t.text, start: t.start, end: t.end };
        }
        if (t.text === 'null') {
          this.next();
          return { kind: 'literal', type: 'null', value: null, raw: t.text, start: t.start, end: t.end };
        }
        if (t.text === 'fn' && this.peek().text === '(') return this.lambda();
        this.next();
        return { kind: 'name', name: t.text, start: t.start, end: t.end };
      }
      case 'punct':
        if (t.text === '$' && this.peek().kind === 'ident' && this.peek().start === t.end) {
          this.next();
          const n = this.next();
          return { kind: 'name', name: '$' + n.text, start: t.start, end: n.end };
        }
        if (t.text === '(') {
          this.next();
          const e = this.expr();
          this.expect(')');
          return { ...e, start: t.start, end: this.prevEnd() };
        }
        if (t.text === '[') {
          this.next();
          const items = this.at(']') ? [] : this.exprList(']');
          this.expect(']', "',' or ']'");
          return { kind: 'array', items, start: t.start, end: this.prevEnd() };
        }
        if (t.text === '{') return this.object();
        break;
      default:
        break;
    }
    const at = t.kind === 'eof' ? { start: this.prevEnd(), end: this.prevEnd() } : t;
    this.diagnostics.push(error(at, `expected an expression, found ${this.describe(t)}`));
    if (t.kind === 'eof' || (t.kind === 'punct' && ['|', ';', ')', ']', '}', ','].includes(t.text))) {
      return { kind: 'missing', start: at.start, end: at.start };
    }
    throw new Bail();
  }
  private object(): A.ObjectExpr {
    const open = this.next();
    const entries: { key: A.Ident; value: A.Expr }[] = [];
    while (!this.at('}')) {
      if (entries.length) this.expect(',', "',' or '}'");
      const k = this.tok;
      let key: A.Ident;
      if (k.kind === 'string') {
        this.next();
        key = { name: k.value ?? '', start: k.start, end: k.end };
      } else key = this.ident('a key');
      this.expect(':');
      entries.push({ key, value: this.expr() });
    }
    this.next();
    return { kind: 'object', entries, start: open.start, end: this.prevEnd() };
  }
  private lambda(): A.LambdaExpr {
    const fn = this.next();
    this.expect('(');
    const params: A.Ident[] = [];
    while (!this.at(')')) {
      if (params.length) this.expect(',', "',' or ')'");
      params.push(this.ident('a parameter name'));
    }
    this.next();
    this.expect('{', "'{' and the lambda's body");
    const body = this.expr();
    this.expect('}');
    return { kind: 'lambda', params, body, start: fn.start, end: this.prevEnd() };
  }
}

function partialOperator(kw: Token, end: number): A.Operator {
  const keyword = { start: kw.start, end: kw.end };
  const missing: A.MissingExpr = { kind: 'missing', start: end, end };
  const base = { keyword, start: kw.start, end };
  switch (kw.text) {
    case 'where':
      return { kind: 'where', predicate: missing, ...base };
    case 'project':
    case 'extend':
      return { kind: kw.text, items: [], ...base };
    case 'summarize':
      return { kind: 'summarize', aggregations: [], by: [], ...base };
    case 'sort':
      return { kind: 'sort', keys: [], ...base };
    case 'limit':
      return { kind: 'limit', count: missing, ...base };
    case 'search':
      return { kind: 'search', text: missing, ...base };
    case 'join':
      return { kind: 'join', on: [], ...base };
    default:
      return { kind: 'visualize', annotations: [], ...base };
  }
}

export function isNameChain(e: A.Expr): boolean {
  return e.kind === 'name' || (e.kind === 'member' && isNameChain(e.object));
}

export function nameChain(e: A.Expr): string[] {
  if (e.kind === 'name') return [e.name];
  if (e.kind === 'member') return [...nameChain(e.object), e.member.name];
  return [];
}

function span(t: Span): Span {
  return { start: t.start, end: t.end };
}
