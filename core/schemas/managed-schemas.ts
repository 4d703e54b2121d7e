// The managed log types: schema YAML shipped with the product (core/schemas/managed/*.yml, embedded in
// managed/index.ts by scripts/gen-managed-schemas.ts so they load in Node, Lambda bundles and the browser).
// Each is read on first use, so a function that needs one log type does not pay for all of them.
import { MANAGED_SCHEMA_YAML } from './managed/index';
import type { SchemaSpec } from './types';
import { loadSchemaYaml } from './yaml';

const loaded = new Map<string, SchemaSpec>();

/** Names of the managed log types (each YAML file is named after its schema; a test checks it). */
export function managedSchemaNames(): string[] {
  return Object.keys(MANAGED_SCHEMA_YAML).sort();
}

export function managedSchema(name: string): SchemaSpec | undefined {
  const cached = loaded.get(name);
  if (cached) return cached;
  const text = Object.hasOwn(MANAGED_SCHEMA_YAML, name) ? MANAGED_SCHEMA_YAML[name] : undefined;
  if (text === undefined) return undefined;
  const result = loadSchemaYaml(text, { aliases: true });
  if (!result.ok) {
    throw new Error(`managed schema ${name} is invalid: ${result.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
  }
  loaded.set(name, result.spec);
  return result.spec;
}

export function managedSchemas(): SchemaSpec[] {
  return managedSchemaNames().map((n) => managedSchema(n)!);
}
