// HTTP ingest, behind a Lambda function URL: POST /<sourceId> with the log source's own authentication.
// Thin: read the request, let the pipeline take or refuse it, answer in JSON.
import { randomUUID } from 'node:crypto';
import { ENV, optionalEnv, requireEnv } from '../lib/env';
import { DEFAULT_MAX_BODY_BYTES, ingestHttpRequest } from '../lib/pipeline';

interface FunctionUrlEvent {
  readonly rawPath: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly isBase64Encoded?: boolean;
  readonly requestContext: { readonly http: { readonly method: string }; readonly requestId?: string };
}

interface HttpResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export async function handler(event: FunctionUrlEvent): Promise<HttpResponse> {
  const answer = await ingestHttpRequest(
    {
      path: event.rawPath.replace(/^\/+|\/+$/g, ''),
      method: event.requestContext.http.method,
      headers: Object.fromEntries(Object.entries(event.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
      body: event.body === undefined ? Buffer.alloc(0) : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8'),
      requestId: event.requestContext.requestId ?? randomUUID(),
      now: new Date(),
    },
    {
      ingestBucket: requireEnv(ENV.ingestBucket),
      maxBodyBytes: Number(optionalEnv(ENV.httpIngestMaxBodyBytes) ?? DEFAULT_MAX_BODY_BYTES),
    },
  );
  return { statusCode: answer.status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer.body) };
}
