// An HTTP ingest request from arrival to answer: the source it names, the checks of http-request.ts, and for
// an accepted body its object in the ingest bucket (http/<sourceId>/...), written before the answer: that
// object is the durable hand-off, and the log processor takes it from there like any S3 object. Every refusal
// is counted for its source. A secret an earlier version kept as one salted SHA-256 is kept as scrypt once
// its credential verified.
import { getSource, upgradeStoredSecret } from '../log-sources';
import { checkHttpRequest } from './http-request';
import { writeHttpObject } from './http-store';
import { countSourceError } from './pipeline-errors';

export interface HttpIngestRequest {
  /** The path after the function's address: the source's id. */
  readonly path: string;
  readonly method: string;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: Buffer;
  readonly requestId: string;
  /** When the request arrived. */
  readonly now: Date;
}

export interface HttpIngestConfig {
  readonly ingestBucket: string;
  readonly maxBodyBytes: number;
}

export interface HttpIngestAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

export async function ingestHttpRequest(request: HttpIngestRequest, config: HttpIngestConfig): Promise<HttpIngestAnswer> {
  const { path, method, headers, body, now } = request;
  const source = path && !path.includes('/') ? await getSource(path) : null;
  const refusal = checkHttpRequest({ method, source, headers, body, maxBodyBytes: config.maxBodyBytes, now });
  if (refusal) {
    if (source && refusal.counted) await countSourceError(source.id, refusal.counted, refusal.message);
    console.log(`refused ${method} /${path.slice(0, 64)}: ${refusal.status} ${refusal.message}`);
    return { status: refusal.status, body: { error: refusal.error, message: refusal.message } };
  }
  await writeHttpObject(config.ingestBucket, source!.id, request.requestId, body, headers, now);
  await upgradeStoredSecret(source!, { headers, body, now });
  return { status: 200, body: { status: 'accepted', requestId: request.requestId, bytes: body.length } };
}
