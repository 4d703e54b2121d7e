// AppSync semantics of the GraphQL adapter on a fixture schema: scalar validation, the Direct Lambda
// resolver event, and error shapes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AuthError, type UserPoolVerifier } from '../../local/graphql/auth';
import { createGraphqlHandler } from '../../local/graphql/server';
import type { InvokeResult } from '../../local/lambda/functions';

const appsync = readFileSync(join(import.meta.dirname, '..', '..', 'graphql', 'appsync.graphql'), 'utf8');
const schema = `${appsync}
type Query { echo(email: AWSEmail, at: AWSDateTime, url: AWSURL, ip: AWSIPAddress, json: AWSJSON, ts: AWSTimestamp, day: AWSDate, phone: AWSPhone): Echo, answered: Echo }
type Echo { args: AWSJSON, when: AWSDateTime }`;

const events: unknown[] = [];
let answer: InvokeResult = { ok: true, result: null };
const verifier = {
  verify: async (header?: string) => {
    if (header !== 'good') throw new AuthError('Valid authorization header not provided.');
    return { claims: { sub: 'u-1', iss: 'http://issuer/pool', 'cognito:username': 'u-1', 'cognito:groups': ['Admin'] } };
  },
} as unknown as UserPoolVerifier;
let server: Server;
let url: string;

beforeAll(async () => {
  const handler = createGraphqlHandler({
    definition: schema,
    resolvers: [
      { typeName: 'Query', fieldName: 'echo', functionName: 'fn' },
      { typeName: 'Query', fieldName: 'answered', functionName: 'fn', answers: true },
    ],
    verifier,
    invoke: async (_name, event) => {
      events.push(event);
      return answer;
    },
  });
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function post(query: string, variables?: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: 'good', 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as { data: any; errors: any[] } }; // eslint-disable-line @typescript-eslint/no-explicit-any -- assertions read arbitrary response shapes
}

describe('AWS scalars', () => {
  it.each([
    ['email', 'AWSEmail', 'analyst@example.com', 'not an email'],
    ['at', 'AWSDateTime', '2026-11-21T10:00:00.000Z', '2026-11-21 10:00'],
    ['url', 'AWSURL', 'https://example.com/x?y=1', 'example.com'],
    ['ip', 'AWSIPAddress', '10.0.0.0/8', '999.1.1.1'],
    ['ts', 'AWSTimestamp', 1763719200, '1763719200'],
    ['day', 'AWSDate', '2026-11-21', '2026-13-01'],
    ['phone', 'AWSPhone', '+1 555 0100', 'call me'],
  ])('%s accepts a valid %s and refuses an invalid one before any resolver runs', async (name, type, good, bad) => {
    answer = { ok: true, result: { args: {}, when: null } };
    const query = `query($v: ${type}) { echo(${name}: $v) { when } }`;
    events.length = 0;
    expect((await post(query, { v: good })).status).toBe(200);
    expect(events).toHaveLength(1);
    events.length = 0;
    const refused = await post(query, { v: bad });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].message).toMatch(/\$v/);
    expect(events).toHaveLength(0);
  });

  it('refuses an invalid scalar literal as a validation error', async () => {
    const { status, body } = await post('{ echo(email: "nope") { when } }');
    expect(status).toBe(400);
    expect(body.errors[0].message).toMatch(/^Validation error: .*AWSEmail/);
  });

  it('parses AWSJSON arguments for the resolver and serialises AWSJSON results', async () => {
    answer = { ok: true, result: { args: { a: [1, 2] }, when: '2026-11-21T10:00:00Z' } };
    const { body } = await post('query($j: AWSJSON) { echo(json: $j) { args when } }', { j: '{"k":"v"}' });
    expect(body.data.echo).toEqual({ args: '{"a":[1,2]}', when: '2026-11-21T10:00:00Z' });
    expect((events.at(-1) as { arguments: unknown }).arguments).toEqual({ json: { k: 'v' } });
  });

  it('refuses a resolver result that is not a valid AWS scalar', async () => {
    answer = { ok: true, result: { args: null, when: 'yesterday' } };
    const { status, body } = await post('{ echo { when } }');
    expect(status).toBe(200);
    expect(body.data.echo).toEqual({ when: null });
    expect(body.errors[0]).toMatchObject({ path: ['echo', 'when'] });
  });
});

describe('Direct Lambda resolvers', () => {
  it('receive the AppSync event shape', async () => {
    answer = { ok: true, result: { args: null, when: null } };
    await post('query Q($e: AWSEmail) { echo(email: $e) { when args } }', { e: 'a@b.co' });
    expect(events.at(-1)).toMatchObject({
      arguments: { email: 'a@b.co' },
      identity: { sub: 'u-1', username: 'u-1', groups: ['Admin'], issuer: 'http://issuer/pool', defaultAuthStrategy: 'ALLOW' },
      source: null,
      prev: null,
      info: { fieldName: 'echo', parentTypeName: 'Query', variables: { e: 'a@b.co' }, selectionSetList: ['when', 'args'] },
      stash: {},
    });
  });

  it("turn a function's error into an AppSync error with its type, and a crash into Lambda:Unhandled", async () => {
    answer = { ok: false, error: { errorType: 'NotFound', errorMessage: 'No such thing' } };
    const typed = await post('{ echo { when } }');
    expect(typed.body).toEqual({
      data: { echo: null },
      errors: [
        {
          path: ['echo'],
          data: null,
          errorType: 'NotFound',
          errorInfo: null,
          locations: [{ line: 1, column: 3, sourceName: null }],
          message: 'No such thing',
        },
      ],
    });
    answer = { ok: false, error: { errorType: 'Sandbox.Timedout', errorMessage: 'Task timed out after 30.00 seconds' } };
    const crashed = await post('{ echo { when } }');
    expect(crashed.body.errors[0]).toMatchObject({
      errorType: 'Lambda:Unhandled',
      message: 'Task timed out after 30.00 seconds',
    });
  });

  it("with the api's response template answer { data } as the value and { error } as a typed error with its field errors", async () => {
    answer = { ok: true, result: { data: { args: null, when: '2026-11-21T10:00:00Z' } } };
    expect((await post('{ answered { when } }')).body).toEqual({ data: { answered: { when: '2026-11-21T10:00:00Z' } } });
    const fieldErrors = [
      { path: 'label', message: 'Must be unique' },
      { path: 's3Prefixes[1].prefix', message: 'Required' },
    ];
    answer = {
      ok: true,
      result: {
        error: { type: 'InvalidInput', message: 'label: Must be unique; s3Prefixes[1].prefix: Required', info: { fieldErrors } },
      },
    };
    const refused = await post('{ answered { when } }');
    expect(refused.body.data).toEqual({ answered: null });
    expect(refused.body.errors[0]).toMatchObject({
      errorType: 'InvalidInput',
      message: 'label: Must be unique; s3Prefixes[1].prefix: Required',
      errorInfo: { fieldErrors },
      path: ['answered'],
    });
    answer = { ok: false, error: { errorType: 'Sandbox.Timedout', errorMessage: 'Task timed out after 30.00 seconds' } };
    expect((await post('{ answered { when } }')).body.errors[0]).toMatchObject({ errorType: 'Lambda:Unhandled' });
  });

  it('answer GET with 405 and no token with 401', async () => {
    expect((await fetch(url)).status).toBe(405);
    const res = await fetch(url, { method: 'POST', body: '{}' });
    expect(res.status).toBe(401);
  });
});
