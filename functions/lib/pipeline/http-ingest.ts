// An HTTP ingest request from arrival to answer: the source it names, the checks of http-request.ts, and for
// an accepted body its object in the ingest bucket (http/<sourceId>/...), written before the answer: that
// object is the durable hand-off, and the log processor takes it from there like any S3 object. Every refusal
// is counted for its source. A secret an earlier version kept as one salted SHA-256 is kept as scrypt once
// its credential verified. An accepted body is then measured (http-body.ts): inflated and its records counted,
// and refused with 413 beyond the caps of core/pipeline/limits.ts. A request to an HMAC source is accepted once:
// the same signed request again within its window is refused (REPLAYED), remembered in the entity table so that
// it holds across Lambda instances, and forgotten if its object could not be written, so a retry is accepted.
import { claimSignedRequest, getSource, releaseSignedRequest, upgradeStoredSecret } from '../log-sources';
import { checkHttpBody, DEFAULT_HTTP_BODY_LIMITS, type HttpBodyLimits } from './http-body';
import { checkHttpRequest, REPLAYED, type HttpRefusal } from './http-request';
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
  /** The caps on what the body inflates to and the records it holds (default: core/pipeline/limits.ts). */
  readonly bodyLimits?: HttpBodyLimits;
}

export interface HttpIngestAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

export async function ingestHttpRequest(request: HttpIngestRequest, config: HttpIngestConfig): Promise<HttpIngestAnswer> {
  const { path, method, headers, body, now } = request;
  const source = path && !path.includes('/') ? await getSource(path) : null;
  let refusal: HttpRefusal | null = checkHttpRequest({ method, source, headers, body, maxBodyBytes: config.maxBodyBytes, now });
  if (!refusal && source) {
    const format = { streamType: source.streamType, envelopeField: source.jsonArrayEnvelopeField };
    refusal = (await checkHttpBody(body, format, config.bodyLimits ?? DEFAULT_HTTP_BODY_LIMITS)).refusal;
    if (!refusal && !(await claimSignedRequest(source, { headers, body, now }))) refusal = REPLAYED;
  }
  if (refusal) {
    if (source && refusal.counted) await countSourceError(source.id, refusal.counted, refusal.message);
    console.log(`refused ${method} /${path.slice(0, 64)}: ${refusal.status} ${refusal.message}`);
    return { status: refusal.status, body: { error: refusal.error, message: refusal.message } };
  }
  try {
    await writeHttpObject(config.ingestBucket, source!.id, request.requestId, body, headers, now);
  } catch (error) {
    await releaseSignedRequest(source!, { headers, body, now }).catch((e: unknown) =>
      console.error(`could not forget the signed request to log source ${source!.id}`, e),
    );
    throw error;
  }
  await upgradeStoredSecret(source!, { headers, body, now });
  return { status: 200, body: { status: 'accepted', requestId: request.requestId, bytes: body.length } };
}
