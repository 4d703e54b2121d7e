// The GraphQL API as deployed: AppSync enforces the per-request limits of core/graphql-limits.ts (query depth
// and resolver count), the same values the local server reads from this template; and the Api construct
// alone, serving the schema and operations it is given.
import * as logs from 'aws-cdk-lib/aws-logs';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { GRAPHQL_LIMITS } from '../../core/graphql-limits';
import { Api } from '../../infra/api/api';
import { allows, bareStack, functionNamed, nagErrors, synthesizedStack, variables } from './support';

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

describe('the Api construct on a bare stack', () => {
  it('serves each operation it is given through the api function, with no unsuppressed cdk-nag finding', () => {
    const { stack, fakes } = bareStack('ApiTest', { nag: true });
    const schemaDefinition = 'type Query {\n  me: String\n}\n\ntype Mutation {\n  ping: String\n}\n';
    new Api(stack, 'Api', {
      schemaDefinition,
      operations: [
        { typeName: 'Query', fieldName: 'me' },
        { typeName: 'Mutation', fieldName: 'ping' },
      ],
      userPool: fakes.userPool(),
      settingsTable: fakes.table('Settings'),
      entityTable: fakes.table('Entities'),
      environment: { STAGE: 'test' },
      logRetention: logs.RetentionDays.ONE_MONTH,
    });
    const bare = Template.fromStack(stack);
    bare.hasResourceProperties('AWS::AppSync::GraphQLSchema', { Definition: schemaDefinition });
    const fields = Object.values(bare.findResources('AWS::AppSync::Resolver')).map(
      (r) => `${r.Properties.TypeName}.${r.Properties.FieldName}`,
    );
    expect(fields.sort()).toEqual(['Mutation.ping', 'Query.me']);
    const [id, fn] = functionNamed(bare, 'ApiApiFunction');
    expect(variables(fn)).toMatchObject({
      STAGE: 'test',
      SETTINGS_TABLE: expect.anything(),
      ENTITY_TABLE: expect.anything(),
      USER_POOL_ID: expect.anything(),
    });
    expect(allows(bare, id, 'cognito-idp:AdminCreateUser')).toBe(true);
    expect(nagErrors(stack)).toEqual([]);
  });
});
