// The PantherFlow editor adapter: the language services' answers (0-based lines and characters) become
// Monaco's (1-based lines and columns) with the right kinds and severities, and the worker's protocol
// answers each request through the services over the catalog it was given. No Monaco and no worker here:
// the worker's service runs in the test, behind the same client the editor uses.
import type { MarkerSeverity, languages } from 'monaco-editor/editor/editor.api';
import { describe, expect, it } from 'vitest';
import type { TableInfo } from '../../core/pantherflow/catalog';
import { T } from '../../core/pantherflow/types';
import { createPantherFlowClient, type PantherFlowPort } from '../../web/src/lib/editor/pantherflow/client';
import {
  COMPLETION_KINDS,
  SEMANTIC_TOKENS_LEGEND,
  toCompletionItem,
  toFormattingEdits,
  toHover,
  toInlayHint,
  toMarker,
  toMonacoRange,
  toOffsets,
  toSignatureHelp,
} from '../../web/src/lib/editor/pantherflow/mapping';
import type { PantherFlowRequest, PantherFlowResponse } from '../../web/src/lib/editor/pantherflow/protocol';
import { createPantherFlowService } from '../../web/src/lib/editor/pantherflow/service';

const CLOUDTRAIL: TableInfo = {
  database: 'panther_logs',
  name: 'aws_cloudtrail',
  description: 'AWS API calls',
  columns: [
    { name: 'eventName', type: T.string, description: 'The API action' },
    { name: 'eventSource', type: T.string },
    { name: 'p_event_time', type: T.timestamp },
    { name: 'userIdentity', type: T.object([{ name: 'arn', type: T.string }]) },
  ],
};

/** The worker's service behind a port that answers as a worker would, a turn later. */
function inProcessPort(): PantherFlowPort & { readonly terminated: () => boolean } {
  const answer = createPantherFlowService();
  let terminated = false;
  const port: PantherFlowPort & { readonly terminated: () => boolean } = {
    onmessage: null,
    postMessage(request: PantherFlowRequest) {
      const response = answer(structuredClone(request));
      queueMicrotask(() => port.onmessage?.({ data: structuredClone(response) } as MessageEvent<PantherFlowResponse>));
    },
    terminate: () => void (terminated = true),
    terminated: () => terminated,
  };
  return port;
}

async function editorClient() {
  const client = createPantherFlowClient(inProcessPort());
  await client.request('catalog', { tables: [CLOUDTRAIL] });
  return client;
}

/** A query over two lines, the cursor written as `^`. */
function atCursor(query: string): { text: string; offset: number } {
  const offset = query.indexOf('^');
  return { text: query.slice(0, offset) + query.slice(offset + 1), offset };
}

describe('positions and ranges', () => {
  it('counts Monaco lines and columns from 1', () => {
    expect(toMonacoRange({ start: { offset: 0, line: 0, character: 0 }, end: { offset: 20, line: 2, character: 4 } })).toEqual({
      startLineNumber: 1,
      startColumn: 1,
      endLineNumber: 3,
      endColumn: 5,
    });
  });

  it('turns a Monaco range back into the offsets the services take', () => {
    const lines = ['panther_logs.public.aws_cloudtrail', '| where x'];
    const offsetAt = ({ lineNumber, column }: { lineNumber: number; column: number }) =>
      lines.slice(0, lineNumber - 1).reduce((sum, line) => sum + line.length + 1, 0) + column - 1;
    expect(toOffsets({ startLineNumber: 2, startColumn: 3, endLineNumber: 2, endColumn: 8 }, offsetAt)).toEqual({
      start: 37,
      end: 42,
    });
  });
});

describe('completion', () => {
  it('offers the columns of the table read, replacing the word typed, on the second line', async () => {
    const client = await editorClient();
    const { items } = await client.request('complete', atCursor('panther_logs.public.aws_cloudtrail\n| where event^'));
    const suggestion = items.map(toCompletionItem).find((i) => i.label === 'eventName');
    expect(suggestion).toMatchObject({
      kind: 3 satisfies languages.CompletionItemKind.Field,
      insertText: 'eventName',
      detail: 'string',
      documentation: { value: 'The API action' },
      range: { startLineNumber: 2, startColumn: 9, endLineNumber: 2, endColumn: 14 },
    });
  });

  it('shows each kind of candidate as Monaco shows its like', () => {
    expect(COMPLETION_KINDS).toEqual({
      operator: 11 satisfies languages.CompletionItemKind.Operator,
      keyword: 17 satisfies languages.CompletionItemKind.Keyword,
      table: 5 satisfies languages.CompletionItemKind.Class,
      variable: 4 satisfies languages.CompletionItemKind.Variable,
      column: 3 satisfies languages.CompletionItemKind.Field,
      field: 9 satisfies languages.CompletionItemKind.Property,
      function: 1 satisfies languages.CompletionItemKind.Function,
      namespace: 8 satisfies languages.CompletionItemKind.Module,
    });
  });

  it('offers tables as classes and operators after a pipe', async () => {
    const client = await editorClient();
    const tables = (await client.request('complete', atCursor('panther_^'))).items.map(toCompletionItem);
    expect(tables.find((i) => i.label === 'panther_logs.public.aws_cloudtrail')?.kind).toBe(COMPLETION_KINDS.table);
    const operators = (await client.request('complete', atCursor('panther_logs.public.aws_cloudtrail\n| ^'))).items;
    expect(operators.map(toCompletionItem).find((i) => i.label === 'where')?.kind).toBe(COMPLETION_KINDS.operator);
  });
});

describe('diagnostics', () => {
  it('marks an unknown column where it stands, as an error', async () => {
    const client = await editorClient();
    const found = await client.request('diagnostics', { text: 'panther_logs.public.aws_cloudtrail\n| where eventNme == "x"' });
    expect(found.map(toMarker)).toEqual([
      expect.objectContaining({
        startLineNumber: 2,
        startColumn: 9,
        endLineNumber: 2,
        endColumn: 17,
        severity: 8 satisfies MarkerSeverity.Error,
      }),
    ]);
    expect(found.map(toMarker)[0].message).toMatch(/eventNme/);
  });

  it('gives warnings their own severity', () => {
    const at = { offset: 0, line: 0, character: 0 };
    expect(toMarker({ range: { start: at, end: at }, severity: 'warning', message: 'careful' }).severity).toBe(
      4 satisfies MarkerSeverity.Warning,
    );
  });
});

describe('hover, signature help and inlay hints', () => {
  it('documents the column under the cursor over its own range', async () => {
    const client = await editorClient();
    const found = await client.request('hover', atCursor('panther_logs.public.aws_cloudtrail\n| where event^Name == "x"'));
    const hover = toHover(found!);
    expect(hover.range).toEqual({ startLineNumber: 2, startColumn: 9, endLineNumber: 2, endColumn: 18 });
    expect(hover.contents[0].value).toMatch(/eventName/);
  });

  it("keeps each parameter's place in the signature's label and the argument being typed", async () => {
    const client = await editorClient();
    const help = await client.request(
      'signatureHelp',
      atCursor('panther_logs.public.aws_cloudtrail\n| extend x = strings.replace(eventName, ^'),
    );
    const mapped = toSignatureHelp(help!);
    const signature = mapped.signatures[mapped.activeSignature];
    const [start, end] = signature.parameters[mapped.activeParameter].label as [number, number];
    expect(mapped.activeParameter).toBe(1);
    expect(signature.label.slice(start, end)).toMatch(/^\w+\??: /);
  });

  it('puts parameter names before arguments, at 1-based positions', async () => {
    const client = await editorClient();
    const text = 'panther_logs.public.aws_cloudtrail\n| extend x = strings.replace(eventName, "a", "b")';
    const hints = (await client.request('inlayHints', { text })).map(toInlayHint);
    expect(hints.length).toBeGreaterThan(1);
    expect(hints[0]).toMatchObject({
      position: { lineNumber: 2, column: text.split('\n')[1].indexOf('eventName') + 1 },
      kind: 2 satisfies languages.InlayHintKind.Parameter,
      paddingRight: true,
    });
    expect(hints[0].label).toMatch(/:$/);
  });
});

describe('semantic tokens', () => {
  it('encode lines and characters so that Monaco, counting lines from 1, finds each token', async () => {
    const client = await editorClient();
    const text = 'panther_logs.public.aws_cloudtrail\n| where eventName == "x"';
    const data = await client.request('tokens', { text });
    // Monaco's decoding: the first delta counts from line 1, characters from 0 on each new line.
    const decoded: string[] = [];
    let line = 1;
    let character = 0;
    for (let i = 0; i < data.length; i += 5) {
      line += data[i];
      character = data[i] === 0 ? character + data[i + 1] : data[i + 1];
      const word = text.split('\n')[line - 1].slice(character, character + data[i + 2]);
      decoded.push(`${line}:${character + 1} ${word} ${SEMANTIC_TOKENS_LEGEND.tokenTypes[data[i + 3]]}`);
    }
    expect(decoded).toContain('2:1 | operator');
    expect(decoded).toContain('2:3 where keyword');
    expect(decoded).toContain('2:9 eventName property');
    expect(decoded).toContain('2:22 "x" string');
    expect(decoded).toContain('1:21 aws_cloudtrail type');
  });
});

describe('formatting', () => {
  it('replaces the whole text when formatting changes it, and nothing otherwise', async () => {
    const client = await editorClient();
    const whole = { startLineNumber: 1, startColumn: 1, endLineNumber: 1, endColumn: 60 };
    const messy = await client.request('format', { text: 'panther_logs.public.aws_cloudtrail|where  eventName=="x"' });
    expect(toFormattingEdits(messy, whole)).toEqual([
      { range: whole, text: 'panther_logs.public.aws_cloudtrail\n| where eventName == "x"\n' },
    ]);
    const tidy = await client.request('format', { text: messy.text });
    expect(toFormattingEdits(tidy, whole)).toEqual([]);
  });
});

describe('the worker protocol', () => {
  it('checks against the catalog it was last given', async () => {
    const client = createPantherFlowClient(inProcessPort());
    const text = 'panther_logs.public.aws_cloudtrail\n| where eventName == "x"';
    expect((await client.request('diagnostics', { text })).length).toBeGreaterThan(0);
    await client.request('catalog', { tables: [CLOUDTRAIL] });
    expect(await client.request('diagnostics', { text })).toEqual([]);
  });

  it('refuses an unknown request, and requests still waiting once the worker stops', async () => {
    const port = inProcessPort();
    const client = createPantherFlowClient(port);
    await expect(client.request('explain' as 'format', { text: '' })).rejects.toThrow("Unknown PantherFlow request 'explain'");
    const waiting = client.request('format', { text: 'x' });
    client.dispose();
    await expect(waiting).rejects.toThrow('The PantherFlow worker has stopped.');
    expect(port.terminated()).toBe(true);
  });
});
