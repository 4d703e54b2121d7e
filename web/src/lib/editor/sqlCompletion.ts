// Completion for the Native SQL editor from the lake catalog: databases, then `db.` → its tables, then
// `db.table.` or a table named in the query → its columns; keywords and Athena functions beside them.
import type { IDisposable, Position, editor, languages } from 'monaco-editor/editor/editor.api';
import { monaco } from './monaco';
import { sqlSuggestions, type SqlCatalogDatabase } from './sqlSuggestions';

export type { SqlCatalogDatabase } from './sqlSuggestions';

let current: readonly SqlCatalogDatabase[] = [];
let registered: IDisposable | undefined;

/** Registers the SQL completion once; later calls only change the catalog it completes from. */
export function useSqlCatalog(catalog: readonly SqlCatalogDatabase[]): void {
  current = catalog;
  if (registered) return;
  registered = monaco.languages.registerCompletionItemProvider('sql', {
    triggerCharacters: ['.', ' '],
    provideCompletionItems: (model: editor.ITextModel, position: Position): languages.CompletionList => {
      const before = model.getValueInRange({
        startLineNumber: 1,
        startColumn: 1,
        endLineNumber: position.lineNumber,
        endColumn: position.column,
      });
      const word = model.getWordUntilPosition(position);
      const range = {
        startLineNumber: position.lineNumber,
        endLineNumber: position.lineNumber,
        startColumn: word.startColumn,
        endColumn: word.endColumn,
      };
      const kinds = monaco.languages.CompletionItemKind;
      return {
        suggestions: sqlSuggestions(before, model.getValue(), current).map((s, i) => ({
          label: s.label,
          kind:
            s.kind === 'database'
              ? kinds.Module
              : s.kind === 'table'
                ? kinds.Class
                : s.kind === 'column'
                  ? kinds.Field
                  : kinds.Keyword,
          detail: s.detail,
          insertText: s.label,
          sortText: `${s.kind === 'keyword' ? 'z' : 'a'}${String(i).padStart(4, '0')}`,
          range,
        })),
      };
    },
  });
}
