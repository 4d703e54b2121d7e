// Inlay hints: parameter names before the arguments of calls with more than one parameter.
import type { Catalog } from '../catalog';
import { paramAt } from '../functions';
import { LineIndex, type Position } from '../position';
import { analysisOf } from './analysis-cache';

export interface InlayHint {
  readonly position: Position;
  readonly label: string;
  readonly kind: 'parameter';
}

export function inlayHints(text: string, catalog: Catalog, range?: { start: number; end: number }): InlayHint[] {
  const a = analysisOf(text, catalog);
  const lines = new LineIndex(text);
  const hints: InlayHint[] = [];
  for (const [call, f] of a.calls) {
    if (f.params.length < 2) continue;
    call.args.forEach((arg, i) => {
      const p = paramAt(f, i);
      if (!p || arg.kind === 'missing') return;
      if (arg.kind === 'name' && arg.name === p.name) return;
      if (range && (arg.start < range.start || arg.start > range.end)) return;
      hints.push({ position: lines.position(arg.start), label: `${p.name}:`, kind: 'parameter' });
    });
  }
  return hints.sort((x, y) => x.position.offset - y.position.offset);
}
