// Keeps a Monaco editor whose text also lives elsewhere (the search page's URL) in step without losing
// keystrokes: the text it reports comes back later as its `value`, possibly after more typing, so a value
// the editor itself emitted is never pushed back into it; any other value (a saved search opened, a filter
// appended) replaces the text.
import { useEffect, useRef } from 'react';
import type { editor } from 'monaco-editor/editor/editor.api';

export function useExternalValue(value: string) {
  const editorRef = useRef<editor.IStandaloneCodeEditor | null>(null);
  const emitted = useRef(new Set<string>());
  useEffect(() => {
    const ed = editorRef.current;
    if (!ed) return;
    if (emitted.current.has(value)) {
      if (ed.getValue() === value) emitted.current.clear();
      return;
    }
    if (ed.getValue() !== value) ed.setValue(value);
  }, [value]);
  return {
    editorRef,
    /** Records a text the editor reported, so its echo is not applied. */
    emit(text: string) {
      if (emitted.current.size > 500) emitted.current.clear();
      emitted.current.add(text);
    },
  };
}
