// Python and SQL for the bundled Monaco, with the detection completions of pythonCompletions: registered once,
// reading the global helpers' names from `setPythonHelpers` (the editor page sets them as they load).
import 'monaco-editor/languages/definitions/python/register';
import 'monaco-editor/languages/definitions/sql/register';
import { monaco } from './monaco';
import { pythonCompletions } from './pythonCompletions';

let helpers: readonly string[] = [];
let registered = false;

/** The global helpers' names the completions offer. */
export function setPythonHelpers(names: readonly string[]): void {
  helpers = names;
}

/** Registers the detection completions for Python (idempotent). */
export function registerPythonCompletions(): void {
  if (registered) return;
  registered = true;
  monaco.languages.registerCompletionItemProvider('python', {
    triggerCharacters: ['.', ' '],
    provideCompletionItems(model, position) {
      const linePrefix = model.getLineContent(position.lineNumber).slice(0, position.column - 1);
      const word = model.getWordUntilPosition(position);
      const range = {
        startLineNumber: position.lineNumber,
        endLineNumber: position.lineNumber,
        startColumn: word.startColumn,
        endColumn: word.endColumn,
      };
      const kinds = {
        method: monaco.languages.CompletionItemKind.Method,
        module: monaco.languages.CompletionItemKind.Module,
        function: monaco.languages.CompletionItemKind.Function,
      };
      return {
        suggestions: pythonCompletions(linePrefix, model.getValue(), helpers).map((c) => ({
          label: c.label,
          kind: kinds[c.kind],
          insertText: c.insertText,
          insertTextRules: monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet,
          detail: c.detail,
          documentation: c.documentation,
          range,
        })),
      };
    },
  });
}

export { monaco };
