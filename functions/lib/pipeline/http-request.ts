// Whether an HTTP ingest request is accepted, and if not, the answer: 404 unknown source, 405 not a POST,
// 401 missing credentials (or an HMAC timestamp out of its window, or a signed request accepted already:
// REPLAYED, answered by http-ingest.ts), 403 wrong credentials or signature (or a disabled source), 415 a content
// type or encoding the pipeline does not read, 413 a body over the limit, 400 an empty body. Pure: the handler
// reads the source and writes the object.
import { HMAC_TIMESTAMP_HEADER } from '../../../core/log-sources/types';
import { verifyHttpAuth, type StoredLogSource } from '../log-sources';
import type { SourceErrorKind } from './pipeline-errors';

/** Largest body accepted (the function URL itself stops requests at 6 MB). */
export const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;

export const ACCEPTED_CONTENT_TYPES = ['application/json', 'application/x-ndjson', 'text/plain'] as const;
const ACCEPTED_ENCODINGS = new Set(['', 'identity', 'gzip', 'x-gzip']);

export interface HttpRefusal {
  readonly status: 400 | 401 | 403 | 404 | 405 | 413 | 415;
  readonly error: string;
  readonly message: string;
  /** The source counter this refusal adds to (none for an unknown source). */
  readonly counted?: SourceErrorKind;
}

/** A signed request (same timestamp, same body) sent again within its window, after it was accepted once. */
export const REPLAYED: HttpRefusal = {
  status: 401,
  error: 'Unauthorized',
  message: `This signed request was accepted already: sign each request anew, with the time of sending in ${HMAC_TIMESTAMP_HEADER}`,
  counted: 'httpUnauthenticated',
};

export interface HttpIngestCheck {
  readonly method: string;
  readonly source: StoredLogSource | null;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: Buffer;
  readonly maxBodyBytes: number;
  /** When the request arrived. */
  readonly now: Date;
}

export function checkHttpRequest(request: HttpIngestCheck): HttpRefusal | null {
  const { source, headers, body } = request;
  if (!source || source.transport !== 'http-ingest')
    return { status: 404, error: 'NotFound', message: 'No HTTP log source at this address' };
  if (request.method.toUpperCase() !== 'POST')
    return { status: 405, error: 'MethodNotAllowed', message: 'Send logs with POST', counted: 'httpBadRequest' };
  if (body.length > request.maxBodyBytes)
    return {
      status: 413,
      error: 'PayloadTooLarge',
      message: `The body is ${body.length} bytes, more than the limit of ${request.maxBodyBytes}`,
      counted: 'httpTooLarge',
    };
  const auth = verifyHttpAuth(source, { headers, body, now: request.now });
  if (!auth.ok)
    return {
      status: auth.status,
      error: auth.status === 401 ? 'Unauthorized' : 'Forbidden',
      message: auth.message,
      counted: auth.status === 401 ? 'httpUnauthenticated' : 'httpForbidden',
    };
  if (!source.enabled)
    return { status: 403, error: 'Forbidden', message: 'This log source is disabled', counted: 'httpForbidden' };
  const type = (headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (!(ACCEPTED_CONTENT_TYPES as readonly string[]).includes(type))
    return {
      status: 415,
      error: 'UnsupportedMediaType',
      message: `Content type ${type || '(none)'} is not accepted; send ${ACCEPTED_CONTENT_TYPES.join(', ')}`,
      counted: 'httpUnsupportedMediaType',
    };
  const encoding = (headers['content-encoding'] ?? '').trim().toLowerCase();
  if (!ACCEPTED_ENCODINGS.has(encoding))
    return {
      status: 415,
      error: 'UnsupportedMediaType',
      message: `Content encoding ${encoding} is not accepted; send the body as is or gzip`,
      counted: 'httpUnsupportedMediaType',
    };
  if (body.length === 0) return { status: 400, error: 'BadRequest', message: 'The body is empty', counted: 'httpBadRequest' };
  return null;
}
