// A custom schema as the product stores it: the YAML the user writes (parser, fields, udm) and, beside it,
// the name, description, reference URL and field-discovery flag of the schema form. Assembled here into
// the one SchemaSpec the parsers compile, and checked with every rule at once (form, JSON Schema, core).
import yaml from 'js-yaml';
import type { SchemaSpec } from './types';

/** The form's attributes that the assembled spec takes over any the YAML sets. */
export interface CustomSchemaAttributes {
  readonly name: string;
  readonly description?: string | null;
  readonly referenceURL?: string | null;
  readonly spec: string;
  readonly isFieldDiscoveryEnabled?: boolean;
}

export type SpecDocument =
  { ok: true; doc: unknown } | { ok: false; message: string; line: number | null; column: number | null };

/** Reads spec YAML as YAML 1.2 (on/off/yes/no and timestamps stay strings); an empty text is an empty mapping. */
export function readSpecYaml(text: string): SpecDocument {
  try {
    const doc = yaml.load(text, { schema: yaml.CORE_SCHEMA, json: false });
    return { ok: true, doc: doc ?? {} };
  } catch (err) {
    const e = err as { reason?: string; mark?: { line: number; column: number }; message: string };
    return {
      ok: false,
      message: `Invalid YAML: ${e.reason ?? e.message}`,
      line: e.mark ? e.mark.line + 1 : null,
      column: e.mark ? e.mark.column + 1 : null,
    };
  }
}

/** The YAML document with the form's attributes applied over it (the YAML may not be a mapping: kept as is). */
export function applyAttributes(doc: unknown, attrs: CustomSchemaAttributes): unknown {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return doc;
  const out: Record<string, unknown> = { ...(doc as Record<string, unknown>), schema: attrs.name };
  delete out.description;
  delete out.referenceURL;
  delete out.isFieldDiscoveryEnabled;
  if (attrs.description) out.description = attrs.description;
  if (attrs.referenceURL) out.referenceURL = attrs.referenceURL;
  if (attrs.isFieldDiscoveryEnabled) out.isFieldDiscoveryEnabled = true;
  if (out.fields === undefined || out.fields === null) out.fields = [];
  return out;
}

/** The SchemaSpec of a stored (already validated) custom schema. */
export function assembleSchemaSpec(attrs: CustomSchemaAttributes): SchemaSpec {
  const read = readSpecYaml(attrs.spec);
  if (!read.ok) throw new Error(`schema ${attrs.name}: ${read.message}`);
  return applyAttributes(read.doc, attrs) as SchemaSpec;
}
