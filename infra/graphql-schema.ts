import { mergeTypeDefs } from '@graphql-tools/merge';
import { buildSchema, parse, print } from 'graphql';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiOperation } from './api/api';

/** AppSync's own scalars and directives: AppSync declares them, so the deployed schema must not. */
export const APPSYNC_DEFINITIONS_FILE = 'appsync.graphql';

export interface ApiSchema {
  /** Every area's types merged into one SDL text (AppSync takes one schema). */
  readonly definition: string;
  /** Every root field (Query and Mutation): each gets a Direct Lambda resolver. */
  readonly operations: ApiOperation[];
}

/**
 * The API contract is one file per product area in `graphql/` (`schema.graphql` holds the shared types);
 * each area declares its own `type Query` and `type Mutation` fields, and they are merged here.
 */
export function loadApiSchema(graphqlDir: string): ApiSchema {
  const files = readdirSync(graphqlDir)
    .filter((name) => name.endsWith('.graphql') && name !== APPSYNC_DEFINITIONS_FILE)
    .sort();
  const documents = files.map((name) => parse(readFileSync(join(graphqlDir, name), 'utf8')));
  const definition = print(mergeTypeDefs(documents, { sort: true }));
  const appsyncDefinitions = readFileSync(join(graphqlDir, APPSYNC_DEFINITIONS_FILE), 'utf8');
  return { definition, operations: listOperations(`${appsyncDefinitions}\n${definition}`) };
}

function listOperations(fullDefinition: string): ApiOperation[] {
  const schema = buildSchema(fullDefinition);
  const operations: ApiOperation[] = [];
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    if (!root) continue;
    for (const fieldName of Object.keys(root.getFields())) {
      operations.push({ typeName: root.name as ApiOperation['typeName'], fieldName });
    }
  }
  return operations;
}
