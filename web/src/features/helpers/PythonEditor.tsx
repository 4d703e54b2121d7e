// A Monaco Python editor (tab size 4) for global helpers and data models: Monaco from the app's bundle
// (lib/editor/monaco), loaded with the routes that use it.
import Editor from '@monaco-editor/react';
import { useComputedColorScheme } from '@mantine/core';
import 'monaco-editor/languages/definitions/python/register';
import '../../lib/editor/monaco';

interface PythonEditorProps {
  readonly value: string;
  readonly onChange?: (value: string) => void;
  readonly label: string;
  readonly readOnly?: boolean;
  readonly height?: number | string;
}

/** Python's tab size (4; the other editors indent by 2). */
export const PYTHON_TAB_SIZE = 4;

export function PythonEditor({ value, onChange, label, readOnly = false, height = 420 }: PythonEditorProps) {
  const scheme = useComputedColorScheme('light');
  return (
    <div
      aria-label={label}
      data-testid="python-editor"
      style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}
    >
      <Editor
        height={height}
        language="python"
        theme={scheme === 'dark' ? 'vs-dark' : 'vs'}
        value={value}
        onChange={(text) => onChange?.(text ?? '')}
        loading="Loading the editor…"
        options={{
          readOnly,
          minimap: { enabled: false },
          tabSize: PYTHON_TAB_SIZE,
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
