// Authentication of requests to an HTTP source's endpoint, and how its secret is kept.
//   Basic         Authorization: Basic base64(username:password)   password kept as an scrypt hash
//   Bearer        Authorization: Bearer <token>                     token kept as an scrypt hash
//   SharedSecret  <headerName>: <secret>                            secret kept as an scrypt hash
//   HMAC          X-Caracal-Timestamp: <Unix seconds>               key kept as is (the table is encrypted at rest)
//                 <signatureHeader>: hex HMAC of `<timestamp>.<raw body>`
// An HMAC request signed more than five minutes from now (a replay, or a clock far off) is refused, so a
// captured request cannot be sent again later; within those minutes, the ingest function remembers each
// accepted signed request by a digest (signedRequest; kept in the entity table, see repository.ts) and refuses
// the same request again. scrypt makes a stolen hash slow to guess; a verified
// credential is remembered for a few minutes (by a digest, never in clear), so a busy feed pays for scrypt
// once per function instance. Secrets stored by earlier versions as one salted SHA-256 still verify, and the
// ingest function rewrites each as scrypt the first time its credential is presented (upgradedSecret).
// Every comparison is timing-safe. Missing credentials (or a stale timestamp) answer 401, wrong ones 403.
import { createHash, createHmac, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { HMAC_TIMESTAMP_HEADER, HMAC_WINDOW_SECONDS, type HmacAlgorithm } from '../../../core/log-sources/types';
import type { StoredHttpSecret, StoredLogSource } from './repository';

export interface HttpIngestRequest {
  /** Header names in any case. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The raw body, exactly as received. */
  readonly body: Uint8Array | string;
  /** When the request arrived (HMAC timestamps are checked against it). */
  readonly now: Date;
}

export type HttpAuthResult = { readonly ok: true } | { readonly ok: false; readonly status: 401 | 403; readonly message: string };

const OK: HttpAuthResult = { ok: true };
const missing = (message: string): HttpAuthResult => ({ ok: false, status: 401, message });
const DENIED: HttpAuthResult = { ok: false, status: 403, message: 'Invalid credentials' };
export const STALE_TIMESTAMP = `The ${HMAC_TIMESTAMP_HEADER} header must be the time of the request in Unix seconds, within ${HMAC_WINDOW_SECONDS / 60} minutes`;

/** scrypt's cost: 16 MiB and about 40 ms per hash on one core. */
const SCRYPT = { N: 2 ** 14, r: 8, p: 1 } as const;
const SCRYPT_BYTES = 32;

const scryptHash = (salt: string, secret: string, cost: { N: number; r: number; p: number }) =>
  scryptSync(secret, salt, SCRYPT_BYTES, { ...cost, maxmem: 128 * cost.N * cost.r * 2 });

/** The stored form of a Basic password, Bearer token or shared secret. */
export function hashSecret(secret: string): StoredHttpSecret {
  const salt = randomBytes(16).toString('hex');
  return { kind: 'scrypt', salt, hash: scryptHash(salt, secret, SCRYPT).toString('hex'), ...SCRYPT };
}

const sha256 = (...parts: string[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part, 'utf8').update('\u0000');
  return hash.digest();
};

function sameText(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}

/** Credentials verified lately, by a digest of the stored hash and the credential, with when they lapse. */
const verified = new Map<string, number>();
const REMEMBER_MS = 5 * 60_000;
const REMEMBER_MAX = 1000;

function matchesHash(secret: StoredHttpSecret | undefined, presented: string, now: Date): boolean {
  if (!secret || secret.kind === 'hmac') return false;
  const key = sha256(secret.kind, secret.salt, secret.hash, presented).toString('hex');
  const until = verified.get(key);
  if (until !== undefined && until > now.getTime()) return true;
  const expected = Buffer.from(secret.hash, 'hex');
  const computed =
    secret.kind === 'scrypt'
      ? scryptHash(secret.salt, presented, secret)
      : createHash('sha256').update(secret.salt, 'utf8').update(presented, 'utf8').digest();
  if (computed.length !== expected.length || !timingSafeEqual(computed, expected)) return false;
  verified.delete(key);
  verified.set(key, now.getTime() + REMEMBER_MS);
  if (verified.size > REMEMBER_MAX) verified.delete(verified.keys().next().value!);
  return true;
}

function header(request: Pick<HttpIngestRequest, 'headers'>, name: string): string | undefined {
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

/** The hex HMAC a sender puts in the signature header: of the timestamp, a dot, and the raw body. */
export function hmacSignature(algorithm: HmacAlgorithm, key: string, timestamp: string, body: Uint8Array | string): string {
  return createHmac(algorithm, key)
    .update(`${timestamp}.`, 'utf8')
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest('hex');
}

/** Whether a timestamp header names a moment within the window around `now`. */
function fresh(timestamp: string, now: Date): boolean {
  if (!/^\d{1,12}$/.test(timestamp)) return false;
  return Math.abs(Number(timestamp) - now.getTime() / 1000) <= HMAC_WINDOW_SECONDS;
}

function verifyHmac(source: StoredLogSource & { transport: 'http-ingest' }, request: HttpIngestRequest): HttpAuthResult {
  const { http, secret } = source;
  const presented = http.signatureHeader ? header(request, http.signatureHeader) : undefined;
  if (!presented) return missing(`Missing ${http.signatureHeader ?? 'signature'} header`);
  const timestamp = header(request, HMAC_TIMESTAMP_HEADER)?.trim();
  if (!timestamp) return missing(`Missing ${HMAC_TIMESTAMP_HEADER} header`);
  if (!secret || secret.kind !== 'hmac' || !http.hmacAlgorithm) return DENIED;
  const hex = presented.includes('=') ? presented.slice(presented.indexOf('=') + 1) : presented;
  const expected = Buffer.from(hmacSignature(http.hmacAlgorithm, secret.key, timestamp, request.body), 'hex');
  const given = Buffer.from(hex.trim().toLowerCase(), 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return DENIED;
  return fresh(timestamp, request.now) ? OK : missing(STALE_TIMESTAMP);
}

/** An accepted HMAC request as the ingest function remembers it: a digest, never the signature itself. */
export interface SignedRequest {
  /** SHA-256 (hex) of the source id, the timestamp and the signature. */
  readonly digest: string;
  /** The last Unix second at which the request's timestamp is fresh: a replay after it is refused as stale. */
  readonly freshUntil: number;
}

/**
 * The digest naming a request to an HMAC source whose signature verifies and whose timestamp is fresh, so that
 * the same request can be refused when it comes again within its window; undefined for every other source or
 * request. Two requests of the same body signed at different seconds are different requests.
 */
export function signedRequest(source: StoredLogSource, request: HttpIngestRequest): SignedRequest | undefined {
  if (source.transport !== 'http-ingest' || source.http.authType !== 'HMAC') return undefined;
  if (!verifyHmac(source, request).ok || source.secret?.kind !== 'hmac' || !source.http.hmacAlgorithm) return undefined;
  const timestamp = header(request, HMAC_TIMESTAMP_HEADER)!.trim();
  const signature = hmacSignature(source.http.hmacAlgorithm, source.secret.key, timestamp, request.body);
  return {
    digest: sha256(source.id, timestamp, signature).toString('hex'),
    freshUntil: Number(timestamp) + HMAC_WINDOW_SECONDS,
  };
}

/** The credential a request presents for a source whose secret is hashed, and whether its user name is right. */
function presentedCredential(
  source: StoredLogSource & { transport: 'http-ingest' },
  request: HttpIngestRequest,
): { readonly credential: string; readonly userOk: boolean } | HttpAuthResult {
  const { http } = source;
  switch (http.authType) {
    case 'Basic': {
      const encoded = authorization(request, 'Basic');
      if (!encoded) return missing('Missing Basic credentials');
      const decoded = Buffer.from(encoded, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0) return DENIED;
      return { credential: decoded.slice(colon + 1), userOk: sameText(decoded.slice(0, colon), http.username ?? '') };
    }
    case 'Bearer': {
      const token = authorization(request, 'Bearer');
      return token ? { credential: token, userOk: true } : missing('Missing Bearer token');
    }
    default: {
      const presented = http.headerName ? header(request, http.headerName) : undefined;
      return presented
        ? { credential: presented, userOk: true }
        : missing(`Missing ${http.headerName ?? 'shared secret'} header`);
    }
  }
}

/** Whether a request may post to the source's endpoint. Sources of other transports are refused. */
export function verifyHttpAuth(source: StoredLogSource, request: HttpIngestRequest): HttpAuthResult {
  if (source.transport !== 'http-ingest') return DENIED;
  if (source.http.authType === 'None') return OK;
  if (source.http.authType === 'HMAC') return verifyHmac(source, request);
  const presented = presentedCredential(source, request);
  if ('ok' in presented) return presented;
  const secretOk = matchesHash(source.secret, presented.credential, request.now);
  return presented.userOk && secretOk ? OK : DENIED;
}

/**
 * The scrypt form of a secret an earlier version kept as one salted SHA-256, for a request that verified
 * with it (undefined for every other source or request).
 */
export function upgradedSecret(source: StoredLogSource, request: HttpIngestRequest): StoredHttpSecret | undefined {
  if (source.transport !== 'http-ingest' || source.secret?.kind !== 'hash') return undefined;
  if (!verifyHttpAuth(source, request).ok) return undefined;
  const presented = presentedCredential(source, request);
  return 'ok' in presented ? undefined : hashSecret(presented.credential);
}
