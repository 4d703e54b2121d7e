import { Anchor, Code, List, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

// A small, safe markdown renderer for comments: paragraphs, headings (#), bullet and numbered lists, fenced
// code blocks, inline code, **bold**, *italic* and [links](https://...) — every piece of text becomes a React
// text node (never HTML), and a link is a link only when its target is an http(s) URL.

/** Whether `text` is an absolute http(s) URL (anything else, javascript: included, is shown as text). */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const INLINE = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*)|(\[[^\]]+\]\([^)\s]+\))/g;

/** One line's inline markup as React nodes. */
export function renderInline(text: string, keyPrefix = 'i'): ReactNode[] {
  const nodes: ReactNode[] = [];
  let last = 0;
  let n = 0;
  for (const match of text.matchAll(INLINE)) {
    const at = match.index ?? 0;
    if (at > last) nodes.push(text.slice(last, at));
    const token = match[0];
    const key = `${keyPrefix}-${n++}`;
    if (match[1]) nodes.push(<Code key={key}>{token.slice(1, -1)}</Code>);
    else if (match[2]) nodes.push(<strong key={key}>{renderInline(token.slice(2, -2), key)}</strong>);
    else if (match[3]) nodes.push(<em key={key}>{renderInline(token.slice(1, -1), key)}</em>);
    else {
      const close = token.indexOf('](');
      const label = token.slice(1, close);
      const href = token.slice(close + 2, -1);
      nodes.push(
        isHttpUrl(href) ? (
          <Anchor key={key} href={href} target="_blank" rel="noopener noreferrer nofollow" size="sm">
            {label}
          </Anchor>
        ) : (
          token
        ),
      );
    }
    last = at + token.length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}

type Block =
  | { kind: 'p'; lines: string[] }
  | { kind: 'h'; level: number; text: string }
  | { kind: 'ul' | 'ol'; items: string[] }
  | { kind: 'code'; text: string };

export function parseBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('```')) {
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i].startsWith('```'); i++) body.push(lines[i]);
      blocks.push({ kind: 'code', text: body.join('\n') });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      blocks.push({ kind: 'h', level: heading[1].length, text: heading[2] });
      continue;
    }
    const bullet = /^\s*[-*+]\s+(.*)$/.exec(line);
    const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    const item = bullet ?? numbered;
    if (item) {
      const kind = bullet ? 'ul' : 'ol';
      const previous = blocks[blocks.length - 1];
      if (previous?.kind === kind) previous.items.push(item[1]);
      else blocks.push({ kind, items: [item[1]] });
      continue;
    }
    if (!line.trim()) {
      blocks.push({ kind: 'p', lines: [] });
      continue;
    }
    const previous = blocks[blocks.length - 1];
    if (previous?.kind === 'p' && previous.lines.length) previous.lines.push(line);
    else blocks.push({ kind: 'p', lines: [line] });
  }
  return blocks.filter((b) => b.kind !== 'p' || b.lines.length);
}

/** Markdown text rendered as React elements (no HTML is ever interpreted). */
export function Markdown({ text }: { readonly text: string }) {
  return (
    <div style={{ overflowWrap: 'anywhere' }}>
      {parseBlocks(text).map((block, b) => {
        const key = `b${b}`;
        switch (block.kind) {
          case 'code':
            return (
              <Code key={key} block my={4}>
                {block.text}
              </Code>
            );
          case 'h':
            return (
              <Title key={key} order={Math.min(6, block.level + 2) as 3 | 4 | 5 | 6} my={4}>
                {renderInline(block.text, key)}
              </Title>
            );
          case 'ul':
          case 'ol':
            return (
              <List key={key} type={block.kind === 'ol' ? 'ordered' : 'unordered'} size="sm" my={4}>
                {block.items.map((item, i) => (
                  <List.Item key={`${key}-${i}`}>{renderInline(item, `${key}-${i}`)}</List.Item>
                ))}
              </List>
            );
          default:
            return (
              <Text key={key} size="sm" my={4}>
                {block.lines.flatMap((line, i) => [
                  ...(i ? [<br key={`${key}-br${i}`} />] : []),
                  ...renderInline(line, `${key}-${i}`),
                ])}
              </Text>
            );
        }
      })}
    </div>
  );
}
