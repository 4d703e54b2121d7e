// The permission map covers the API exactly: every root field of graphql/*.graphql has an entry in
// core/permissions/operations.ts and a registered resolver, and the map names no operation the schema lacks.
import { validate, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { OPERATION_ACCESS, isPermission } from '../../core/permissions';
import { resolvers } from '../../functions/api/resolvers';
import { apiOperations, apiSchema } from './operations';

const schema = apiSchema();
const operations = apiOperations(schema);

describe('the permission map', () => {
  it.each(operations.map((op) => [`${op.typeName}.${op.fieldName}`]))('has an entry for %s', (key) => {
    expect(OPERATION_ACCESS[key], `add '${key}' to core/permissions/operations.ts`).toBeDefined();
  });

  it.each(operations.map((op) => [`${op.typeName}.${op.fieldName}`]))('has a resolver for %s', (key) => {
    expect(resolvers[key], `register a resolver for '${key}' in functions/api/resolvers/index.ts`).toBeTypeOf('function');
  });

  it('names only operations the schema declares', () => {
    const declared = new Set(operations.map((op) => `${op.typeName}.${op.fieldName}`));
    expect(Object.keys(OPERATION_ACCESS).filter((key) => !declared.has(key))).toEqual([]);
  });

  it('names only known permissions, and never an empty list', () => {
    for (const [key, access] of Object.entries(OPERATION_ACCESS)) {
      if ('signedIn' in access) continue;
      const list = 'anyOf' in access ? access.anyOf : access.allOf;
      expect(list.length, key).toBeGreaterThan(0);
      for (const permission of list) expect(isPermission(permission), `${key}: ${permission}`).toBe(true);
    }
  });

  it('walks requests that are valid GraphQL for every operation', () => {
    for (const op of operations) expect(validate(schema, parse(op.request.query)), op.request.query).toEqual([]);
  });
});
