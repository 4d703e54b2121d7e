// The GraphQL API as deployed: AppSync enforces the per-request limits of core/graphql-limits.ts (query depth
// and resolver count), the same values the local server reads from this template.
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { GRAPHQL_LIMITS } from '../../core/graphql-limits';
import { synthesizedStack } from './support';

let template: Template;

beforeAll(() => ({ template } = synthesizedStack()));

describe('GraphQL API limits', () => {
  it('caps the query depth and the resolvers one request runs', () => {
    const apis = template.findResources('AWS::AppSync::GraphQLApi');
    expect(Object.values(apis).map((api) => api.Properties)).toEqual([
      expect.objectContaining({
        QueryDepthLimit: GRAPHQL_LIMITS.queryDepth,
        ResolverCountLimit: GRAPHQL_LIMITS.resolverCount,
      }),
    ]);
    expect(GRAPHQL_LIMITS.resolverCount).toBeLessThan(100);
  });
});
