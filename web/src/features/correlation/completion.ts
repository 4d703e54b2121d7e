// Completion in the correlation editor's YAML: after `RuleID:` the ids of the rules, scheduled rules and
// correlation rules that exist; elsewhere the body's keys. Registered while the editor is mounted.
import { BODY_KEYS } from '../../../../core/detections/correlation-chart';
import { monaco } from '../../lib/editor/monaco';

const KEYS = [...new Set([...BODY_KEYS.top, ...BODY_KEYS.step, ...BODY_KEYS.transition, ...BODY_KEYS.schedule])];

/** Registers the provider; returns its disposer. `ruleIds` is read on each request (it may load later). */
export function registerCorrelationCompletion(ruleIds: () => readonly string[]): () => void {
  const provider = monaco.languages.registerCompletionItemProvider('yaml', {
    triggerCharacters: [' ', ':'],
    provideCompletionItems(model, position) {
      const line = model.getLineContent(position.lineNumber).slice(0, position.column - 1);
      const word = model.getWordUntilPosition(position);
      const range = {
        startLineNumber: position.lineNumber,
        endLineNumber: position.lineNumber,
        startColumn: word.startColumn,
        endColumn: word.endColumn,
      };
      if (/RuleID:\s*\S*$/.test(line))
        return {
          suggestions: ruleIds().map((id) => ({
            label: id,
            kind: monaco.languages.CompletionItemKind.Value,
            insertText: id,
            range,
          })),
        };
      if (/^\s*(-\s*)?[A-Za-z]*$/.test(line))
        return {
          suggestions: KEYS.map((key) => ({
            label: key,
            kind: monaco.languages.CompletionItemKind.Property,
            insertText: `${key}: `,
            range,
          })),
        };
      return { suggestions: [] };
    },
  });
  return () => provider.dispose();
}
