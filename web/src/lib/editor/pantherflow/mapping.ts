// From PantherFlow's language services to Monaco's shapes. The services speak LSP's convention (0-based
// lines and characters, in UTF-16 code units like JavaScript strings); Monaco counts lines and columns
// from 1. Kinds and severities become Monaco's enum values, checked against Monaco's types at compile time.
// Pure functions: nothing here loads Monaco.
import type { IMarkdownString, IPosition, IRange, MarkerSeverity, editor, languages } from 'monaco-editor/editor/editor.api';
import type { Position, Range } from '../../../../../core/pantherflow/position';
import type { CompletionItem, CompletionKind } from '../../../../../core/pantherflow/services/completion';
import type { EditorDiagnostic } from '../../../../../core/pantherflow/services/diagnostics';
import type { FormatResult } from '../../../../../core/pantherflow/services/format';
import type { Hover } from '../../../../../core/pantherflow/services/hover';
import type { InlayHint } from '../../../../../core/pantherflow/services/inlay';
import type { SignatureHelp } from '../../../../../core/pantherflow/services/signature';
import { TOKEN_TYPES } from '../../../../../core/pantherflow/services/tokens';

export function toMonacoPosition(position: Position): IPosition {
  return { lineNumber: position.line + 1, column: position.character + 1 };
}

export function toMonacoRange(range: Range): IRange {
  return {
    startLineNumber: range.start.line + 1,
    startColumn: range.start.character + 1,
    endLineNumber: range.end.line + 1,
    endColumn: range.end.character + 1,
  };
}

/** How Monaco shows each kind of candidate: tables as classes, columns and fields as fields, and so on. */
export const COMPLETION_KINDS: { readonly [K in CompletionKind]: languages.CompletionItemKind } = {
  operator: 11 satisfies languages.CompletionItemKind.Operator,
  keyword: 17 satisfies languages.CompletionItemKind.Keyword,
  table: 5 satisfies languages.CompletionItemKind.Class,
  variable: 4 satisfies languages.CompletionItemKind.Variable,
  column: 3 satisfies languages.CompletionItemKind.Field,
  field: 9 satisfies languages.CompletionItemKind.Property,
  function: 1 satisfies languages.CompletionItemKind.Function,
  namespace: 8 satisfies languages.CompletionItemKind.Module,
};

const markdown = (value: string): IMarkdownString => ({ value });

export function toCompletionItem(item: CompletionItem): languages.CompletionItem {
  return {
    label: item.label,
    kind: COMPLETION_KINDS[item.kind],
    insertText: item.insertText,
    range: toMonacoRange(item.range),
    sortText: item.sortText,
    ...(item.detail !== undefined ? { detail: item.detail } : {}),
    ...(item.documentation !== undefined ? { documentation: markdown(item.documentation) } : {}),
  };
}

export function toHover(hover: Hover): languages.Hover {
  return { contents: [markdown(hover.contents)], range: toMonacoRange(hover.range) };
}

/** Parameters keep their [start, end) offsets inside the signature's label, which Monaco takes as they are. */
export function toSignatureHelp(help: SignatureHelp): languages.SignatureHelp {
  return {
    signatures: help.signatures.map((s) => ({
      label: s.label,
      documentation: markdown(s.documentation),
      parameters: s.parameters.map((p) => ({ label: p.label, documentation: markdown(p.documentation) })),
    })),
    activeSignature: help.activeSignature,
    activeParameter: help.activeParameter,
  };
}

const PARAMETER_HINT = 2 satisfies languages.InlayHintKind.Parameter;

export function toInlayHint(hint: InlayHint): languages.InlayHint {
  return { label: hint.label, position: toMonacoPosition(hint.position), kind: PARAMETER_HINT, paddingRight: true };
}

export const MARKER_SEVERITIES: { readonly [S in EditorDiagnostic['severity']]: MarkerSeverity } = {
  error: 8 satisfies MarkerSeverity.Error,
  warning: 4 satisfies MarkerSeverity.Warning,
};

export function toMarker(diagnostic: EditorDiagnostic): editor.IMarkerData {
  return { ...toMonacoRange(diagnostic.range), message: diagnostic.message, severity: MARKER_SEVERITIES[diagnostic.severity] };
}

/** Formatting replaces the whole text (`whole` is the model's full range), or changes nothing. */
export function toFormattingEdits(result: FormatResult, whole: IRange): languages.TextEdit[] {
  return result.changed ? [{ range: whole, text: result.text }] : [];
}

/** The semantic token types, in the order the services' encoding indexes them. */
export const SEMANTIC_TOKENS_LEGEND: languages.SemanticTokensLegend = { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [] };

/** The offsets of a Monaco range in the text, as the services take them. */
export function toOffsets(range: IRange, offsetAt: (position: IPosition) => number): { start: number; end: number } {
  return {
    start: offsetAt({ lineNumber: range.startLineNumber, column: range.startColumn }),
    end: offsetAt({ lineNumber: range.endLineNumber, column: range.endColumn }),
  };
}
