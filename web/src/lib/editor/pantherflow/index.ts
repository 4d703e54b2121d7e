// The PantherFlow editor support, started once per app: the worker, the language and its providers, and
// the editor contributions that show what they provide (the bundled Monaco API carries none of them).
import 'monaco-editor/editor/contrib/semanticTokens/browser/documentSemanticTokens';
import 'monaco-editor/editor/contrib/suggest/browser/suggestController';
import 'monaco-editor/features/codicon/register';
import 'monaco-editor/features/format/register';
import 'monaco-editor/features/hover/register';
import 'monaco-editor/features/inlayHints/register';
import 'monaco-editor/features/parameterHints/register';
import type { IDisposable, editor } from 'monaco-editor/editor/editor.api';
import type { TableInfo } from '../../../../../core/pantherflow/catalog';
import { monaco } from '../monaco';
import { createPantherFlowClient } from './client';
import PantherFlowWorker from './pantherflow.worker?worker';
import { registerPantherFlow, watchDiagnostics } from './register';

export { PANTHERFLOW_EDITOR_OPTIONS, PANTHERFLOW_LANGUAGE } from './register';

export interface PantherFlowLanguage {
  /** The tables the editor completes, checks and documents. */
  setCatalog(tables: readonly TableInfo[]): Promise<void>;
  /** Keeps a PantherFlow model's diagnostics as markers until disposed. */
  watch(model: editor.ITextModel): IDisposable;
}

let started: PantherFlowLanguage | undefined;

/** The PantherFlow language in the app's Monaco, started on first use. */
export function pantherFlowLanguage(): PantherFlowLanguage {
  if (!started) {
    const client = createPantherFlowClient(new PantherFlowWorker());
    registerPantherFlow(monaco, client);
    started = {
      setCatalog: async (tables) => void (await client.request('catalog', { tables })),
      watch: (model) => watchDiagnostics(monaco, model, client),
    };
  }
  return started;
}
