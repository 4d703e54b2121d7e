// Query info for the search page: the result's columns, the tables read, the chart, and rewriting the chart
// (the page's chart controls edit the query's `visualize` operator through setVisualization).
import { qualifiedName, type Catalog } from '../catalog';
import { quoteName } from '../lexer';
import type { Column, Visualization } from '../checker';
import { CHART_KINDS } from '../ast';
import { typeToString } from '../types';
import { visitScript } from '../visit';
import { analysisOf } from './analysis-cache';

export interface QueryInfo {
  readonly valid: boolean;
  readonly columns: readonly { readonly name: string; readonly type: string }[];
  readonly tables: readonly string[];
  readonly visualization?: Visualization;
}

export function queryInfo(text: string, catalog: Catalog): QueryInfo {
  const a = analysisOf(text, catalog);
  const tables = new Set<string>();
  visitScript(a.script, {
    source(s) {
      const b = s.kind === 'table' ? a.sources.get(s) : undefined;
      if (b?.kind === 'table') tables.add(qualifiedName(b.table));
    },
  });
  const columns: readonly Column[] = a.query ? (a.outputs.get(a.query) ?? []) : [];
  return {
    valid: !a.diagnostics.some((d) => d.severity === 'error'),
    columns: columns.map((c) => ({ name: c.name, type: typeToString(c.type) })),
    tables: [...tables],
    ...(a.visualization ? { visualization: a.visualization } : {}),
  };
}

/** The query with its final `visualize` replaced by `vis` (or removed when null). */
export function setVisualization(text: string, catalog: Catalog, vis: Visualization | null): string {
  if (vis && !(CHART_KINDS as readonly string[]).includes(vis.chart)) throw new Error(`unknown chart kind '${vis.chart}'`);
  const a = analysisOf(text, catalog);
  const q = a.query;
  const last = q?.operators[q.operators.length - 1];
  const clause = vis
    ? `| visualize ${vis.chart}${vis.xcolumn ? ` xcolumn=${quoteName(vis.xcolumn)}` : ''}${vis.series ? ` series=${quoteName(vis.series)}` : ''}`
    : '';
  if (q && last?.kind === 'visualize') {
    const pipe = q.pipes[q.pipes.length - 1];
    const head = text.slice(0, pipe).replace(/\s+$/, '');
    return (vis ? `${head}\n${clause}` : head) + text.slice(last.end);
  }
  if (!vis || !q) return text;
  return `${text.slice(0, q.end).replace(/\s+$/, '')}\n${clause}${text.slice(q.end)}`;
}
