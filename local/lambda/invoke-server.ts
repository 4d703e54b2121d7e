// The Lambda `Invoke` API on loopback (AWS_ENDPOINT_URL_LAMBDA), for function-to-function calls.
import { createServer, type Server } from 'node:http';
import type { InvokeResult } from './functions';

const PATH = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;

export function createInvokeServer(
  invoke: (functionName: string, event: unknown) => Promise<InvokeResult>,
  exists: (functionName: string) => boolean,
): Server {
  return createServer(async (req, res) => {
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body === undefined ? '' : JSON.stringify(body));
    };
    const match = PATH.exec(req.url?.split('?')[0] ?? '');
    if (req.method !== 'POST' || !match) return reply(404, { Type: 'User', message: 'Unknown operation' });
    const name =
      decodeURIComponent(match[1])
        .split(':')
        .find((part, i, all) => i === all.length - 1 || all[i - 1] === 'function') ?? '';
    if (!exists(name)) {
      return reply(
        404,
        { Type: 'User', message: `Function not found: ${name}` },
        { 'x-amzn-errortype': 'ResourceNotFoundException' },
      );
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let event: unknown = null;
    const text = Buffer.concat(chunks).toString('utf8');
    try {
      event = text ? JSON.parse(text) : {};
    } catch {
      return reply(
        400,
        { Type: 'User', message: 'Could not parse request body into json' },
        { 'x-amzn-errortype': 'InvalidRequestContentException' },
      );
    }
    if (req.headers['x-amz-invocation-type'] === 'Event') {
      void invoke(name, event);
      return reply(202, undefined);
    }
    const outcome = await invoke(name, event);
    if (outcome.ok) return reply(200, outcome.result, { 'x-amz-executed-version': '$LATEST' });
    return reply(200, outcome.error, { 'x-amz-function-error': 'Unhandled', 'x-amz-executed-version': '$LATEST' });
  });
}
