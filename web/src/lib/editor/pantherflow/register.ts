// The PantherFlow language in Monaco: every provider asks the worker and maps its answer; diagnostics
// become markers shortly after each change, an answer about text that has since changed being dropped.
import type * as Monaco from 'monaco-editor/editor/editor.api';
import type { PantherFlowClient } from './client';
import {
  SEMANTIC_TOKENS_LEGEND,
  toCompletionItem,
  toFormattingEdits,
  toHover,
  toInlayHint,
  toMarker,
  toOffsets,
  toSignatureHelp,
} from './mapping';

export const PANTHERFLOW_LANGUAGE = 'pantherflow';
const MARKER_OWNER = 'pantherflow';
/** Diagnostics wait for a pause in typing this long. */
const DIAGNOSTICS_DELAY_MS = 250;

/** What an editor of PantherFlow turns on: colours come from semantic tokens (there is no Monarch grammar). */
export const PANTHERFLOW_EDITOR_OPTIONS: Monaco.editor.IStandaloneEditorConstructionOptions = {
  'semanticHighlighting.enabled': true,
  inlayHints: { enabled: 'on' },
};

type MonacoApi = typeof Monaco;

/** Registers the language and its providers once; the returned disposable removes them. */
export function registerPantherFlow(monaco: MonacoApi, client: PantherFlowClient): Monaco.IDisposable {
  const { languages } = monaco;
  languages.register({ id: PANTHERFLOW_LANGUAGE, extensions: ['.pf'], aliases: ['PantherFlow'] });
  const at = (model: Monaco.editor.ITextModel, position: Monaco.IPosition) => ({
    text: model.getValue(),
    offset: model.getOffsetAt(position),
  });
  const registrations = [
    languages.registerDocumentSemanticTokensProvider(PANTHERFLOW_LANGUAGE, {
      getLegend: () => SEMANTIC_TOKENS_LEGEND,
      provideDocumentSemanticTokens: async (model) => ({ data: await client.request('tokens', { text: model.getValue() }) }),
      releaseDocumentSemanticTokens: () => undefined,
    }),
    languages.registerCompletionItemProvider(PANTHERFLOW_LANGUAGE, {
      triggerCharacters: ['.', '|', ' ', '('],
      provideCompletionItems: async (model, position) => ({
        suggestions: (await client.request('complete', at(model, position))).items.map(toCompletionItem),
      }),
    }),
    languages.registerHoverProvider(PANTHERFLOW_LANGUAGE, {
      provideHover: async (model, position) => {
        const found = await client.request('hover', at(model, position));
        return found ? toHover(found) : null;
      },
    }),
    languages.registerSignatureHelpProvider(PANTHERFLOW_LANGUAGE, {
      signatureHelpTriggerCharacters: ['(', ','],
      signatureHelpRetriggerCharacters: [')'],
      provideSignatureHelp: async (model, position) => {
        const help = await client.request('signatureHelp', at(model, position));
        return help ? { value: toSignatureHelp(help), dispose: () => undefined } : null;
      },
    }),
    languages.registerInlayHintsProvider(PANTHERFLOW_LANGUAGE, {
      provideInlayHints: async (model, range) => {
        const range0 = toOffsets(range, (position) => model.getOffsetAt(position));
        const hints = await client.request('inlayHints', { text: model.getValue(), range: range0 });
        return { hints: hints.map(toInlayHint), dispose: () => undefined };
      },
    }),
    languages.registerDocumentFormattingEditProvider(PANTHERFLOW_LANGUAGE, {
      provideDocumentFormattingEdits: async (model) =>
        toFormattingEdits(await client.request('format', { text: model.getValue() }), model.getFullModelRange()),
    }),
  ];
  return { dispose: () => registrations.forEach((registration) => registration.dispose()) };
}

/** Keeps a model's markers in step with its text; the returned disposable stops watching and clears them. */
export function watchDiagnostics(
  monaco: MonacoApi,
  model: Monaco.editor.ITextModel,
  client: PantherFlowClient,
): Monaco.IDisposable {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = async () => {
    const version = model.getVersionId();
    const found = await client.request('diagnostics', { text: model.getValue() });
    if (!model.isDisposed() && model.getVersionId() === version)
      monaco.editor.setModelMarkers(model, MARKER_OWNER, found.map(toMarker));
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void check().catch(() => undefined), DIAGNOSTICS_DELAY_MS);
  };
  const changes = model.onDidChangeContent(schedule);
  schedule();
  return {
    dispose: () => {
      clearTimeout(timer);
      changes.dispose();
      if (!model.isDisposed()) monaco.editor.setModelMarkers(model, MARKER_OWNER, []);
    },
  };
}
