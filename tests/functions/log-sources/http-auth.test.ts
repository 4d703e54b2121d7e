// HTTP ingest authentication per source: each type's header, refusals as 401 (missing) or 403 (wrong), the
// secrets kept as salted hashes (HMAC keys excepted), and hostile input handled.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { HttpSourceConfig } from '../../../core/log-sources/types';
import { hashSecret, verifyHttpAuth } from '../../../functions/lib/log-sources/http-auth';
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
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('hashSecret', () => {
  it('keeps a salted SHA-256 hash, never the secret, with a new salt each time', () => {
    const a = hashSecret('s3cret');
    const b = hashSecret('s3cret');
    expect(JSON.stringify(a)).not.toContain('s3cret');
    expect(a).toMatchObject({ kind: 'hash', hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(a.kind === 'hash' && b.kind === 'hash' && a.hash !== b.hash).toBe(true);
  });
});

describe('verifyHttpAuth', () => {
  it('None lets every request through', () => {
    expect(verifyHttpAuth(source({ authType: 'None' }), { headers: {}, body })).toEqual({ ok: true });
  });

  it('Bearer checks the token against its hash', () => {
    const s = source({ authType: 'Bearer' }, hashSecret('tok-123'));
    expect(verifyHttpAuth(s, { headers: { Authorization: 'Bearer tok-123' }, body })).toEqual({ ok: true });
    expect(verifyHttpAuth(s, { headers: { authorization: 'bearer tok-123' }, body })).toEqual({ ok: true });
    expect(verifyHttpAuth(s, { headers: { authorization: 'Bearer tok-124' }, body })).toMatchObject({ ok: false, status: 403 });
    expect(verifyHttpAuth(s, { headers: { authorization: 'Basic dG9rLTEyMw==' }, body })).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(verifyHttpAuth(s, { headers: {}, body })).toMatchObject({ ok: false, status: 401 });
  });

  it('Basic checks the user name and the password', () => {
    const s = source({ authType: 'Basic', username: 'ingest' }, hashSecret('pa:ss'));
    expect(verifyHttpAuth(s, { headers: { authorization: basic('ingest', 'pa:ss') }, body })).toEqual({ ok: true });
    expect(verifyHttpAuth(s, { headers: { authorization: basic('other', 'pa:ss') }, body })).toMatchObject({ status: 403 });
    expect(verifyHttpAuth(s, { headers: { authorization: basic('ingest', 'nope') }, body })).toMatchObject({ status: 403 });
    expect(verifyHttpAuth(s, { headers: { authorization: 'Basic %%%not-base64' }, body })).toMatchObject({ status: 403 });
  });

  it('SharedSecret reads its own header', () => {
    const s = source({ authType: 'SharedSecret', headerName: 'X-Caracal-Key' }, hashSecret('shh'));
    expect(verifyHttpAuth(s, { headers: { 'x-caracal-key': 'shh' }, body })).toEqual({ ok: true });
    expect(verifyHttpAuth(s, { headers: { 'x-caracal-key': 'shh ' }, body })).toMatchObject({ status: 403 });
    expect(verifyHttpAuth(s, { headers: { authorization: 'shh' }, body })).toMatchObject({ status: 401 });
  });

  it('HMAC signs the raw body with the kept key, bare or prefixed, for sha256 and sha512', () => {
    for (const algorithm of ['sha256', 'sha512'] as const) {
      const s = source(
        { authType: 'HMAC', hmacAlgorithm: algorithm, signatureHeader: 'X-Signature' },
        { kind: 'hmac', key: 'k3y' },
      );
      const signature = createHmac(algorithm, 'k3y').update(body).digest('hex');
      expect(verifyHttpAuth(s, { headers: { 'X-Signature': signature }, body })).toEqual({ ok: true });
      expect(
        verifyHttpAuth(s, { headers: { 'x-signature': `${algorithm}=${signature.toUpperCase()}` }, body: Buffer.from(body) }),
      ).toEqual({ ok: true });
      expect(verifyHttpAuth(s, { headers: { 'x-signature': signature }, body: `${body} ` })).toMatchObject({ status: 403 });
      expect(verifyHttpAuth(s, { headers: { 'x-signature': 'zz' }, body })).toMatchObject({ status: 403 });
      expect(verifyHttpAuth(s, { headers: {}, body })).toMatchObject({ status: 401 });
    }
  });

  it('refuses hostile and huge credentials without throwing', () => {
    const s = source({ authType: 'Bearer' }, hashSecret('tok'));
    for (const value of ['Bearer ' + 'x'.repeat(1_000_000), "Bearer ' OR 1=1 --", 'Bearer \u0000', 'Bearer']) {
      expect(verifyHttpAuth(s, { headers: { authorization: value }, body }).ok).toBe(false);
    }
  });

  it('refuses a source that is not an HTTP source, or has no secret', () => {
    const s3 = { ...source({ authType: 'None' }), transport: 'aws-s3' } as unknown as StoredLogSource;
    expect(verifyHttpAuth(s3, { headers: {}, body })).toMatchObject({ ok: false, status: 403 });
    expect(verifyHttpAuth(source({ authType: 'Bearer' }), { headers: { authorization: 'Bearer x' }, body })).toMatchObject({
      status: 403,
    });
  });
});
