// The typed syntax tree. Every node carries its exact source span (0-based offsets, end exclusive).
import type { Span } from './position';

export interface Ident extends Span {
  readonly name: string;
}

export type Expr =
  | LiteralExpr
  | NameExpr
  | MemberExpr
  | IndexExpr
  | CallExpr
  | UnaryExpr
  | BinaryExpr
  | InExpr
  | BetweenExpr
  | ArrayExpr
  | ObjectExpr
  | LambdaExpr
  | MissingExpr;

export type LiteralType = 'int' | 'float' | 'string' | 'bool' | 'null' | 'timespan';

export interface LiteralExpr extends Span {
  readonly kind: 'literal';
  readonly type: LiteralType;
  /** int/float: the number; string: the decoded text; bool: the boolean; timespan: milliseconds; null: null. */
  readonly value: number | string | boolean | null;
  readonly raw: string;
}
export interface NameExpr extends Span {
  readonly kind: 'name';
  /** An identifier, or `$left`/`$right` inside a join condition. */
  readonly name: string;
}
export interface MemberExpr extends Span {
  readonly kind: 'member';
  readonly object: Expr;
  readonly member: Ident;
}
export interface IndexExpr extends Span {
  readonly kind: 'index';
  readonly object: Expr;
  readonly index: Expr;
}
export interface CallExpr extends Span {
  readonly kind: 'call';
  /** Dotted function name as written, e.g. `strings.lower`. */
  readonly callee: Ident;
  readonly args: Expr[];
  /** Offsets of `(`, each `,`, and `)` (or the end of input when unclosed): signature help needs them. */
  readonly open: number;
  readonly commas: number[];
  readonly close: number | undefined;
}
export interface UnaryExpr extends Span {
  readonly kind: 'unary';
  readonly op: '-' | 'not';
  readonly operand: Expr;
}
export type BinaryOp = 'or' | 'and' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/' | '%';
export interface BinaryExpr extends Span {
  readonly kind: 'binary';
  readonly op: BinaryOp;
  readonly opSpan: Span;
  readonly left: Expr;
  readonly right: Expr;
}
export interface InExpr extends Span {
  readonly kind: 'in';
  readonly negated: boolean;
  readonly value: Expr;
  /** `x in (a, b)` gives a list; `x in arr` gives one array expression. */
  readonly list: Expr[] | Expr;
}
export interface BetweenExpr extends Span {
  readonly kind: 'between';
  readonly negated: boolean;
  readonly value: Expr;
  readonly low: Expr;
  readonly high: Expr;
}
export interface ArrayExpr extends Span {
  readonly kind: 'array';
  readonly items: Expr[];
}
export interface ObjectExpr extends Span {
  readonly kind: 'object';
  readonly entries: { readonly key: Ident; readonly value: Expr }[];
}
export interface LambdaExpr extends Span {
  readonly kind: 'lambda';
  readonly params: Ident[];
  readonly body: Expr;
}
/** Placeholder where an expression was expected but not written (the parser reports it and carries on). */
export interface MissingExpr extends Span {
  readonly kind: 'missing';
}

/** `name = expr` or a bare `expr` in project, extend and summarize. */
export interface Assignment extends Span {
  readonly name?: Ident;
  readonly expr: Expr;
}

export type Source = TableSource | UnionSource | DatatableSource | RangeSource | SubquerySource;

export interface TableSource extends Span {
  readonly kind: 'table';
  /** Dotted parts as written: `panther_logs.public.aws_cloudtrail`, `db.table`, or a `let` name. */
  readonly parts: Ident[];
}
export interface UnionSource extends Span {
  readonly kind: 'union';
  readonly keyword: Span;
  readonly sources: Source[];
}
export interface DatatableSource extends Span {
  readonly kind: 'datatable';
  readonly keyword: Span;
  readonly rows: Expr[];
}
export interface RangeSource extends Span {
  readonly kind: 'range';
  readonly keyword: Span;
  readonly column: Ident;
  readonly from: Expr;
  readonly to: Expr;
  readonly step: Expr;
}
export interface SubquerySource extends Span {
  readonly kind: 'subquery';
  readonly pipeline: Pipeline;
}

export type Operator =
  WhereOp | ProjectOp | ExtendOp | SummarizeOp | SortOp | LimitOp | SearchOp | JoinOp | VisualizeOp | UnknownOp;

interface OpBase extends Span {
  /** Span of the operator's keyword. */
  readonly keyword: Span;
}
export interface WhereOp extends OpBase {
  readonly kind: 'where';
  readonly predicate: Expr;
}
export interface ProjectOp extends OpBase {
  readonly kind: 'project';
  readonly items: Assignment[];
}
export interface ExtendOp extends OpBase {
  readonly kind: 'extend';
  readonly items: Assignment[];
}
export interface SummarizeOp extends OpBase {
  readonly kind: 'summarize';
  readonly aggregations: Assignment[];
  readonly by: Assignment[];
  readonly byKeyword?: Span;
}
export interface SortKey extends Span {
  readonly expr: Expr;
  readonly direction?: 'asc' | 'desc';
}
export interface SortOp extends OpBase {
  readonly kind: 'sort';
  readonly keys: SortKey[];
}
export interface LimitOp extends OpBase {
  readonly kind: 'limit';
  readonly count: Expr;
}
export interface SearchOp extends OpBase {
  readonly kind: 'search';
  readonly text: Expr;
}
export type JoinKind = 'inner' | 'leftouter' | 'rightouter' | 'fullouter' | 'cross';
export interface JoinOp extends OpBase {
  readonly kind: 'join';
  readonly joinKind?: Ident;
  readonly destName?: Ident;
  readonly dest?: Pipeline;
  /** Each condition: `$left.a == $right.b`, or a bare column name present on both sides. */
  readonly on: Expr[];
}
export interface VisualizeOp extends OpBase {
  readonly kind: 'visualize';
  readonly chart?: Ident;
  readonly annotations: { readonly name: Ident; readonly value: Expr }[];
}
/** An operator keyword the language does not have; kept so services know where the cursor is. */
export interface UnknownOp extends OpBase {
  readonly kind: 'unknown';
  readonly name: string;
}

export interface Pipeline extends Span {
  readonly source: Source;
  readonly operators: Operator[];
  /** Offsets of the `|` before each operator. */
  readonly pipes: number[];
}

export interface LetStatement extends Span {
  readonly kind: 'let';
  readonly name: Ident;
  readonly value: { readonly kind: 'tabular'; readonly pipeline: Pipeline } | { readonly kind: 'scalar'; readonly expr: Expr };
}
export interface QueryStatement extends Span {
  readonly kind: 'query';
  readonly pipeline: Pipeline;
}
export type Statement = LetStatement | QueryStatement;

export interface Script extends Span {
  readonly statements: Statement[];
}

export const OPERATOR_NAMES = [
  'where',
  'project',
  'extend',
  'summarize',
  'sort',
  'limit',
  'search',
  'join',
  'visualize',
] as const;
export const JOIN_KINDS: readonly JoinKind[] = ['inner', 'leftouter', 'rightouter', 'fullouter', 'cross'];
export const CHART_KINDS = ['bar', 'line', 'pie', 'table'] as const;
export const VISUALIZE_ANNOTATIONS = ['xcolumn', 'series'] as const;
