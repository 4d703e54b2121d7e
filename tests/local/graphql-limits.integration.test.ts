// The local runtime enforces the API's per-request limits as its template declares them (the AppSync
// GraphQLApi's QueryDepthLimit and ResolverCountLimit), before the api function runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRAPHQL_LIMITS } from '../../core/graphql-limits';
import { resourcesOfType } from '../../local/template';
import { graphql, signIn, startTestRuntime, type TestRuntime } from './harness';

let runtime: TestRuntime;
let idToken: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  const [admin] = runtime.createdUsers;
  ({ idToken } = await signIn(runtime, admin.username, admin.temporaryPassword, 'Correct-Horse-42-Battery'));
});
afterAll(() => runtime?.stop());

describe('GraphQL request limits', () => {
  it('reads the limits from the template', () => {
    const [[, api]] = resourcesOfType(runtime.stack, 'AWS::AppSync::GraphQLApi');
    expect(api.Properties).toMatchObject({
      QueryDepthLimit: GRAPHQL_LIMITS.queryDepth,
      ResolverCountLimit: GRAPHQL_LIMITS.resolverCount,
    });
  });

  it('refuses a request of 4,000 aliases with a clear error, and serves the next request', async () => {
    const query = `{ ${Array.from({ length: 4000 }, (_, i) => `a${i}: me { id }`).join(' ')} }`;
    const refused = await graphql(runtime, { query }, idToken);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      data: null,
      errors: [
        {
          path: null,
          locations: null,
          message: `Validation error: The request runs 4000 resolvers; the limit is ${GRAPHQL_LIMITS.resolverCount}.`,
        },
      ],
    });
    const served = await graphql(runtime, { query: '{ me { id email } }' }, idToken);
    expect(served.status).toBe(200);
    expect(served.body.data?.me).toMatchObject({ email: 'admin@caracal.local' });
  });

  it('refuses a query nested past the depth limit (measured before the fields are checked)', async () => {
    const depth = GRAPHQL_LIMITS.queryDepth + 1;
    const query = `{ me { ${'role { '.repeat(depth - 2)}name${' }'.repeat(depth - 2)} } }`;
    const { status, body } = await graphql(runtime, { query }, idToken);
    expect(status).toBe(400);
    expect(body.errors?.[0].message).toBe(
      `Validation error: The query is nested ${depth} levels deep; the limit is ${GRAPHQL_LIMITS.queryDepth}.`,
    );
  });
});
