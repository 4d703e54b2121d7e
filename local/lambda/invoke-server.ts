// The Lambda API on loopback (AWS_ENDPOINT_URL_LAMBDA): `Invoke` for function-to-function calls, and the
// event-source mapping calls (create, list, get, delete) for queues connected at run time.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { functionNameOf, MappingError, type DynamicMappings } from '../events/dynamic-mappings';
import type { InvokeResult } from './functions';

const INVOKE = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;
const MAPPINGS = /^\/2015-03-31\/event-source-mappings\/?([^/]*)$/;

type Reply = (status: number, body: unknown, headers?: Record<string, string>) => void;

async function readJson(req: IncomingMessage): Promise<{ ok: true; value: unknown } | { ok: false }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return { ok: true, value: text ? JSON.parse(text) : {} };
  } catch {
    return { ok: false };
  }
}

const invalidJson = (reply: Reply) =>
  reply(
    400,
    { Type: 'User', message: 'Could not parse request body into json' },
    { 'x-amzn-errortype': 'InvalidRequestContentException' },
  );

export function createInvokeServer(
  invoke: (functionName: string, event: unknown) => Promise<InvokeResult>,
  exists: (functionName: string) => boolean,
  mappings: DynamicMappings,
): Server {
  return createServer(async (req, res) => {
    const reply: Reply = (status, body, headers = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body === undefined ? '' : JSON.stringify(body));
    };
    const [path, search = ''] = (req.url ?? '').split('?');
    const mappingMatch = MAPPINGS.exec(path);
    if (mappingMatch) {
      try {
        return await serveMappings(req, reply, mappings, decodeURIComponent(mappingMatch[1]), new URLSearchParams(search));
      } catch (err) {
        if (!(err instanceof MappingError)) throw err;
        return reply(err.status, { Type: 'User', message: err.message }, { 'x-amzn-errortype': err.errorType });
      }
    }
    const match = INVOKE.exec(path);
    if (req.method !== 'POST' || !match) return reply(404, { Type: 'User', message: 'Unknown operation' });
    const name = functionNameOf(match[1]);
    if (!exists(name)) {
      return reply(
        404,
        { Type: 'User', message: `Function not found: ${name}` },
        { 'x-amzn-errortype': 'ResourceNotFoundException' },
      );
    }
    const body = await readJson(req);
    if (!body.ok) return invalidJson(reply);
    if (req.headers['x-amz-invocation-type'] === 'Event') {
      void invoke(name, body.value);
      return reply(202, undefined);
    }
    const outcome = await invoke(name, body.value);
    if (outcome.ok) return reply(200, outcome.result, { 'x-amz-executed-version': '$LATEST' });
    return reply(200, outcome.error, { 'x-amz-function-error': 'Unhandled', 'x-amz-executed-version': '$LATEST' });
  });
}

async function serveMappings(
  req: IncomingMessage,
  reply: Reply,
  registry: DynamicMappings,
  uuid: string,
  query: URLSearchParams,
) {
  if (req.method === 'POST' && !uuid) {
    const body = await readJson(req);
    if (!body.ok) return invalidJson(reply);
    return reply(202, await registry.create(body.value as Parameters<DynamicMappings['create']>[0]));
  }
  if (req.method === 'GET' && !uuid) {
    const filter = {
      EventSourceArn: query.get('EventSourceArn') ?? undefined,
      FunctionName: query.get('FunctionName') ?? undefined,
    };
    return reply(200, { EventSourceMappings: registry.list(filter) });
  }
  if (req.method === 'GET') return reply(200, registry.get(uuid));
  if (req.method === 'DELETE') return reply(202, await registry.delete(uuid));
  return reply(404, { Type: 'User', message: 'Unknown operation' });
}
