// Where a problem's path (`fields[2].timeFormats`) sits in the YAML text: the line and columns of the
// deepest node of the path that exists, so an editor can put its marker there.
import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml';

export interface TextRange {
  readonly startLine: number;
  readonly startColumn: number;
  readonly endLine: number;
  readonly endColumn: number;
}

function segments(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const part of path.match(/[^.[\]]+|\[\d+\]/g) ?? []) out.push(part.startsWith('[') ? Number(part.slice(1, -1)) : part);
  return out;
}

/** The text range of the deepest existing node along `path` (the first line when nothing matches). */
export function locate(text: string, path: string): TextRange {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, keepSourceTokens: false });
  const fallback = { startLine: 1, startColumn: 1, endLine: 1, endColumn: (text.split('\n')[0]?.length ?? 0) + 1 };
  let node: unknown = doc.contents;
  let range: [number, number] | undefined;
  for (const key of segments(path)) {
    if (isMap(node)) {
      const pair = node.items.find((p) => (p.key as { value?: unknown } | null)?.value === key);
      if (!pair) break;
      const keyNode = pair.key as Node;
      range = keyNode.range ? [keyNode.range[0], keyNode.range[1]] : range;
      node = pair.value;
      const valueNode = pair.value as Node | null;
      if (valueNode?.range && !isMap(valueNode) && !isSeq(valueNode))
        range = [keyNode.range?.[0] ?? valueNode.range[0], valueNode.range[1]];
    } else if (isSeq(node) && typeof key === 'number') {
      const item = node.items[key] as Node | undefined;
      if (!item) break;
      if (item.range) range = [item.range[0], item.range[0] + 1];
      node = item;
    } else break;
  }
  if (!range) return fallback;
  const start = lines.linePos(range[0]);
  const end = lines.linePos(Math.max(range[0], range[1]));
  if (end.line !== start.line) return { startLine: start.line, startColumn: start.col, endLine: start.line, endColumn: 1000 };
  return { startLine: start.line, startColumn: start.col, endLine: end.line, endColumn: Math.max(end.col, start.col + 1) };
}
