// The managed log types: schema YAML shipped with the product (core/schemas/managed/*.yml, embedded in
// managed/index.ts by scripts/gen-managed-schemas.ts so they load in Node, Lambda bundles and the browser).
import { MANAGED_SCHEMA_YAML } from './managed/index';
import type { SchemaSpec } from './types';
import { loadSchemaYaml } from './yaml';

let cache: Map<string, SchemaSpec> | undefined;

function load(): Map<string, SchemaSpec> {
  if (cache) return cache;
  const specs = new Map<string, SchemaSpec>();
  for (const [name, text] of Object.entries(MANAGED_SCHEMA_YAML)) {
    const result = loadSchemaYaml(text);
    if (!result.ok)
      throw new Error(`managed schema ${name} is invalid: ${result.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
    specs.set(result.spec.schema, result.spec);
  }
  cache = specs;
  return specs;
}

export function managedSchemaNames(): string[] {
  return [...load().keys()].sort();
}

export function managedSchemas(): SchemaSpec[] {
  return managedSchemaNames().map((n) => load().get(n)!);
}

export function managedSchema(name: string): SchemaSpec | undefined {
  return load().get(name);
}
