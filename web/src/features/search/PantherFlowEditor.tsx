// The PantherFlow editor of the search page: the app's PantherFlow language (its services in a web worker:
// highlighting, completion, hover, signature help, inlay hints, diagnostics, formatting) plus quick fixes for
// the diagnostics that carry one (an unknown name's closest match), offered as code actions.
import Editor from '@monaco-editor/react';
import { useComputedColorScheme } from '@mantine/core';
import 'monaco-editor/editor/contrib/codeAction/browser/codeActionContributions';
import type { IDisposable } from 'monaco-editor/editor/editor.api';
import { useEffect, useRef } from 'react';
import { staticCatalog, type TableInfo } from '../../../../core/pantherflow/catalog';
import { diagnostics } from '../../../../core/pantherflow/services/diagnostics';
import { monaco } from '../../lib/editor/monaco';
import { useExternalValue } from '../../lib/editor/sqlExternalValue';
import { PANTHERFLOW_EDITOR_OPTIONS, PANTHERFLOW_LANGUAGE, pantherFlowLanguage } from '../../lib/editor/pantherflow';

let fixTables: readonly TableInfo[] = [];
let fixes: IDisposable | undefined;

function registerQuickFixes() {
  if (fixes) return;
  fixes = monaco.languages.registerCodeActionProvider(PANTHERFLOW_LANGUAGE, {
    provideCodeActions: (model, range) => {
      const found = diagnostics(model.getValue(), staticCatalog(fixTables));
      const actions = found.flatMap((d) => {
        if (!d.fix) return [];
        const r = {
          startLineNumber: d.range.start.line + 1,
          startColumn: d.range.start.character + 1,
          endLineNumber: d.range.end.line + 1,
          endColumn: d.range.end.character + 1,
        };
        if (!monaco.Range.areIntersectingOrTouching(r, range)) return [];
        const f = d.fix;
        return [
          {
            title: f.title,
            kind: 'quickfix',
            isPreferred: true,
            diagnostics: [{ ...r, message: d.message, severity: monaco.MarkerSeverity.Error }],
            edit: {
              edits: [
                {
                  resource: model.uri,
                  versionId: model.getVersionId(),
                  textEdit: {
                    range: {
                      startLineNumber: f.range.start.line + 1,
                      startColumn: f.range.start.character + 1,
                      endLineNumber: f.range.end.line + 1,
                      endColumn: f.range.end.character + 1,
                    },
                    text: f.newText,
                  },
                },
              ],
            },
          },
        ];
      });
      return { actions, dispose: () => undefined };
    },
  });
}

interface PantherFlowEditorProps {
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly tables: readonly TableInfo[];
  readonly onRun?: () => void;
  readonly height?: number;
}

export default function PantherFlowEditor({ value, onChange, tables, onRun, height = 220 }: PantherFlowEditorProps) {
  const scheme = useComputedColorScheme('light');
  const watching = useRef<IDisposable | null>(null);
  const external = useExternalValue(value);
  const run = useRef(onRun);
  run.current = onRun;
  useEffect(() => {
    fixTables = tables;
    void pantherFlowLanguage().setCatalog(tables);
  }, [tables]);
  useEffect(() => () => watching.current?.dispose(), []);
  return (
    <div
      aria-label="PantherFlow query"
      data-testid="pantherflow-editor"
      style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}
    >
      <Editor
        height={height}
        language={PANTHERFLOW_LANGUAGE}
        theme={scheme === 'dark' ? 'vs-dark' : 'vs'}
        defaultValue={value}
        onChange={(text) => {
          external.emit(text ?? '');
          onChange(text ?? '');
        }}
        loading="Loading the editor…"
        beforeMount={() => {
          pantherFlowLanguage();
          registerQuickFixes();
        }}
        onMount={(ed, m) => {
          external.editorRef.current = ed;
          const model = ed.getModel();
          if (model) watching.current = pantherFlowLanguage().watch(model);
          ed.addCommand(m.KeyMod.CtrlCmd | m.KeyCode.Enter, () => run.current?.());
        }}
        options={{
          ...PANTHERFLOW_EDITOR_OPTIONS,
          minimap: { enabled: false },
          fontSize: 13,
          tabSize: 2,
          scrollBeyondLastLine: false,
          automaticLayout: true,
          ariaLabel: 'PantherFlow query',
          lightbulb: { enabled: 'on' as never },
          fixedOverflowWidgets: true,
        }}
      />
    </div>
  );
}
