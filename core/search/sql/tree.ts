// The parse tree of a user's query (parse.ts reads it, guard.ts checks it, print.ts writes it back as the SQL
// that runs). It holds the read-only part of the Athena (Trino) query language and nothing else: what it
// cannot express cannot run.

export interface Query {
  readonly kind: 'query';
  readonly ctes: readonly Cte[];
  readonly body: QueryBody;
  readonly orderBy: readonly OrderItem[];
  readonly offset?: string;
  /** A row count (digits), or 'ALL'. */
  readonly limit?: string;
}

export interface Cte {
  readonly name: string;
  readonly columns?: readonly string[];
  readonly query: Query;
}

export type QueryBody =
  | Select
  | { readonly kind: 'values'; readonly rows: readonly Expr[] }
  | { readonly kind: 'nested'; readonly query: Query }
  | {
      readonly kind: 'setop';
      readonly op: 'UNION' | 'INTERSECT' | 'EXCEPT';
      readonly quantifier?: 'ALL' | 'DISTINCT';
      readonly left: QueryBody;
      readonly right: QueryBody;
    };

export interface Select {
  readonly kind: 'select';
  readonly quantifier?: 'ALL' | 'DISTINCT';
  readonly items: readonly SelectItem[];
  readonly from: readonly Relation[];
  readonly where?: Expr;
  readonly groupBy?: { readonly quantifier?: 'ALL' | 'DISTINCT'; readonly elements: readonly GroupingElement[] };
  readonly having?: Expr;
  readonly windows: readonly { readonly name: string; readonly spec: WindowSpec }[];
}

export type SelectItem =
  | { readonly kind: 'all'; readonly qualifier?: readonly string[] }
  | { readonly kind: 'expr'; readonly expr: Expr; readonly alias?: string };

export type GroupingElement =
  | { readonly kind: 'expr'; readonly expr: Expr }
  | { readonly kind: 'rollup' | 'cube'; readonly exprs: readonly Expr[] }
  | { readonly kind: 'sets'; readonly sets: readonly (readonly Expr[])[] };

export interface Alias {
  readonly name: string;
  readonly columns?: readonly string[];
}

export type Relation =
  | { readonly kind: 'table'; readonly name: readonly string[]; readonly alias?: Alias }
  | { readonly kind: 'subquery'; readonly lateral: boolean; readonly query: Query; readonly alias?: Alias }
  | { readonly kind: 'unnest'; readonly args: readonly Expr[]; readonly ordinality: boolean; readonly alias?: Alias }
  | { readonly kind: 'parenthesized'; readonly relation: Relation; readonly alias?: Alias }
  | {
      readonly kind: 'join';
      readonly type: 'CROSS' | 'INNER' | 'LEFT' | 'RIGHT' | 'FULL';
      readonly natural: boolean;
      readonly left: Relation;
      readonly right: Relation;
      readonly on?: Expr;
      readonly using?: readonly string[];
    };

export interface OrderItem {
  readonly expr: Expr;
  readonly direction?: 'ASC' | 'DESC';
  readonly nulls?: 'FIRST' | 'LAST';
}

export interface WindowSpec {
  /** A named window this one extends (WINDOW w AS (...) then OVER (w ORDER BY ...)). */
  readonly base?: string;
  readonly partitionBy: readonly Expr[];
  readonly orderBy: readonly OrderItem[];
  readonly frame?: {
    readonly unit: 'ROWS' | 'RANGE' | 'GROUPS';
    readonly start: FrameBound;
    readonly end?: FrameBound;
  };
}

export type FrameBound =
  | { readonly kind: 'UNBOUNDED PRECEDING' | 'UNBOUNDED FOLLOWING' | 'CURRENT ROW' }
  | { readonly kind: 'PRECEDING' | 'FOLLOWING'; readonly offset: Expr };

/** A type as CAST and typed literals name it: a base name (words, lower case) and its parameters. */
export interface SqlType {
  readonly name: string;
  readonly params: readonly (SqlType | { readonly number: string } | { readonly field: string; readonly type: SqlType })[];
}

export type Expr =
  | { readonly kind: 'number'; readonly text: string }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'boolean'; readonly value: boolean }
  | { readonly kind: 'null' }
  | { readonly kind: 'typed'; readonly type: 'DATE' | 'TIME' | 'TIMESTAMP'; readonly value: string }
  | {
      readonly kind: 'interval';
      readonly negative: boolean;
      readonly value: string;
      readonly from: string;
      readonly to?: string;
    }
  | { readonly kind: 'niladic'; readonly name: string }
  /** A column, or a column's field, named by one or more parts (a.b.c). */
  | { readonly kind: 'name'; readonly parts: readonly string[] }
  | { readonly kind: 'field'; readonly base: Expr; readonly field: string }
  | { readonly kind: 'subscript'; readonly base: Expr; readonly index: Expr }
  | {
      readonly kind: 'call';
      readonly name: string;
      readonly args: readonly Expr[];
      readonly star: boolean;
      readonly distinct: boolean;
      readonly orderBy: readonly OrderItem[];
      readonly filter?: Expr;
      readonly over?: WindowSpec | string;
    }
  | { readonly kind: 'cast'; readonly try: boolean; readonly expr: Expr; readonly type: SqlType }
  | { readonly kind: 'extract'; readonly field: string; readonly expr: Expr }
  | {
      readonly kind: 'case';
      readonly operand?: Expr;
      readonly whens: readonly { readonly when: Expr; readonly then: Expr }[];
      readonly else?: Expr;
    }
  | { readonly kind: 'unary'; readonly op: 'NOT' | '-' | '+'; readonly expr: Expr }
  | { readonly kind: 'binary'; readonly op: string; readonly left: Expr; readonly right: Expr }
  | { readonly kind: 'between'; readonly not: boolean; readonly expr: Expr; readonly low: Expr; readonly high: Expr }
  | { readonly kind: 'in'; readonly not: boolean; readonly expr: Expr; readonly list: readonly Expr[] }
  | { readonly kind: 'inQuery'; readonly not: boolean; readonly expr: Expr; readonly query: Query }
  | { readonly kind: 'like'; readonly not: boolean; readonly expr: Expr; readonly pattern: Expr; readonly escape?: Expr }
  | { readonly kind: 'isNull'; readonly not: boolean; readonly expr: Expr }
  | { readonly kind: 'isDistinct'; readonly not: boolean; readonly left: Expr; readonly right: Expr }
  | {
      readonly kind: 'quantified';
      readonly op: string;
      readonly quantifier: 'ALL' | 'ANY' | 'SOME';
      readonly left: Expr;
      readonly query: Query;
    }
  | { readonly kind: 'exists'; readonly query: Query }
  | { readonly kind: 'subquery'; readonly query: Query }
  | { readonly kind: 'row'; readonly items: readonly Expr[]; readonly explicit: boolean }
  | { readonly kind: 'array'; readonly items: readonly Expr[] }
  | { readonly kind: 'lambda'; readonly params: readonly string[]; readonly body: Expr }
  | { readonly kind: 'atTimeZone'; readonly expr: Expr; readonly zone: Expr };
