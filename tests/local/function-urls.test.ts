// Lambda function URLs on the runtime's front origin: paths from the template, the 2.0 event shape, the
// answer shapes and AWS's request size limit.
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  functionUrlEvent,
  functionUrls,
  httpAnswer,
  isTextBody,
  serveFunctionUrl,
  urlFor,
  type FunctionUrl,
  type FunctionUrlEvent,
} from '../../local/events/function-urls';
import type { InvokeResult } from '../../local/lambda/functions';
import { listen, closeServer } from '../../local/services/net';
import { Resolver, type StackTemplate } from '../../local/template';

const stack: StackTemplate = {
  stackName: 'S',
  account: '000000000000',
  region: 'us-east-1',
  assemblyDir: '',
  resources: {
    IngestFnUrl1: {
      Type: 'AWS::Lambda::Url',
      Properties: { AuthType: 'NONE', TargetFunctionArn: { 'Fn::GetAtt': ['IngestFn', 'Arn'] } },
      Metadata: { 'caracal:localPath': 'ingest' },
    },
    OtherUrl2: { Type: 'AWS::Lambda::Url', Properties: { AuthType: 'NONE', TargetFunctionArn: { 'Fn::GetAtt': 'OtherFn.Arn' } } },
    Consumer: {
      Type: 'AWS::Lambda::Function',
      Properties: { Environment: { Variables: { URL: { 'Fn::GetAtt': ['IngestFnUrl1', 'FunctionUrl'] } } } },
    },
  },
};

describe('function URLs from the template', () => {
  it('get their declared local path or /lambda-url/<id>/, and resolve Fn::GetAtt FunctionUrl', () => {
    const resolver = new Resolver(stack);
    const urls = functionUrls(stack, resolver, 'http://localhost:4000');
    expect(urls).toEqual([
      { logicalId: 'IngestFnUrl1', path: '/ingest/', url: 'http://localhost:4000/ingest/', targetLogicalId: 'IngestFn' },
      {
        logicalId: 'OtherUrl2',
        path: '/lambda-url/OtherUrl2/',
        url: 'http://localhost:4000/lambda-url/OtherUrl2/',
        targetLogicalId: 'OtherFn',
      },
    ]);
    expect(resolver.resolve({ 'Fn::GetAtt': ['IngestFnUrl1', 'FunctionUrl'] })).toBe('http://localhost:4000/ingest/');
    expect(urlFor(urls, '/ingest/abc')?.logicalId).toBe('IngestFnUrl1');
    expect(urlFor(urls, '/ingest')?.logicalId).toBe('IngestFnUrl1');
    expect(urlFor(urls, '/ingestion')).toBeUndefined();
  });
});

describe('the event and the answer', () => {
  it('passes text bodies as text and binary or encoded bodies as base64', () => {
    expect(isTextBody({ 'content-type': 'application/json; charset=utf-8' })).toBe(true);
    expect(isTextBody({ 'content-type': 'application/x-ndjson' })).toBe(true);
    expect(isTextBody({ 'content-type': 'text/plain' })).toBe(true);
    expect(isTextBody({ 'content-type': 'application/octet-stream' })).toBe(false);
    expect(isTextBody({ 'content-type': 'application/json', 'content-encoding': 'gzip' })).toBe(false);
  });

  it('answers a statusCode result as given, any other value as a JSON 200, and a failure as a 502', () => {
    expect(
      httpAnswer({ ok: true, result: { statusCode: 413, headers: { 'Content-Type': 'application/json' }, body: '{"a":1}' } }),
    ).toMatchObject({
      statusCode: 413,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{"a":1}'),
    });
    expect(
      httpAnswer({
        ok: true,
        result: { statusCode: 200, body: Buffer.from('hi').toString('base64'), isBase64Encoded: true },
      }).body.toString(),
    ).toBe('hi');
    expect(httpAnswer({ ok: true, result: { hello: 'world' } })).toMatchObject({
      statusCode: 200,
      body: Buffer.from('{"hello":"world"}'),
    });
    expect(httpAnswer({ ok: false, error: { errorType: 'Error', errorMessage: 'boom' } }).statusCode).toBe(502);
  });
});

describe('serving', () => {
  let server: Server | undefined;
  afterEach(async () => server && (await closeServer(server)));

  async function serve(maxBytes: number) {
    const fnUrl: FunctionUrl = { logicalId: 'U', path: '/ingest/', url: '', targetLogicalId: 'F' };
    const seen: FunctionUrlEvent[] = [];
    const invoke = async (_name: string, event: unknown): Promise<InvokeResult> => {
      seen.push(event as FunctionUrlEvent);
      return { ok: true, result: { statusCode: 202, headers: { 'x-seen': 'yes' }, body: 'ok' } };
    };
    server = createServer((req, res) => void serveFunctionUrl(fnUrl, 'F', req, res, invoke, maxBytes));
    return { base: await listen(server), seen };
  }

  it('invokes the function with the 2.0 payload: rawPath below the prefix, lower-case headers, query, method', async () => {
    const { base, seen } = await serve(1024);
    const response = await fetch(`${base}/ingest/source-1?a=1&a=2`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Token': 't' },
      body: '{"x":1}',
    });
    expect(response.status).toBe(202);
    expect(response.headers.get('x-seen')).toBe('yes');
    expect(await response.text()).toBe('ok');
    expect(seen[0]).toMatchObject({
      version: '2.0',
      rawPath: '/source-1',
      rawQueryString: 'a=1&a=2',
      queryStringParameters: { a: '1,2' },
      headers: { 'content-type': 'application/json', 'x-token': 't' },
      requestContext: { http: { method: 'POST', path: '/source-1' } },
      body: '{"x":1}',
      isBase64Encoded: false,
    });
  });

  it('passes a gzip body as base64, bytes intact', async () => {
    const { base, seen } = await serve(1024);
    const bytes = Buffer.from([0x1f, 0x8b, 0, 255, 10]);
    await fetch(`${base}/ingest/s`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: bytes,
    });
    expect(seen[0].isBase64Encoded).toBe(true);
    expect(Buffer.from(seen[0].body!, 'base64')).toEqual(bytes);
  });

  it('refuses a request over the limit with 413, without invoking the function', async () => {
    const { base, seen } = await serve(1024);
    const response = await fetch(`${base}/ingest/s`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x'.repeat(2048),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: 'Request Entity Too Large' });
    expect(seen).toHaveLength(0);
  });
});

describe('functionUrlEvent', () => {
  it('keeps cookies apart from the headers', () => {
    const req = {
      url: '/ingest/x',
      method: 'GET',
      httpVersion: '1.1',
      headers: { cookie: 'a=1; b=2', host: 'localhost:1' },
      socket: {},
    };
    const event = functionUrlEvent(
      { logicalId: 'U', path: '/ingest/', url: '', targetLogicalId: 'F' },
      req as never,
      Buffer.alloc(0),
    );
    expect(event.cookies).toEqual(['a=1', 'b=2']);
    expect(event.headers.cookie).toBeUndefined();
    expect(event.body).toBeUndefined();
  });
});
