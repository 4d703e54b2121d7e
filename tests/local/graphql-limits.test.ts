// AppSync's per-request limits in the local GraphQL server: a request nested deeper than the query depth
// limit, or running more resolvers than the resolver count limit (aliases, fragments), is refused before any
// resolver runs; requests within them run as before.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GRAPHQL_LIMITS } from '../../core/graphql-limits';
import type { UserPoolVerifier } from '../../local/graphql/auth';
import { createGraphqlHandler } from '../../local/graphql/server';

const appsync = readFileSync(join(import.meta.dirname, '..', '..', 'graphql', 'appsync.graphql'), 'utf8');
const schema = `${appsync}
type Query { node(id: ID): Node, other: Node }
type Mutation { touch: Node }
type Node { id: ID, child: Node }`;

let invocations = 0;
const verifier = { verify: async () => ({ claims: { sub: 'u-1', iss: 'http://issuer/pool' } }) } as unknown as UserPoolVerifier;
let server: Server;
let url: string;

beforeAll(async () => {
  const handler = createGraphqlHandler({
    definition: schema,
    resolvers: [
      { typeName: 'Query', fieldName: 'node', functionName: 'fn' },
      { typeName: 'Query', fieldName: 'other', functionName: 'fn' },
      { typeName: 'Mutation', fieldName: 'touch', functionName: 'fn' },
    ],
    verifier,
    invoke: async () => {
      invocations++;
      return { ok: true, result: { id: 'n-1', child: { id: 'n-2', child: null } } };
    },
    limits: GRAPHQL_LIMITS,
  });
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  invocations = 0;
});

async function post(query: string) {
  const res = await fetch(url, { method: 'POST', headers: { authorization: 'x' }, body: JSON.stringify({ query }) });
  return { status: res.status, body: (await res.json()) as { data: unknown; errors?: { message: string }[] } };
}

const nested = (levels: number) => `{ node { ${'child { '.repeat(levels - 2)}id${' }'.repeat(levels - 2)} } }`;
const aliases = (count: number, field = 'node') =>
  `{ ${Array.from({ length: count }, (_, i) => `a${i}: ${field} { id }`).join(' ')} }`;

describe('resolver count limit', () => {
  it('refuses 4,000 aliases of one root field without invoking anything', async () => {
    const query = aliases(4000);
    expect(query.length).toBeGreaterThan(50_000);
    const { status, body } = await post(query);
    expect(status).toBe(400);
    expect(body.data).toBeNull();
    expect(body.errors).toEqual([
      {
        path: null,
        locations: null,
        message: `Validation error: The request runs 4000 resolvers; the limit is ${GRAPHQL_LIMITS.resolverCount}.`,
      },
    ]);
    expect(invocations).toBe(0);
  });

  it('counts root fields reached through fragments, inline fragments and mutations', async () => {
    const limit = GRAPHQL_LIMITS.resolverCount;
    const spread = `fragment F on Query { ${Array.from({ length: limit }, (_, i) => `f${i}: node { id }`).join(' ')} }`;
    expect((await post(`{ ...F } ${spread}`)).status).toBe(200);
    expect((await post(`{ ...F ... on Query { extra: other { id } } } ${spread}`)).body.errors?.[0].message).toMatch(
      `runs ${limit + 1} resolvers`,
    );
    const touches = `mutation { ${Array.from({ length: limit + 1 }, (_, i) => `t${i}: touch { id }`).join(' ')} }`;
    expect((await post(touches)).status).toBe(400);
    expect(invocations).toBe(limit);
  });

  it('measures fragments spread inside each other once, however often they are spread', async () => {
    const levels = Array.from({ length: 30 }, (_, i) => `fragment L${i} on Query { ...L${i + 1} ...L${i + 1} }`).join(' ');
    const { status, body } = await post(`{ ...L0 } ${levels} fragment L30 on Query { node { id } }`);
    expect(status).toBe(400);
    expect(body.errors?.[0].message).toMatch(/runs \d+ resolvers/);
    expect(invocations).toBe(0);
  });

  it('runs a request at the limit', async () => {
    const { status, body } = await post(aliases(GRAPHQL_LIMITS.resolverCount));
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(invocations).toBe(GRAPHQL_LIMITS.resolverCount);
  });
});

describe('query depth limit', () => {
  it('runs a query nested to the limit and refuses one level more', async () => {
    const depth = GRAPHQL_LIMITS.queryDepth;
    expect((await post(nested(depth))).status).toBe(200);
    expect(invocations).toBe(1);
    const { status, body } = await post(nested(depth + 1));
    expect(status).toBe(400);
    expect(body.errors?.[0].message).toBe(
      `Validation error: The query is nested ${depth + 1} levels deep; the limit is ${depth}.`,
    );
    expect(invocations).toBe(1);
  });

  it('counts the levels a fragment adds where it is spread', async () => {
    const depth = GRAPHQL_LIMITS.queryDepth;
    const fragment = `fragment Deep on Node { ${'child { '.repeat(depth - 2)}id${' }'.repeat(depth - 2)} }`;
    const { status } = await post(`{ node { child { ...Deep } } } ${fragment}`);
    expect(status).toBe(400);
    expect(invocations).toBe(0);
  });
});
