// Serves the template's Lambda function URLs (AWS::Lambda::Url) on the runtime's front origin: each URL gets
// a path (`/lambda-url/<logical id>/`, or the one its resource's `caracal:localPath` metadata names), and a
// request under it reaches the function as a function-URL event (payload format 2.0), with AWS's 6 MB
// request limit; the function's answer becomes the HTTP response as Lambda's URL front end shapes it.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InvokeResult } from '../lambda/functions';
import { resourcesOfType, type Resolver, type StackTemplate } from '../template';

/** AWS's limit on a function URL request payload. */
export const FUNCTION_URL_MAX_REQUEST_BYTES = 6 * 1024 * 1024;

export const LOCAL_PATH_METADATA = 'caracal:localPath';

export interface FunctionUrl {
  readonly logicalId: string;
  /** Path prefix on the front origin, starting and ending with `/`. */
  readonly path: string;
  /** The absolute URL, ending with `/`, as `Fn::GetAtt <Url>.FunctionUrl` resolves locally. */
  readonly url: string;
  /** The target function's logical id (the template names it with Fn::GetAtt or Ref). */
  readonly targetLogicalId: string;
}

function targetOf(value: unknown): string {
  const v = value as { 'Fn::GetAtt'?: [string, string] | string; Ref?: string };
  if (v?.Ref) return v.Ref;
  const att = v?.['Fn::GetAtt'];
  if (att) return Array.isArray(att) ? att[0] : att.split('.')[0];
  throw new Error(`a function URL's TargetFunctionArn must name a function of the template, not ${JSON.stringify(value)}`);
}

/** Every function URL of the template, registered with the resolver (FunctionUrl) under `baseUrl`. */
export function functionUrls(stack: StackTemplate, resolver: Resolver, baseUrl: string): FunctionUrl[] {
  return resourcesOfType(stack, 'AWS::Lambda::Url').map(([logicalId, resource]) => {
    const props = resource.Properties ?? {};
    if (props.Qualifier) throw new Error(`function URL ${logicalId}: aliases and versions are not served locally`);
    const declared = (resource.Metadata as Record<string, unknown> | undefined)?.[LOCAL_PATH_METADATA];
    const path = typeof declared === 'string' ? `/${declared.replace(/^\/+|\/+$/g, '')}/` : `/lambda-url/${logicalId}/`;
    const url = `${baseUrl}${path}`;
    resolver.register(logicalId, { ref: logicalId, attributes: { FunctionUrl: url } });
    return { logicalId, path, url, targetLogicalId: targetOf(props.TargetFunctionArn) };
  });
}

/** The function URL serving `path`, if any. */
export function urlFor(urls: readonly FunctionUrl[], path: string): FunctionUrl | undefined {
  return urls.find((u) => path.startsWith(u.path) || `${path}/` === u.path);
}

const TEXT_TYPES = /^(text\/|application\/(json|x-ndjson|xml|javascript|x-www-form-urlencoded|graphql)|[^;]*\+(json|xml))/i;

/** Lambda passes text bodies as text and any other body (binary types, encoded content) as base64. */
export function isTextBody(headers: Record<string, string>): boolean {
  if (headers['content-encoding'] && headers['content-encoding'] !== 'identity') return false;
  const type = headers['content-type'];
  return !type || TEXT_TYPES.test(type);
}

/** Header names lower-cased, repeated values joined with commas (as the 2.0 payload does). */
function joinHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'cookie') continue;
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  return headers;
}

export interface FunctionUrlEvent {
  version: '2.0';
  routeKey: '$default';
  rawPath: string;
  rawQueryString: string;
  cookies?: string[];
  headers: Record<string, string>;
  queryStringParameters?: Record<string, string>;
  requestContext: {
    accountId: 'anonymous';
    apiId: string;
    domainName: string;
    domainPrefix: string;
    http: { method: string; path: string; protocol: string; sourceIp: string; userAgent: string };
    requestId: string;
    routeKey: '$default';
    stage: '$default';
    time: string;
    timeEpoch: number;
  };
  body?: string;
  isBase64Encoded: boolean;
}

/** The event a request becomes; `rawPath` is the path below the URL's own prefix, as on AWS. */
export function functionUrlEvent(fnUrl: FunctionUrl, req: IncomingMessage, body: Buffer, now = new Date()): FunctionUrlEvent {
  const full = new URL(req.url ?? '/', 'http://local');
  const rawPath = `/${full.pathname.slice(fnUrl.path.length)}`;
  const headers = joinHeaders(req);
  const cookies = req.headers.cookie?.split(/;\s*/).filter(Boolean);
  const query: Record<string, string> = {};
  for (const [k, v] of full.searchParams) query[k] = k in query ? `${query[k]},${v}` : v;
  const text = isTextBody(headers);
  const host = headers.host ?? 'localhost';
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString: full.search.slice(1),
    ...(cookies?.length ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    requestContext: {
      accountId: 'anonymous',
      apiId: fnUrl.logicalId.toLowerCase(),
      domainName: host,
      domainPrefix: host.split('.')[0],
      http: {
        method: req.method ?? 'GET',
        path: rawPath,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length ? { body: text ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: body.length > 0 && !text,
  };
}

interface HttpAnswer {
  statusCode: number;
  headers: Record<string, string>;
  cookies: string[];
  body: Buffer;
}

/**
 * A function's result as the HTTP answer: an object with `statusCode` is taken as is; anything else is a 200
 * with the value as JSON (a string as it is). A failed invocation is a 502.
 */
export function httpAnswer(outcome: InvokeResult): HttpAnswer {
  if (!outcome.ok) {
    return {
      statusCode: 502,
      headers: { 'content-type': 'application/json' },
      cookies: [],
      body: Buffer.from(JSON.stringify({ message: 'Internal Server Error' })),
    };
  }
  const r = outcome.result as Record<string, unknown> | string | null;
  if (r && typeof r === 'object' && typeof r.statusCode === 'number') {
    const headers = Object.fromEntries(
      Object.entries((r.headers as Record<string, unknown>) ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]),
    );
    const raw = typeof r.body === 'string' ? r.body : '';
    return {
      statusCode: r.statusCode,
      headers,
      cookies: Array.isArray(r.cookies) ? r.cookies.map(String) : [],
      body: r.isBase64Encoded === true ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8'),
    };
  }
  const text = typeof r === 'string' ? r : JSON.stringify(r);
  return { statusCode: 200, headers: { 'content-type': 'application/json' }, cookies: [], body: Buffer.from(text) };
}

/** The request body, or null when it is larger than `maxBytes` (the rest is read and dropped, not kept). */
function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else chunks.length = 0;
    });
    req.on('end', () => resolve(size > maxBytes ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Reads the request (up to the limit), invokes the function and writes its answer. */
export async function serveFunctionUrl(
  fnUrl: FunctionUrl,
  functionName: string,
  req: IncomingMessage,
  res: ServerResponse,
  invoke: (name: string, event: unknown) => Promise<InvokeResult>,
  maxBytes = FUNCTION_URL_MAX_REQUEST_BYTES,
): Promise<void> {
  const body = await readBody(req, maxBytes);
  if (!body) {
    res.writeHead(413, { 'content-type': 'application/json' });
    return void res.end(JSON.stringify({ message: 'Request Entity Too Large' }));
  }
  const answer = httpAnswer(await invoke(functionName, functionUrlEvent(fnUrl, req, body)));
  res.writeHead(answer.statusCode, {
    ...answer.headers,
    ...(answer.cookies.length ? { 'set-cookie': answer.cookies } : {}),
  });
  res.end(answer.body);
}
