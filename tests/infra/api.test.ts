// The GraphQL API as deployed: AppSync enforces the per-request limits of core/graphql-limits.ts (query depth
// and resolver count), the same values the local server reads from this template.
import { Template } from 'aws-cdk-lib/assertions';
import type { Stack } from 'aws-cdk-lib';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../bin/app';
import { GRAPHQL_LIMITS } from '../../core/graphql-limits';
import { LOCAL_CONFIG } from '../../infra/config';

let template: Template;

beforeAll(() => {
  const config = { ...LOCAL_CONFIG, local: false, account: '123456789012', regions: ['eu-west-1'], stage: 'prod' };
  const app = buildApp(config, { siteAssetPath: join(import.meta.dirname, 'fixtures', 'site'), bundle: false });
  template = Template.fromStack(app.node.findChild('Caracal-prod-eu-west-1') as Stack);
});

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
