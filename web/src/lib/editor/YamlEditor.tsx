import Editor, { type OnMount } from '@monaco-editor/react';
import { useComputedColorScheme } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { monaco } from './monaco';
import type { TextRange } from './yamlLocate';

export interface EditorMarker extends TextRange {
  readonly message: string;
  readonly severity: 'error' | 'warning';
}

interface YamlEditorProps {
  readonly value: string;
  readonly onChange?: (value: string) => void;
  readonly markers?: readonly EditorMarker[];
  readonly readOnly?: boolean;
  readonly height?: number | string;
  readonly label: string;
}

const MARKER_OWNER = 'caracal-schema';

/** A Monaco YAML editor (bundled, no CDN) showing the problems it is given as markers. */
export function YamlEditor({ value, onChange, markers = [], readOnly = false, height = 480, label }: YamlEditorProps) {
  const scheme = useComputedColorScheme('light');
  const editorRef = useRef<Parameters<OnMount>[0] | null>(null);

  const applyMarkers = () => {
    const model = editorRef.current?.getModel();
    if (!model) return;
    monaco.editor.setModelMarkers(
      model,
      MARKER_OWNER,
      markers.map((m) => ({
        startLineNumber: m.startLine,
        startColumn: m.startColumn,
        endLineNumber: m.endLine,
        endColumn: m.endColumn,
        message: m.message,
        severity: m.severity === 'error' ? monaco.MarkerSeverity.Error : monaco.MarkerSeverity.Warning,
      })),
    );
  };

  useEffect(applyMarkers);

  return (
    <div
      aria-label={label}
      data-testid="schema-yaml-editor"
      style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}
    >
      <Editor
        height={height}
        language="yaml"
        theme={scheme === 'dark' ? 'vs-dark' : 'vs'}
        value={value}
        onChange={(text) => onChange?.(text ?? '')}
        onMount={(editor) => {
          editorRef.current = editor;
          applyMarkers();
        }}
        loading="Loading the editor…"
        options={{
          readOnly,
          minimap: { enabled: false },
          tabSize: 2,
          insertSpaces: true,
          scrollBeyondLastLine: false,
          fontSize: 13,
          automaticLayout: true,
          ariaLabel: label,
          renderValidationDecorations: 'on',
        }}
      />
    </div>
  );
}
