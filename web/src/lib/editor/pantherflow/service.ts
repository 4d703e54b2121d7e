// The worker's side: answers each request with the language services over the catalog it was last given.
// Plain functions of the messages, so the worker module only connects them to `self`.
import { staticCatalog, type Catalog } from '../../../../../core/pantherflow/catalog';
import { complete } from '../../../../../core/pantherflow/services/completion';
import { diagnostics } from '../../../../../core/pantherflow/services/diagnostics';
import { format } from '../../../../../core/pantherflow/services/format';
import { hover } from '../../../../../core/pantherflow/services/hover';
import { inlayHints } from '../../../../../core/pantherflow/services/inlay';
import { signatureHelp } from '../../../../../core/pantherflow/services/signature';
import { encodeSemanticTokens, semanticTokens } from '../../../../../core/pantherflow/services/tokens';
import type { PantherFlowMethod, PantherFlowMethods, PantherFlowRequest, PantherFlowResponse, Params, Result } from './protocol';

type Handlers = { readonly [M in PantherFlowMethod]: (params: Params<M>) => Result<M> };

/** A service that keeps the catalog between requests (none until the editor sends one: no tables known). */
export function createPantherFlowService(): (request: PantherFlowRequest) => PantherFlowResponse {
  let catalog: Catalog = staticCatalog([]);
  const handlers: Handlers = {
    catalog: ({ tables }) => {
      catalog = staticCatalog(tables);
      return null;
    },
    tokens: ({ text }) => encodeSemanticTokens(semanticTokens(text, catalog)),
    complete: ({ text, offset }) => complete(text, offset, catalog),
    hover: ({ text, offset }) => hover(text, offset, catalog),
    signatureHelp: ({ text, offset }) => signatureHelp(text, offset, catalog),
    inlayHints: ({ text, range }) => inlayHints(text, catalog, range),
    diagnostics: ({ text }) => diagnostics(text, catalog),
    format: ({ text }) => format(text),
  };
  return ({ id, method, params }) => {
    const handle = handlers[method] as (params: PantherFlowMethods[typeof method]['params']) => Result<typeof method>;
    if (!handle) return { id, error: `Unknown PantherFlow request '${String(method)}'` };
    try {
      return { id, result: handle(params) };
    } catch (error) {
      return { id, error: error instanceof Error ? error.message : String(error) };
    }
  };
}
