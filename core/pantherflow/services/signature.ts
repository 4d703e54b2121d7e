// Signature help: the function call around the cursor and the argument being typed, found from tokens so it
// works while the call is still unclosed.
import type { Catalog } from '../catalog';
import { FUNCTIONS, paramAt, signatureLabel } from '../functions';
import { analysisOf } from './analysis-cache';

export interface ParameterInformation {
  /** [start, end) of the parameter inside the signature label. */
  readonly label: [number, number];
  readonly documentation: string;
}

export interface SignatureHelp {
  readonly signatures: { readonly label: string; readonly documentation: string; readonly parameters: ParameterInformation[] }[];
  readonly activeSignature: number;
  readonly activeParameter: number;
}

export function signatureHelp(text: string, offset: number, catalog: Catalog): SignatureHelp | null {
  const tokens = analysisOf(text, catalog).tokens.filter((t) => t.kind !== 'comment' && t.end <= offset);
  let depth = 0;
  let commas = 0;
  for (let j = tokens.length - 1; j >= 0; j--) {
    const t = tokens[j];
    if (t.kind !== 'punct') continue;
    if (t.text === ')' || t.text === ']' || t.text === '}') depth++;
    else if (t.text === '[' || t.text === '{') {
      if (depth === 0) return null;
      depth--;
    } else if (t.text === '(') {
      if (depth > 0) {
        depth--;
        continue;
      }
      const name: string[] = [];
      let k = j - 1;
      while (k >= 0 && tokens[k].kind === 'ident' && tokens[k].end === (k + 1 < tokens.length ? tokens[k + 1].start : t.start)) {
        name.unshift(tokens[k].text);
        if (k >= 1 && tokens[k - 1].text === '.' && tokens[k - 1].end === tokens[k].start) k -= 2;
        else break;
      }
      const f = FUNCTIONS.get(name.join('.'));
      if (!f) return null;
      const label = signatureLabel(f);
      const parameters: ParameterInformation[] = [];
      let from = f.name.length + 1;
      for (const p of f.params) {
        const text = `${p.name}${p.optional ? '?' : ''}: ${p.kind}${p.variadic ? ', ...' : ''}`;
        const start = label.indexOf(text, from);
        parameters.push({ label: [start, start + text.length], documentation: p.doc });
        from = start + text.length;
      }
      const active = paramAt(f, commas);
      return {
        signatures: [{ label, documentation: f.doc, parameters }],
        activeSignature: 0,
        activeParameter: active ? f.params.indexOf(active) : f.params.length,
      };
    } else if (t.text === ',' && depth === 0) commas++;
    else if ((t.text === '|' || t.text === ';') && depth === 0) return null;
  }
  return null;
}
