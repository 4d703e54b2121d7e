// The managed log types: schema YAML shipped with the product (core/schemas/managed/*.yml). The runtime reads
// each one's validated spec as JSON (managed/specs.ts, generated with the YAML's copy in managed/index.ts by
// scripts/gen-managed-schemas.ts), so they load in Node, Lambda bundles and the browser without the YAML library.
// Each is parsed on first use, so a function that needs one log type does not pay for all of them.
import { MANAGED_SCHEMA_SPECS } from './managed/specs';
import type { SchemaSpec } from './types';

const loaded = new Map<string, SchemaSpec>();

/** Names of the managed log types (each YAML file is named after its schema; a test checks it). */
export function managedSchemaNames(): string[] {
  return Object.keys(MANAGED_SCHEMA_SPECS).sort();
}

export function managedSchema(name: string): SchemaSpec | undefined {
  const cached = loaded.get(name);
  if (cached) return cached;
  const text = Object.hasOwn(MANAGED_SCHEMA_SPECS, name) ? MANAGED_SCHEMA_SPECS[name] : undefined;
  if (text === undefined) return undefined;
  const spec = JSON.parse(text) as SchemaSpec;
  loaded.set(name, spec);
  return spec;
}

export function managedSchemas(): SchemaSpec[] {
  return managedSchemaNames().map((n) => managedSchema(n)!);
}
