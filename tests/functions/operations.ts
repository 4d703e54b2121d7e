// Every root field of the API schema, with a minimal valid request for it: the authorization tests walk
// these so that an operation added to graphql/*.graphql is covered without touching the tests.
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import {
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { APPSYNC_DEFINITIONS_FILE, loadApiSchema } from '../../infra/graphql-schema';
import { ROOT } from '../setup/global';

export interface ApiOperation {
  readonly typeName: 'Query' | 'Mutation';
  readonly fieldName: string;
  /** A request that passes GraphQL validation: every required argument with a placeholder value. */
  readonly request: { query: string; variables: Record<string, unknown> };
}

const SCALAR_PLACEHOLDERS: Record<string, unknown> = {
  String: 'authorization-check',
  ID: '00000000-0000-4000-8000-000000000000',
  Int: 1,
  Float: 1,
  Boolean: false,
  AWSDate: '2026-01-01',
  AWSTime: '00:00:00Z',
  AWSDateTime: '2026-01-01T00:00:00Z',
  AWSTimestamp: 1767225600,
  AWSEmail: 'authorization-check@example.com',
  AWSJSON: '{}',
  AWSURL: 'https://example.com/',
  AWSPhone: '+15555550100',
  AWSIPAddress: '192.0.2.1',
};

function placeholder(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return placeholder(type.ofType);
  if (isListType(type)) return [];
  if (isScalarType(type)) return SCALAR_PLACEHOLDERS[type.name] ?? 'authorization-check';
  if (isEnumType(type)) return type.getValues()[0].value;
  if (isInputObjectType(type)) {
    const value: Record<string, unknown> = {};
    for (const field of Object.values(type.getFields())) {
      if (isNonNullType(field.type) && field.defaultValue === undefined) value[field.name] = placeholder(field.type);
    }
    return value;
  }
  throw new Error(`no placeholder for ${String(type)}`);
}

function request(typeName: string, fieldName: string, args: readonly GraphQLArgument[], returnsObject: boolean) {
  const required = args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined);
  const variables = Object.fromEntries(required.map((a) => [a.name, placeholder(a.type)]));
  const declarations = required.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
  const callArgs = required.map((a) => `${a.name}: $${a.name}`).join(', ');
  const operation = typeName === 'Query' ? 'query' : 'mutation';
  const query =
    `${operation} Check${declarations ? `(${declarations})` : ''} { ${fieldName}` +
    `${callArgs ? `(${callArgs})` : ''}${returnsObject ? ' { __typename }' : ''} }`;
  return { query, variables };
}

export function apiSchema(): GraphQLSchema {
  const { definition } = loadApiSchema(join(ROOT, 'graphql'));
  return buildSchema(`${readFileSync(join(ROOT, 'graphql', APPSYNC_DEFINITIONS_FILE), 'utf8')}\n${definition}`);
}

export function apiOperations(schema = apiSchema()): ApiOperation[] {
  const operations: ApiOperation[] = [];
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    if (!root) continue;
    for (const field of Object.values(root.getFields())) {
      const named = getNamedType(field.type);
      const returnsObject = !isScalarType(named) && !isEnumType(named);
      operations.push({
        typeName: root.name as ApiOperation['typeName'],
        fieldName: field.name,
        request: request(root.name, field.name, field.args, returnsObject),
      });
    }
  }
  return operations;
}
