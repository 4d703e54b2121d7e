// PantherFlow: the pipeline query language. Parser, checker, compiler to SQL (DuckDB, Athena) and the editor's
// language services, as pure functions over (text, cursor offset, catalog).
export * from './ast';
export { tokenize, type Token } from './lexer';
export { parse } from './parser';
export { analyze, type Analysis, type Column, type Visualization } from './checker';
export { compile, type CompileOptions, type CompiledQuery, type CompileResult } from './compiler';
export { DIALECTS, type DialectName } from './dialect';
export { staticCatalog, qualifiedName, findTable, type Catalog, type TableInfo, type ColumnInfo } from './catalog';
export { parseType, typeToString, T, type FlowType } from './types';
export { FUNCTIONS, type FunctionInfo } from './functions';
export { OPERATORS, SOURCE_KEYWORDS } from './operators';
export type { Diagnostic } from './diagnostic';
export type { TimeRange } from './timerange';
export { LineIndex, type Position, type Range, type Span } from './position';
export { complete, type CompletionItem, type CompletionKind, type CompletionList } from './services/completion';
export { hover, type Hover } from './services/hover';
export { signatureHelp, type SignatureHelp } from './services/signature';
export { inlayHints, type InlayHint } from './services/inlay';
export { diagnostics, type EditorDiagnostic } from './services/diagnostics';
export { semanticTokens, encodeSemanticTokens, TOKEN_TYPES, type SemanticToken } from './services/tokens';
export { format, type FormatResult } from './services/format';
export { queryInfo, setVisualization, type QueryInfo } from './services/query-info';
