// GraphQL with AppSync semantics: the schema from the template, AppSync scalars, Cognito user-pool auth,
// Direct Lambda resolvers with AppSync's event shape, and errors shaped as AppSync shapes them.
import {
  buildSchema,
  execute,
  GraphQLError,
  GraphQLScalarType,
  parse,
  print,
  validate,
  type DocumentNode,
  type FieldNode,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GRAPHQL_MAX_REQUEST_BYTES } from '../../core/graphql-limits';
import type { InvokeResult } from '../lambda/functions';
import { AuthError, type UserPoolVerifier } from './auth';
import { limitProblem, type RequestLimits } from './limits';
import { APPSYNC_SCALARS } from './scalars';

/** A Direct Lambda resolver: `Type.field` served by a function. */
export interface LambdaResolver {
  readonly typeName: string;
  readonly fieldName: string;
  readonly functionName: string;
  /**
   * The function answers `{ data }` or `{ error: { type, message, info } }`, which the api's response mapping
   * template (functions/api/errors.ts) turns into the field's value or an error with its `errorInfo`.
   */
  readonly answers?: boolean;
}

interface ResolverAnswer {
  readonly data?: unknown;
  readonly error?: { readonly type: string; readonly message: string; readonly info?: unknown };
}

export interface GraphqlServerOptions {
  /** AppSync's scalar and directive declarations followed by the API's schema. */
  readonly definition: string;
  readonly resolvers: readonly LambdaResolver[];
  readonly verifier: UserPoolVerifier;
  readonly invoke: (functionName: string, event: unknown) => Promise<InvokeResult>;
  /** The API's query depth and resolver count limits (the template's); none when absent, as on AppSync. */
  readonly limits?: RequestLimits;
}

interface AppSyncError {
  message: string;
  errorType?: string;
  path?: ReadonlyArray<string | number> | null;
  locations?: Array<{ line: number; column: number; sourceName: null }> | null;
  data?: unknown;
  errorInfo?: unknown;
}

class ResolverError extends Error {
  constructor(
    message: string,
    readonly errorType: string,
    readonly data: unknown = null,
    readonly errorInfo: unknown = null,
  ) {
    super(message);
  }
}

export function buildAppSyncSchema(definition: string): GraphQLSchema {
  const schema = buildSchema(definition);
  for (const [name, scalar] of Object.entries(APPSYNC_SCALARS)) {
    const declared = schema.getType(name);
    if (declared instanceof GraphQLScalarType) Object.assign(declared, scalar.toConfig(), { name });
  }
  return schema;
}

function selectionList(set: SelectionSetNode | undefined, prefix = ''): string[] {
  if (!set) return [];
  const out: string[] = [];
  for (const sel of set.selections) {
    if (sel.kind !== 'Field') continue;
    const path = `${prefix}${sel.name.value}`;
    if (sel.name.value === '__typename') continue;
    out.push(path);
    out.push(...selectionList(sel.selectionSet, `${path}/`));
  }
  return out;
}

function locations(nodes: ReadonlyArray<{ loc?: { startToken: { line: number; column: number } } }> | undefined) {
  return (
    nodes?.map((n) => ({ line: n.loc?.startToken.line ?? 0, column: n.loc?.startToken.column ?? 0, sourceName: null })) ?? null
  );
}

function toAppSyncError(error: GraphQLError): AppSyncError {
  const original = error.originalError;
  if (original instanceof ResolverError) {
    return {
      path: error.path ?? null,
      data: original.data,
      errorType: original.errorType,
      errorInfo: original.errorInfo,
      locations: locations(error.nodes as never),
      message: original.message,
    };
  }
  return { path: error.path ?? null, locations: locations(error.nodes as never), message: error.message };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function createGraphqlHandler(options: GraphqlServerOptions) {
  const schema = buildAppSyncSchema(options.definition);
  const byField = new Map(options.resolvers.map((r) => [`${r.typeName}.${r.fieldName}`, r]));
  const limits = options.limits ?? { queryDepth: 0, resolverCount: 0 };

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { allow: 'POST, OPTIONS' });
      res.end();
      return;
    }
    if (req.method !== 'POST') {
      send(res, 405, { errors: [{ errorType: 'MethodNotAllowedException', message: 'Only POST is supported.' }] });
      return;
    }
    let verified;
    try {
      verified = await options.verifier.verify(req.headers.authorization);
    } catch (err) {
      if (!(err instanceof AuthError)) throw err;
      send(res, 401, { errors: [{ errorType: err.errorType, message: err.message }] });
      return;
    }
    const raw = await readBody(req, GRAPHQL_MAX_REQUEST_BYTES);
    if (raw === null) {
      send(res, 413, {
        errors: [{ errorType: 'PayloadTooLargeException', message: `Request body exceeds ${GRAPHQL_MAX_REQUEST_BYTES} bytes.` }],
      });
      return;
    }
    let body: { query?: unknown; variables?: unknown; operationName?: unknown };
    try {
      body = JSON.parse(raw);
    } catch {
      send(res, 400, {
        errors: [{ errorType: 'MalformedHttpRequestException', message: 'Unable to parse request body as JSON.' }],
      });
      return;
    }
    if (typeof body?.query !== 'string') {
      send(res, 400, { errors: [{ errorType: 'MalformedHttpRequestException', message: 'Missing query in request body.' }] });
      return;
    }
    if (body.variables != null && (typeof body.variables !== 'object' || Array.isArray(body.variables))) {
      send(res, 400, { errors: [{ errorType: 'MalformedHttpRequestException', message: 'Variables must be a JSON object.' }] });
      return;
    }
    let document: DocumentNode;
    try {
      document = parse(body.query);
    } catch (err) {
      const e = err as GraphQLError;
      send(res, 400, {
        data: null,
        errors: [
          {
            path: null,
            locations: locations(e.nodes as never) ?? e.locations?.map((l) => ({ ...l, sourceName: null })),
            message: `Invalid syntax: ${e.message}`,
            errorType: 'MalformedHttpRequestException',
          },
        ],
      });
      return;
    }
    const overLimit = limitProblem(schema, document, (key) => byField.has(key), limits);
    if (overLimit) {
      send(res, 400, { data: null, errors: [{ path: null, locations: null, message: `Validation error: ${overLimit}` }] });
      return;
    }
    const invalid = validate(schema, document);
    if (invalid.length) {
      send(res, 400, {
        data: null,
        errors: invalid.map((e) => ({
          path: null,
          locations: e.locations?.map((l) => ({ ...l, sourceName: null })) ?? null,
          message: `Validation error: ${e.message}`,
        })),
      });
      return;
    }

    const claims = verified.claims;
    const identity = {
      claims,
      defaultAuthStrategy: 'ALLOW',
      groups: (claims['cognito:groups'] as string[] | undefined) ?? null,
      issuer: claims.iss,
      sourceIp: [req.socket.remoteAddress ?? '127.0.0.1'],
      sub: claims.sub,
      username: (claims['cognito:username'] as string | undefined) ?? (claims.username as string | undefined) ?? claims.sub,
    };
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)]),
    );

    const fieldResolver: GraphQLFieldResolver<unknown, unknown> = async (source, args, _ctx, info: GraphQLResolveInfo) => {
      const resolver = byField.get(`${info.parentType.name}.${info.fieldName}`);
      if (!resolver) {
        const value = (source as Record<string, unknown> | null)?.[info.fieldName];
        return value;
      }
      const field = info.fieldNodes[0] as FieldNode;
      const event = {
        arguments: args,
        identity,
        source: source ?? null,
        request: { headers, domainName: null },
        prev: null,
        info: {
          fieldName: info.fieldName,
          parentTypeName: info.parentType.name,
          variables: info.variableValues,
          selectionSetList: selectionList(field.selectionSet),
          selectionSetGraphQL: field.selectionSet ? print(field.selectionSet) : '',
        },
        stash: {},
      };
      const outcome = await options.invoke(resolver.functionName, event);
      if (!outcome.ok) {
        const type = outcome.error.errorType;
        throw new ResolverError(
          outcome.error.errorMessage,
          type.startsWith('Sandbox.') || type.startsWith('Runtime.') ? 'Lambda:Unhandled' : type,
        );
      }
      if (!resolver.answers) return outcome.result;
      const answer = (outcome.result ?? {}) as ResolverAnswer;
      if (answer.error) throw new ResolverError(answer.error.message, answer.error.type, null, answer.error.info ?? null);
      return answer.data ?? null;
    };

    const result = await execute({
      schema,
      document,
      variableValues: (body.variables as Record<string, unknown> | undefined) ?? undefined,
      operationName: typeof body.operationName === 'string' ? body.operationName : undefined,
      fieldResolver,
    });
    const response: { data: unknown; errors?: AppSyncError[] } = { data: result.data ?? null };
    if (result.errors?.length) {
      response.errors = result.errors.map(toAppSyncError);
      // Variable coercion failures happen before execution: AppSync answers them as a bad request.
      if (result.data === undefined) {
        send(res, 400, {
          data: null,
          errors: response.errors.map((e) => ({ ...e, errorType: e.errorType ?? 'BadRequestException' })),
        });
        return;
      }
    }
    send(res, 200, response);
  };
}
