// Authentication of requests to an HTTP source's endpoint, and how its secret is kept.
//   Basic         Authorization: Basic base64(username:password)   password kept as a salted SHA-256 hash
//   Bearer        Authorization: Bearer <token>                     token kept as a salted SHA-256 hash
//   SharedSecret  <headerName>: <secret>                            secret kept as a salted SHA-256 hash
//   HMAC          <signatureHeader>: hex HMAC of the raw body       key kept as is (the table is encrypted at rest)
// Every comparison is timing-safe. Missing credentials answer 401, wrong ones 403.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { HmacAlgorithm } from '../../../core/log-sources/types';
import type { StoredHttpSecret, StoredLogSource } from './repository';

export interface HttpIngestRequest {
  /** Header names in any case. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The raw body, exactly as received. */
  readonly body: Uint8Array | string;
}

export type HttpAuthResult = { readonly ok: true } | { readonly ok: false; readonly status: 401 | 403; readonly message: string };

const OK: HttpAuthResult = { ok: true };
const missing = (message: string): HttpAuthResult => ({ ok: false, status: 401, message });
const DENIED: HttpAuthResult = { ok: false, status: 403, message: 'Invalid credentials' };

const saltedHash = (salt: string, secret: string) =>
  createHash('sha256').update(salt, 'utf8').update(secret, 'utf8').digest('hex');

/** The stored form of a Basic password, Bearer token or shared secret. */
export function hashSecret(secret: string): StoredHttpSecret {
  const salt = randomBytes(16).toString('hex');
  return { kind: 'hash', salt, hash: saltedHash(salt, secret) };
}

function sameText(a: string, b: string): boolean {
  const left = createHash('sha256').update(a, 'utf8').digest();
  const right = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(left, right);
}

function matchesHash(secret: StoredHttpSecret | undefined, presented: string): boolean {
  if (!secret || secret.kind !== 'hash') return false;
  return timingSafeEqual(Buffer.from(saltedHash(secret.salt, presented), 'hex'), Buffer.from(secret.hash, 'hex'));
}

function header(request: HttpIngestRequest, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(request.headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

function authorization(request: HttpIngestRequest, scheme: string): string | undefined {
  const value = header(request, 'authorization');
  if (!value) return undefined;
  const space = value.indexOf(' ');
  if (space < 0 || value.slice(0, space).toLowerCase() !== scheme.toLowerCase()) return undefined;
  return value.slice(space + 1).trim();
}

/** The hex HMAC of a body; the signature header may carry it bare or as `<algorithm>=<hex>`. */
export function hmacSignature(algorithm: HmacAlgorithm, key: string, body: Uint8Array | string): string {
  return createHmac(algorithm, key)
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest('hex');
}

/** Whether a request may post to the source's endpoint. Sources of other transports are refused. */
export function verifyHttpAuth(source: StoredLogSource, request: HttpIngestRequest): HttpAuthResult {
  if (source.transport !== 'http-ingest') return DENIED;
  const { http, secret } = source;
  switch (http.authType) {
    case 'None':
      return OK;
    case 'Basic': {
      const encoded = authorization(request, 'Basic');
      if (!encoded) return missing('Missing Basic credentials');
      const decoded = Buffer.from(encoded, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0) return DENIED;
      const userOk = sameText(decoded.slice(0, colon), http.username ?? '');
      const passwordOk = matchesHash(secret, decoded.slice(colon + 1));
      return userOk && passwordOk ? OK : DENIED;
    }
    case 'Bearer': {
      const token = authorization(request, 'Bearer');
      if (!token) return missing('Missing Bearer token');
      return matchesHash(secret, token) ? OK : DENIED;
    }
    case 'SharedSecret': {
      const presented = http.headerName ? header(request, http.headerName) : undefined;
      if (!presented) return missing(`Missing ${http.headerName ?? 'shared secret'} header`);
      return matchesHash(secret, presented) ? OK : DENIED;
    }
    case 'HMAC': {
      const presented = http.signatureHeader ? header(request, http.signatureHeader) : undefined;
      if (!presented) return missing(`Missing ${http.signatureHeader ?? 'signature'} header`);
      if (!secret || secret.kind !== 'hmac' || !http.hmacAlgorithm) return DENIED;
      const hex = presented.includes('=') ? presented.slice(presented.indexOf('=') + 1) : presented;
      const expected = Buffer.from(hmacSignature(http.hmacAlgorithm, secret.key, request.body), 'hex');
      const given = Buffer.from(hex.trim().toLowerCase(), 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected) ? OK : DENIED;
    }
  }
}
