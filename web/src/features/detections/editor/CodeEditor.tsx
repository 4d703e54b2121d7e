// A Monaco editor for a detection's code: Python (tab size 4, the detection completions), YAML or JSON (tab
// size 2), and the diff of two versions. Monaco comes from the app's bundle and loads with the editor routes.
import Editor, { DiffEditor } from '@monaco-editor/react';
import { useComputedColorScheme } from '@mantine/core';
import { registerPythonCompletions } from '../../../lib/editor/pythonLanguage';

export type CodeLanguage = 'python' | 'yaml' | 'json' | 'sql';

interface CodeEditorProps {
  readonly value: string;
  readonly onChange?: (value: string) => void;
  readonly language: CodeLanguage;
  readonly label: string;
  readonly readOnly?: boolean;
  readonly height?: number | string;
}

/** Tab size 4 for Python, 2 otherwise. */
export const tabSizeOf = (language: CodeLanguage) => (language === 'python' ? 4 : 2);

export function CodeEditor({ value, onChange, language, label, readOnly = false, height = 360 }: CodeEditorProps) {
  const scheme = useComputedColorScheme('light');
  if (language === 'python') registerPythonCompletions();
  return (
    <div
      aria-label={label}
      data-testid={`code-editor-${language}`}
      style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}
    >
      <Editor
        height={height}
        language={language}
        theme={scheme === 'dark' ? 'vs-dark' : 'vs'}
        value={value}
        onChange={(text) => onChange?.(text ?? '')}
        loading="Loading the editor…"
        options={{
          readOnly,
          minimap: { enabled: false },
          tabSize: tabSizeOf(language),
          insertSpaces: true,
          detectIndentation: false,
          scrollBeyondLastLine: false,
          fontSize: 13,
          automaticLayout: true,
          ariaLabel: label,
        }}
      />
    </div>
  );
}

interface CodeDiffProps {
  readonly original: string;
  readonly modified: string;
  readonly language: CodeLanguage;
  readonly label: string;
  readonly height?: number | string;
}

/** Two versions side by side, read-only. */
export function CodeDiff({ original, modified, language, label, height = 360 }: CodeDiffProps) {
  const scheme = useComputedColorScheme('light');
  return (
    <div aria-label={label} style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}>
      <DiffEditor
        height={height}
        language={language}
        theme={scheme === 'dark' ? 'vs-dark' : 'vs'}
        original={original}
        modified={modified}
        // The widget resets its models itself on unmount; disposing them first throws.
        keepCurrentOriginalModel
        keepCurrentModifiedModel
        loading="Loading the editor…"
        options={{ readOnly: true, minimap: { enabled: false }, fontSize: 13, automaticLayout: true, renderSideBySide: true }}
      />
    </div>
  );
}
