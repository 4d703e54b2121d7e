// How the api function answers AppSync, and how AppSync turns that answer into the GraphQL response.
//
// Every resolver is a Direct Lambda resolver (AppSync's own request payload) with one response mapping
// template, RESPONSE_MAPPING_TEMPLATE. The function answers `{ data }`, or `{ error }` for an error raised on
// purpose: the template raises it with its type, its message and, for refused input, `errorInfo.fieldErrors`
// (each broken rule on its field), which a thrown Lambda error cannot carry. A crash or a timeout still
// reaches the template as `$ctx.error` and becomes an error of its own type. The local GraphQL server applies
// the same template (local/graphql/server.ts), checked against this text.
import { ApiError, type FieldError } from '../lib/errors';

export const RESPONSE_MAPPING_TEMPLATE = [
  '#if($ctx.error)',
  '  $util.error($ctx.error.message, $ctx.error.type)',
  '#end',
  '#if($ctx.result.error)',
  '  $util.error($ctx.result.error.message, $ctx.result.error.type, null, $ctx.result.error.info)',
  '#end',
  '$util.toJson($ctx.result.data)',
].join('\n');

/** What a refused request carries beside its message. */
export interface ErrorInfo {
  readonly fieldErrors: readonly FieldError[];
}

export type ResolverAnswer =
  | { readonly data: unknown }
  | { readonly error: { readonly type: string; readonly message: string; readonly info: ErrorInfo | null } };

export const answerOf = (data: unknown): ResolverAnswer => ({ data });

export const errorAnswerOf = (error: ApiError): ResolverAnswer => ({
  error: {
    type: error.errorType,
    message: error.message,
    info: error.fieldErrors.length ? { fieldErrors: error.fieldErrors } : null,
  },
});
