// Walks every pipeline, source, operator and expression of a script (the services search the tree by position).
import type * as A from './ast';
import { walk } from './checker';

export interface Visitor {
  pipeline?(p: A.Pipeline): void;
  source?(s: A.Source): void;
  operator?(op: A.Operator, p: A.Pipeline): void;
  expr?(e: A.Expr): void;
}

export function visitScript(script: A.Script, v: Visitor): void {
  for (const st of script.statements) {
    if (st.kind === 'let') {
      if (st.value.kind === 'tabular') visitPipeline(st.value.pipeline, v);
      else visitExpr(st.value.expr, v);
    } else visitPipeline(st.pipeline, v);
  }
}

function visitExpr(e: A.Expr, v: Visitor): void {
  if (v.expr) walk(e, v.expr);
}

function visitPipeline(p: A.Pipeline, v: Visitor): void {
  v.pipeline?.(p);
  visitSource(p.source, v);
  for (const op of p.operators) {
    v.operator?.(op, p);
    for (const e of operatorExprs(op)) visitExpr(e, v);
    if (op.kind === 'join' && op.dest) visitPipeline(op.dest, v);
  }
}

function visitSource(s: A.Source, v: Visitor): void {
  v.source?.(s);
  if (s.kind === 'union') s.sources.forEach((x) => visitSource(x, v));
  if (s.kind === 'subquery') visitPipeline(s.pipeline, v);
  if (s.kind === 'datatable') s.rows.forEach((r) => visitExpr(r, v));
  if (s.kind === 'range') [s.from, s.to, s.step].forEach((x) => visitExpr(x, v));
}

export function operatorExprs(op: A.Operator): A.Expr[] {
  switch (op.kind) {
    case 'where':
      return [op.predicate];
    case 'project':
    case 'extend':
      return op.items.map((i) => i.expr);
    case 'summarize':
      return [...op.aggregations, ...op.by].map((i) => i.expr);
    case 'sort':
      return op.keys.map((k) => k.expr);
    case 'limit':
      return [op.count];
    case 'search':
      return [op.text];
    case 'join':
      return op.on;
    case 'visualize':
      return op.annotations.map((a) => a.value);
    case 'unknown':
      return [];
  }
}
