import { buildSchema } from 'graphql';
import type { ApiOperation } from './api/api';

/** Every root field (Query and Mutation) of the schema: each gets a Direct Lambda resolver. */
export function listOperations(appsyncDefinitions: string, schemaDefinition: string): ApiOperation[] {
  const schema = buildSchema(`${appsyncDefinitions}\n${schemaDefinition}`);
  const operations: ApiOperation[] = [];
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    if (!root) continue;
    for (const fieldName of Object.keys(root.getFields())) {
      operations.push({ typeName: root.name as ApiOperation['typeName'], fieldName });
    }
  }
  return operations;
}
