// HTTP ingest authentication per source: each type's header, refusals as 401 (missing, or a stale HMAC
// timestamp) or 403 (wrong), secrets kept as scrypt hashes (HMAC keys excepted), hashes of earlier versions
// still verified and upgraded, HMAC requests replayed outside their window refused, and hostile input handled.
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HMAC_TIMESTAMP_HEADER, HMAC_WINDOW_SECONDS, type HttpSourceConfig } from '../../../core/log-sources/types';
import {
  hashSecret,
  hmacSignature,
  STALE_TIMESTAMP,
  upgradedSecret,
  verifyHttpAuth,
  type HttpIngestRequest,
} from '../../../functions/lib/log-sources/http-auth';
import type { StoredHttpSecret, StoredLogSource } from '../../../functions/lib/log-sources/repository';

const source = (http: Omit<HttpSourceConfig, 'endpointUrl'>, secret?: StoredHttpSecret): StoredLogSource => ({
  id: '7f1c2a4e-1111-4222-8333-944455556666',
  transport: 'http-ingest',
  label: 'Webhook',
  logTypes: ['AWS.CloudTrail'],
  streamType: 'Auto',
  enabled: true,
  createdAt: '2026-11-21T00:00:00Z',
  createdBy: 'a',
  updatedAt: '2026-11-21T00:00:00Z',
  updatedBy: 'a',
  http: { ...http, endpointUrl: null },
  ...(secret ? { secret } : {}),
});
const body = '{"eventName":"ConsoleLogin"}';
const now = new Date('2026-11-21T10:00:00Z');
const seconds = (date: Date) => String(Math.floor(date.getTime() / 1000));
const request = (headers: Record<string, string>, change: Partial<HttpIngestRequest> = {}): HttpIngestRequest => ({
  headers,
  body,
  now,
  ...change,
});
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
/** How the versions before scrypt kept a secret. */
const legacyHash = (secret: string): StoredHttpSecret => {
  const salt = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
  return { kind: 'hash', salt, hash: createHash('sha256').update(salt).update(secret).digest('hex') };
};

describe('hashSecret', () => {
  it('keeps a salted scrypt hash with its cost, never the secret, with a new salt each time', () => {
    const a = hashSecret('s3cret-token');
    const b = hashSecret('s3cret-token');
    expect(JSON.stringify(a)).not.toContain('s3cret');
    expect(a).toMatchObject({ kind: 'scrypt', hash: expect.stringMatching(/^[0-9a-f]{64}$/), N: 16384, r: 8, p: 1 });
    expect(a.kind === 'scrypt' && b.kind === 'scrypt' && a.hash !== b.hash).toBe(true);
  });
});

describe('verifyHttpAuth', () => {
  it('None lets every request through', () => {
    expect(verifyHttpAuth(source({ authType: 'None' }), request({}))).toEqual({ ok: true });
  });

  it('Bearer checks the token against its hash', () => {
    const s = source({ authType: 'Bearer' }, hashSecret('tok-123'));
    expect(verifyHttpAuth(s, request({ Authorization: 'Bearer tok-123' }))).toEqual({ ok: true });
    expect(verifyHttpAuth(s, request({ authorization: 'bearer tok-123' }))).toEqual({ ok: true });
    expect(verifyHttpAuth(s, request({ authorization: 'Bearer tok-124' }))).toMatchObject({ ok: false, status: 403 });
    expect(verifyHttpAuth(s, request({ authorization: 'Basic dG9rLTEyMw==' }))).toMatchObject({ ok: false, status: 401 });
    expect(verifyHttpAuth(s, request({}))).toMatchObject({ ok: false, status: 401 });
  });

  it('a verified token is remembered only for the hash it matched: a new secret refuses the old token', () => {
    const first = source({ authType: 'Bearer' }, hashSecret('tok-old'));
    expect(verifyHttpAuth(first, request({ authorization: 'Bearer tok-old' }))).toEqual({ ok: true });
    const rotated = source({ authType: 'Bearer' }, hashSecret('tok-new'));
    expect(verifyHttpAuth(rotated, request({ authorization: 'Bearer tok-old' }))).toMatchObject({ status: 403 });
    expect(verifyHttpAuth(rotated, request({ authorization: 'Bearer tok-new' }))).toEqual({ ok: true });
  });

  it('Basic checks the user name and the password', () => {
    const s = source({ authType: 'Basic', username: 'ingest' }, hashSecret('pa:ss'));
    expect(verifyHttpAuth(s, request({ authorization: basic('ingest', 'pa:ss') }))).toEqual({ ok: true });
    expect(verifyHttpAuth(s, request({ authorization: basic('other', 'pa:ss') }))).toMatchObject({ status: 403 });
    expect(verifyHttpAuth(s, request({ authorization: basic('ingest', 'nope') }))).toMatchObject({ status: 403 });
    expect(verifyHttpAuth(s, request({ authorization: 'Basic %%%not-base64' }))).toMatchObject({ status: 403 });
  });

  it('SharedSecret reads its own header', () => {
    const s = source({ authType: 'SharedSecret', headerName: 'X-Caracal-Key' }, hashSecret('shh'));
    expect(verifyHttpAuth(s, request({ 'x-caracal-key': 'shh' }))).toEqual({ ok: true });
    expect(verifyHttpAuth(s, request({ 'x-caracal-key': 'shh ' }))).toMatchObject({ status: 403 });
    expect(verifyHttpAuth(s, request({ authorization: 'shh' }))).toMatchObject({ status: 401 });
  });

  it('refuses hostile and huge credentials without throwing', () => {
    const s = source({ authType: 'Bearer' }, hashSecret('tok'));
    for (const value of ['Bearer ' + 'x'.repeat(1_000_000), "Bearer ' OR 1=1 --", 'Bearer \u0000', 'Bearer']) {
      expect(verifyHttpAuth(s, request({ authorization: value })).ok).toBe(false);
    }
  });

  it('refuses a source that is not an HTTP source, or has no secret', () => {
    const s3 = { ...source({ authType: 'None' }), transport: 'aws-s3' } as unknown as StoredLogSource;
    expect(verifyHttpAuth(s3, request({}))).toMatchObject({ ok: false, status: 403 });
    expect(verifyHttpAuth(source({ authType: 'Bearer' }), request({ authorization: 'Bearer x' }))).toMatchObject({
      status: 403,
    });
  });
});

describe('HMAC', () => {
  const key = 'k'.repeat(40);
  const hmacSource = (algorithm: 'sha256' | 'sha512') =>
    source({ authType: 'HMAC', hmacAlgorithm: algorithm, signatureHeader: 'X-Signature' }, { kind: 'hmac', key });
  const signed = (algorithm: 'sha256' | 'sha512', at: Date, payload: string | Buffer = body) => ({
    [HMAC_TIMESTAMP_HEADER]: seconds(at),
    'X-Signature': createHmac(algorithm, key)
      .update(`${seconds(at)}.`)
      .update(payload)
      .digest('hex'),
  });

  it('signs the timestamp and the raw body with the kept key, bare or prefixed, for sha256 and sha512', () => {
    for (const algorithm of ['sha256', 'sha512'] as const) {
      const s = hmacSource(algorithm);
      const headers = signed(algorithm, now);
      expect(headers['X-Signature']).toBe(hmacSignature(algorithm, key, seconds(now), body));
      expect(verifyHttpAuth(s, request(headers))).toEqual({ ok: true });
      const prefixed = { ...headers, 'X-Signature': `${algorithm}=${headers['X-Signature'].toUpperCase()}` };
      expect(verifyHttpAuth(s, request(prefixed, { body: Buffer.from(body) }))).toEqual({ ok: true });
      expect(verifyHttpAuth(s, request(headers, { body: `${body} ` }))).toMatchObject({ status: 403 });
      expect(verifyHttpAuth(s, request({ ...headers, 'X-Signature': 'zz' }))).toMatchObject({ status: 403 });
      expect(verifyHttpAuth(s, request({}))).toMatchObject({ status: 401 });
    }
  });

  it('refuses a request whose timestamp was changed after signing', () => {
    const headers = signed('sha256', now);
    const moved = { ...headers, [HMAC_TIMESTAMP_HEADER]: seconds(new Date(now.getTime() + 1000)) };
    expect(verifyHttpAuth(hmacSource('sha256'), request(moved))).toMatchObject({ status: 403 });
  });

  it('refuses a request without a timestamp with 401', () => {
    const headers = signed('sha256', now);
    const unstamped = { 'X-Signature': headers['X-Signature'] };
    expect(verifyHttpAuth(hmacSource('sha256'), request(unstamped))).toEqual({
      ok: false,
      status: 401,
      message: `Missing ${HMAC_TIMESTAMP_HEADER} header`,
    });
  });

  it('accepts a request replayed within the window, and refuses the same request replayed later or signed ahead', () => {
    const s = hmacSource('sha256');
    const captured = signed('sha256', now);
    const later = (s: number) => new Date(now.getTime() + s * 1000);
    expect(verifyHttpAuth(s, request(captured, { now: later(HMAC_WINDOW_SECONDS) }))).toEqual({ ok: true });
    const replayed = verifyHttpAuth(s, request(captured, { now: later(HMAC_WINDOW_SECONDS + 1) }));
    expect(replayed).toEqual({ ok: false, status: 401, message: STALE_TIMESTAMP });
    expect(verifyHttpAuth(s, request(captured, { now: later(-HMAC_WINDOW_SECONDS - 1) }))).toMatchObject({ status: 401 });
  });

  it('refuses timestamps that are not Unix seconds', () => {
    const s = hmacSource('sha256');
    for (const timestamp of ['2026-11-21T10:00:00Z', String(now.getTime()), '-1', '1e9']) {
      const headers = {
        [HMAC_TIMESTAMP_HEADER]: timestamp,
        'X-Signature': hmacSignature('sha256', key, timestamp, body),
      };
      expect(verifyHttpAuth(s, request(headers))).toMatchObject({ status: 401, message: STALE_TIMESTAMP });
    }
  });
});

describe('secrets kept by earlier versions (one salted SHA-256)', () => {
  it('still verify, and their credential yields the scrypt form to store instead', () => {
    const s = source({ authType: 'Bearer' }, legacyHash('tok-legacy'));
    const good = request({ authorization: 'Bearer tok-legacy' });
    expect(verifyHttpAuth(s, good)).toEqual({ ok: true });
    expect(verifyHttpAuth(s, request({ authorization: 'Bearer tok-other' }))).toMatchObject({ status: 403 });
    const upgraded = upgradedSecret(s, good);
    expect(upgraded).toMatchObject({ kind: 'scrypt' });
    expect(JSON.stringify(upgraded)).not.toContain('tok-legacy');
    expect(verifyHttpAuth({ ...s, secret: upgraded }, good)).toEqual({ ok: true });
  });

  it('are not upgraded on a wrong credential, and scrypt or HMAC secrets never are', () => {
    const s = source({ authType: 'Basic', username: 'u' }, legacyHash('pw'));
    expect(upgradedSecret(s, request({ authorization: basic('u', 'wrong') }))).toBeUndefined();
    expect(upgradedSecret(s, request({ authorization: basic('other', 'pw') }))).toBeUndefined();
    expect(upgradedSecret(s, request({ authorization: basic('u', 'pw') }))).toMatchObject({ kind: 'scrypt' });
    const current = source({ authType: 'Bearer' }, hashSecret('tok'));
    expect(upgradedSecret(current, request({ authorization: 'Bearer tok' }))).toBeUndefined();
  });
});
