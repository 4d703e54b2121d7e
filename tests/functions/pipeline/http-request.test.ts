// Which HTTP ingest requests are accepted, and the answer to each refused one.
import { describe, expect, it } from 'vitest';
import { hashSecret } from '../../../functions/lib/log-sources/http-auth';
import type { StoredLogSource } from '../../../functions/lib/log-sources/repository';
import { checkHttpRequest, type HttpIngestCheck } from '../../../functions/lib/pipeline/http-request';
import { handOffKey, handOffSource } from '../../../functions/lib/pipeline/handoff-objects';

const source = {
  id: '11111111-2222-4333-8444-555555555555',
  label: 'hook',
  transport: 'http-ingest',
  logTypes: ['GitHub.Audit'],
  streamType: 'Auto',
  enabled: true,
  createdAt: '',
  createdBy: '',
  updatedAt: '',
  updatedBy: '',
  http: { authType: 'Bearer', endpointUrl: null },
  secret: hashSecret('token-1'),
} as StoredLogSource;

const ok: HttpIngestCheck = {
  method: 'POST',
  source,
  headers: { authorization: 'Bearer token-1', 'content-type': 'application/json; charset=utf-8' },
  body: Buffer.from('{"a":1}'),
  maxBodyBytes: 100,
  now: new Date('2026-11-21T10:00:00Z'),
};
const check = (change: Partial<HttpIngestCheck>) => checkHttpRequest({ ...ok, ...change });

describe('checkHttpRequest', () => {
  it('accepts a POST with good credentials, an accepted content type and a body within the limit', () => {
    expect(check({})).toBeNull();
    for (const type of ['application/json', 'application/x-ndjson', 'text/plain'])
      expect(check({ headers: { ...ok.headers, 'content-type': type } })).toBeNull();
    expect(check({ headers: { ...ok.headers, 'content-encoding': 'gzip' } })).toBeNull();
  });

  it('answers 404 for no source or a source of another transport, without counting', () => {
    expect(check({ source: null })).toEqual({ status: 404, error: 'NotFound', message: 'No HTTP log source at this address' });
    expect(check({ source: { ...source, transport: 'aws-sqs' } as unknown as StoredLogSource })?.status).toBe(404);
  });

  it('answers 401 without credentials and 403 with wrong ones or a disabled source, counted', () => {
    expect(check({ headers: { 'content-type': 'application/json' } })).toMatchObject({
      status: 401,
      counted: 'httpUnauthenticated',
    });
    expect(check({ headers: { ...ok.headers, authorization: 'Bearer nope' } })).toMatchObject({
      status: 403,
      counted: 'httpForbidden',
    });
    expect(check({ source: { ...source, enabled: false } as StoredLogSource })).toMatchObject({
      status: 403,
      message: 'This log source is disabled',
    });
  });

  it('answers 415 for other content types or encodings, 413 over the limit, 400 empty, 405 not a POST', () => {
    expect(check({ headers: { ...ok.headers, 'content-type': 'application/xml' } })).toMatchObject({
      status: 415,
      message: 'Content type application/xml is not accepted; send application/json, application/x-ndjson, text/plain',
    });
    expect(check({ headers: { authorization: 'Bearer token-1' } })).toMatchObject({ status: 415, message: /\(none\)/ });
    expect(check({ headers: { ...ok.headers, 'content-encoding': 'br' } })).toMatchObject({
      status: 415,
      counted: 'httpUnsupportedMediaType',
    });
    expect(check({ body: Buffer.alloc(101) })).toMatchObject({
      status: 413,
      message: 'The body is 101 bytes, more than the limit of 100',
      counted: 'httpTooLarge',
    });
    expect(check({ body: Buffer.alloc(0) })).toMatchObject({ status: 400, message: 'The body is empty' });
    expect(check({ method: 'GET' })).toMatchObject({ status: 405 });
  });
});

describe('hand-off objects', () => {
  it('name their transport and source in the key, and only keys of that shape name one', () => {
    const key = handOffKey('http', source.id, 'req-1', new Date('2026-11-21T09:05:00Z'));
    expect(key).toBe(`http/${source.id}/2026/11/21/09/req-1`);
    expect(handOffSource(key)).toEqual({ transport: 'http', sourceId: source.id });
    expect(handOffSource(handOffKey('sqs', source.id, 'm-1', new Date()))).toEqual({ transport: 'sqs', sourceId: source.id });
    expect(handOffSource(`cloudtrail/${source.id}/x`)).toBeUndefined();
    expect(handOffSource('http/not-a-uuid/x')).toBeUndefined();
  });
});
