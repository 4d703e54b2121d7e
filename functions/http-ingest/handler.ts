// HTTP ingest, behind a Lambda function URL: POST /<sourceId> with the log source's own authentication.
// An accepted body is written to the ingest bucket (http/<sourceId>/...) before the 200 answer: that object
// is the durable hand-off, and the log processor takes it from there like any S3 object. Every refusal has a
// JSON body and is counted for the source.
import { randomUUID } from 'node:crypto';
import { ENV, optionalEnv, requireEnv } from '../lib/env';
import { checkHttpRequest, DEFAULT_MAX_BODY_BYTES, type HttpRefusal } from '../lib/pipeline/http-request';
import { writeHttpObject } from '../lib/pipeline/http-store';
import { countSourceError } from '../lib/pipeline/pipeline-errors';
import { upgradedSecret, type HttpIngestRequest } from '../lib/log-sources/http-auth';
import { getSource, replaceSecret, type StoredLogSource } from '../lib/log-sources/repository';

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

const answer = (statusCode: number, body: Record<string, unknown>): HttpResponse => ({
  statusCode,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

const refuse = (r: HttpRefusal) => answer(r.status, { error: r.error, message: r.message });

/** Rewrites a secret kept by an earlier version as one salted SHA-256 as scrypt, once its credential verified. */
async function upgradeSecret(source: StoredLogSource, request: HttpIngestRequest): Promise<void> {
  const upgraded = upgradedSecret(source, request);
  if (!upgraded || source.secret?.kind !== 'hash') return;
  try {
    await replaceSecret(source.id, source.secret, upgraded);
  } catch (error) {
    console.error(`could not upgrade the stored secret of log source ${source.id}`, error);
  }
}

export async function handler(event: FunctionUrlEvent): Promise<HttpResponse> {
  const sourceId = event.rawPath.replace(/^\/+|\/+$/g, '');
  const headers = Object.fromEntries(Object.entries(event.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const body = event.body === undefined ? Buffer.alloc(0) : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  const maxBodyBytes = Number(optionalEnv(ENV.httpIngestMaxBodyBytes) ?? DEFAULT_MAX_BODY_BYTES);
  const source = sourceId && !sourceId.includes('/') ? await getSource(sourceId) : null;
  const now = new Date();
  const refusal = checkHttpRequest({ method: event.requestContext.http.method, source, headers, body, maxBodyBytes, now });
  if (refusal) {
    if (source && refusal.counted) await countSourceError(source.id, refusal.counted, refusal.message);
    console.log(`refused ${event.requestContext.http.method} /${sourceId.slice(0, 64)}: ${refusal.status} ${refusal.message}`);
    return refuse(refusal);
  }
  const requestId = event.requestContext.requestId ?? randomUUID();
  await writeHttpObject(requireEnv(ENV.ingestBucket), source!.id, requestId, body, headers, now);
  await upgradeSecret(source!, { headers, body, now });
  return answer(200, { status: 'accepted', requestId, bytes: body.length });
}
