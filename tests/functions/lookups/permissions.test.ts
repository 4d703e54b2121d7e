// Who may call the lookup operations: the server's permission map (core/permissions/operations.ts, enforced by
// functions/lib/auth/guard.ts) gives reads to LookupRead or LookupModify and every change to LookupModify only;
// every root field of graphql/lookups.graphql has an entry, and a resolver.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasPermissions, operationAccess, type Permission } from '../../../core/permissions';
import { lookupResolvers } from '../../../functions/api/resolvers/lookups';

function allowed(held: Permission[], type: string, field: string): boolean {
  const access = operationAccess(type, field);
  if (!access) return false;
  if ('signedIn' in access) return true;
  return 'anyOf' in access ? hasPermissions(held, access.anyOf) : hasPermissions(held, access.allOf, { all: true });
}

const schema = readFileSync(join(import.meta.dirname, '../../../graphql/lookups.graphql'), 'utf8');
const rootFields = (type: 'Query' | 'Mutation') =>
  [...(schema.match(new RegExp(`type ${type} \\{([^}]*)\\}`))?.[1] ?? '').matchAll(/^\s+(\w+)\(?/gm)].map((m) => m[1]);

describe('lookup permissions', () => {
  const queries = rootFields('Query');
  const mutations = rootFields('Mutation');

  it('every root field has a permission and a resolver', () => {
    expect(queries).toEqual(['lookupTables', 'lookupTable', 'lookupTableData', 'previewLookupUpload', 'testLookupValue']);
    expect(mutations).toEqual([
      'createLookupUpload',
      'createLookupTable',
      'updateLookupTable',
      'deleteLookupTable',
      'refreshLookupTable',
    ]);
    for (const f of queries) expect([operationAccess('Query', f), lookupResolvers[`Query.${f}`]].every(Boolean)).toBe(true);
    for (const f of mutations)
      expect([operationAccess('Mutation', f), lookupResolvers[`Mutation.${f}`]].every(Boolean)).toBe(true);
  });

  it('LookupRead reads and tests values, and changes nothing', () => {
    for (const f of ['lookupTables', 'lookupTable', 'lookupTableData', 'testLookupValue'])
      expect(allowed(['LookupRead'], 'Query', f)).toBe(true);
    expect(allowed(['LookupRead'], 'Query', 'previewLookupUpload')).toBe(false);
    for (const f of mutations) expect(allowed(['LookupRead'], 'Mutation', f)).toBe(false);
  });

  it('LookupModify does everything; other permissions nothing', () => {
    for (const f of queries) expect(allowed(['LookupModify'], 'Query', f)).toBe(true);
    for (const f of mutations) expect(allowed(['LookupModify'], 'Mutation', f)).toBe(true);
    for (const f of [...queries.map((q) => ['Query', q]), ...mutations.map((m) => ['Mutation', m])])
      expect(allowed(['LogSourceModify', 'RuleModify', 'AlertModify'], f[0], f[1])).toBe(false);
  });
});
