// The Native SQL editor: Monaco's SQL highlighting with completion from the lake catalog (sqlCompletion.ts).
import Editor from '@monaco-editor/react';
import { useComputedColorScheme } from '@mantine/core';
import 'monaco-editor/languages/definitions/sql/register';
import 'monaco-editor/editor/contrib/suggest/browser/suggestController';
import { useSqlCatalog, type SqlCatalogDatabase } from './sqlCompletion';
import { useExternalValue } from './sqlExternalValue';

interface SqlEditorProps {
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly catalog: readonly SqlCatalogDatabase[];
  readonly onRun?: () => void;
  readonly height?: number;
}

export default function SqlEditor({ value, onChange, catalog, onRun, height = 200 }: SqlEditorProps) {
  const scheme = useComputedColorScheme('light');
  useSqlCatalog(catalog);
  const external = useExternalValue(value);
  return (
    <div
      aria-label="SQL query"
      data-testid="sql-editor"
      style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}
    >
      <Editor
        height={height}
        language="sql"
        theme={scheme === 'dark' ? 'vs-dark' : 'vs'}
        defaultValue={value}
        onChange={(text) => {
          external.emit(text ?? '');
          onChange(text ?? '');
        }}
        loading="Loading the editor…"
        onMount={(editor, monaco) => {
          external.editorRef.current = editor;
          if (onRun) editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, onRun);
        }}
        options={{
          minimap: { enabled: false },
          fontSize: 13,
          tabSize: 2,
          scrollBeyondLastLine: false,
          automaticLayout: true,
          ariaLabel: 'SQL query',
        }}
      />
    </div>
  );
}
