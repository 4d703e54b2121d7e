// Diagnostics for the editor: each problem with its range and, where obvious, a quick fix.
import type { Catalog } from '../catalog';
import type { Severity } from '../diagnostic';
import { LineIndex, type Range } from '../position';
import { analysisOf } from './analysis-cache';

export interface EditorDiagnostic {
  readonly range: Range;
  readonly severity: Severity;
  readonly message: string;
  readonly fix?: { readonly title: string; readonly range: Range; readonly newText: string };
}

export function diagnostics(text: string, catalog: Catalog): EditorDiagnostic[] {
  const a = analysisOf(text, catalog);
  const lines = new LineIndex(text);
  return a.diagnostics.map((d) => {
    const range = lines.range(d.end > d.start ? d : { start: d.start, end: Math.min(text.length, d.start + 1) });
    return {
      range,
      severity: d.severity,
      message: d.message,
      ...(d.suggestion !== undefined
        ? { fix: { title: `Change to ${d.suggestion}`, range: lines.range(d), newText: d.suggestion } }
        : {}),
    };
  });
}
