// The services run on every keystroke; they share the analysis of the latest (text, catalog).
import type { Catalog } from '../catalog';
import { analyze, type Analysis } from '../checker';

let last: { text: string; catalog: Catalog; analysis: Analysis } | undefined;

export function analysisOf(text: string, catalog: Catalog): Analysis {
  if (last && last.text === text && last.catalog === catalog) return last.analysis;
  const analysis = analyze(text, catalog);
  last = { text, catalog, analysis };
  return analysis;
}
