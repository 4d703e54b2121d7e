// What the editor asks the PantherFlow worker, and what each answer holds: the language services' own
// results (0-based positions), mapped to Monaco's shapes on the main thread.
import type { TableInfo } from '../../../../../core/pantherflow/catalog';
import type { CompletionList } from '../../../../../core/pantherflow/services/completion';
import type { EditorDiagnostic } from '../../../../../core/pantherflow/services/diagnostics';
import type { FormatResult } from '../../../../../core/pantherflow/services/format';
import type { Hover } from '../../../../../core/pantherflow/services/hover';
import type { InlayHint } from '../../../../../core/pantherflow/services/inlay';
import type { SignatureHelp } from '../../../../../core/pantherflow/services/signature';

interface AtCursor {
  readonly text: string;
  /** The cursor as an offset into the text. */
  readonly offset: number;
}

export interface PantherFlowMethods {
  /** The tables queries may read; every later answer is checked against them. */
  catalog: { params: { readonly tables: readonly TableInfo[] }; result: null };
  /** Semantic tokens in LSP's relative encoding. */
  tokens: { params: { readonly text: string }; result: Uint32Array };
  complete: { params: AtCursor; result: CompletionList };
  hover: { params: AtCursor; result: Hover | null };
  signatureHelp: { params: AtCursor; result: SignatureHelp | null };
  /** Hints for the arguments starting within [start, end], or the whole text. */
  inlayHints: { params: { readonly text: string; readonly range?: { start: number; end: number } }; result: InlayHint[] };
  diagnostics: { params: { readonly text: string }; result: EditorDiagnostic[] };
  format: { params: { readonly text: string }; result: FormatResult };
}

export type PantherFlowMethod = keyof PantherFlowMethods;
export type Params<M extends PantherFlowMethod> = PantherFlowMethods[M]['params'];
export type Result<M extends PantherFlowMethod> = PantherFlowMethods[M]['result'];

export interface PantherFlowRequest<M extends PantherFlowMethod = PantherFlowMethod> {
  readonly id: number;
  readonly method: M;
  readonly params: Params<M>;
}

export type PantherFlowResponse =
  { readonly id: number; readonly result: Result<PantherFlowMethod> } | { readonly id: number; readonly error: string };
