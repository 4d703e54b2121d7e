// The PantherFlow grammar, construct by construct: every `query ==> tree` case of grammar/*.txt (see grammar.ts
// for the format; UPDATE_GOLDEN=1 rewrites the expected trees), and a check that the cases cover every construct.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as A from '../../../core/pantherflow/ast';
import { updating } from './golden';
import { GRAMMAR_DIR, grammarFiles, normalize, printParse, readGrammarFile, writeGrammarFile, type GrammarCase } from './grammar';

const files = grammarFiles().map(readGrammarFile);
const printed = new Map<GrammarCase, string>();

afterAll(() => {
  if (!updating) return;
  for (const file of files)
    writeFileSync(
      join(GRAMMAR_DIR, file.file),
      writeGrammarFile({ ...file, cases: file.cases.map((c) => ({ ...c, expected: printed.get(c) ?? c.expected })) }),
    );
});

for (const file of files) {
  describe(file.file, () => {
    for (const c of file.cases) {
      it(c.name, () => {
        const actual = printParse(c.query);
        printed.set(c, actual);
        // Whitespace aside; a mismatch is shown as the two printed trees.
        if (!updating && normalize(actual) !== normalize(c.expected)) expect(actual).toBe(c.expected);
      });
    }
  });
}

// Every kind, operator and variant of the syntax tree. The records list each union's members, so TypeScript
// refuses them when ast.ts gains one; the test then asks for a case that shows it.
const EXPR_KINDS: Record<A.Expr['kind'], true> = {
  literal: true,
  name: true,
  member: true,
  index: true,
  call: true,
  unary: true,
  binary: true,
  in: true,
  between: true,
  array: true,
  object: true,
  lambda: true,
  missing: true,
};
const LITERAL_TYPES: Record<A.LiteralType, true> = {
  int: true,
  float: true,
  string: true,
  bool: true,
  null: true,
  timespan: true,
};
const BINARY_OPS: Record<A.BinaryOp, true> = {
  or: true,
  and: true,
  '==': true,
  '!=': true,
  '<': true,
  '<=': true,
  '>': true,
  '>=': true,
  '+': true,
  '-': true,
  '*': true,
  '/': true,
  '%': true,
};
const UNARY_OPS: Record<A.UnaryExpr['op'], true> = { '-': true, not: true };
const SOURCE_KINDS: Record<A.Source['kind'], true> = { table: true, union: true, datatable: true, range: true, subquery: true };
const OPERATOR_KINDS: Record<A.Operator['kind'], true> = {
  where: true,
  project: true,
  extend: true,
  summarize: true,
  sort: true,
  limit: true,
  search: true,
  join: true,
  visualize: true,
  unknown: true,
};
const STATEMENTS: Record<A.Statement['kind'] | `let:${A.LetStatement['value']['kind']}`, true> = {
  query: true,
  let: true,
  'let:tabular': true,
  'let:scalar': true,
};

const CONSTRUCTS = [
  ...Object.keys(STATEMENTS)
    .filter((k) => k !== 'let')
    .map((k) => `statement:${k}`),
  ...Object.keys(SOURCE_KINDS).map((k) => `source:${k}`),
  ...Object.keys(OPERATOR_KINDS).map((k) => `operator:${k}`),
  ...Object.keys(EXPR_KINDS).map((k) => `expr:${k}`),
  ...Object.keys(LITERAL_TYPES).map((k) => `literal:${k}`),
  ...Object.keys(BINARY_OPS).map((k) => `binary:${k}`),
  ...Object.keys(UNARY_OPS).map((k) => `unary:${k}`),
  ...['list', 'expression'].flatMap((form) => [`in:${form}:plain`, `in:${form}:negated`]),
  'between:plain',
  'between:negated',
  'assignment:named',
  'assignment:bare',
  'summarize:aggregations:by',
  'summarize:aggregations:no-by',
  'summarize:none:by',
  'sort:asc',
  'sort:desc',
  'sort:none',
  ...A.JOIN_KINDS.map((k) => `join:${k}`),
  'join:none',
  'join:on',
  ...A.CHART_KINDS.map((k) => `chart:${k}`),
  ...A.VISUALIZE_ANNOTATIONS.map((k) => `annotation:${k}`),
];

describe('the grammar fixtures', () => {
  it('cover every construct of the syntax tree', () => {
    const seen = new Set<string>();
    for (const file of files) for (const c of file.cases) printParse(c.query, seen);
    expect(CONSTRUCTS.filter((c) => !seen.has(c))).toEqual([]);
    expect(Object.keys(OPERATOR_KINDS).filter((k) => k !== 'unknown')).toEqual([...A.OPERATOR_NAMES]);
  });

  it('name each case once per file', () => {
    for (const file of files) {
      const names = file.cases.map((c) => c.name);
      expect(
        names.filter((n, i) => names.indexOf(n) !== i),
        file.file,
      ).toEqual([]);
    }
  });
});
