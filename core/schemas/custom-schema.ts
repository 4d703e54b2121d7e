// A custom schema as the product stores it: the YAML the user writes (parser, fields, udm) and, beside it,
// the name, description, reference URL and field-discovery flag of the schema form. Assembled here into
// the one SchemaSpec the parsers compile, and checked with every rule at once (form, JSON Schema, core).
import { readYaml, YamlError } from '../yaml';
import { compileSchema, SchemaCompileError } from './compile';
import { specJsonSchemaProblems } from './json-schema';
import { customSchemaNameProblem, referenceUrlProblem, specTextProblem } from './naming';
import type { SchemaSpec } from './types';
import { customSchemaName, validateSchema, type SchemaProblem } from './validate';

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

/** Reads spec YAML with the product's YAML reader (no aliases); an empty text is an empty mapping. */
export function readSpecYaml(text: string): SpecDocument {
  try {
    return { ok: true, doc: readYaml(text) ?? {} };
  } catch (err) {
    if (!(err instanceof YamlError)) throw err;
    return { ok: false, message: `Invalid YAML: ${err.reason}`, line: err.line, column: err.column };
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

export interface SchemaYamlError {
  readonly message: string;
  readonly line: number | null;
  readonly column: number | null;
}

/** Every rule of the schema form at once: what a form shows beside its fields and what the API refuses. */
export interface SchemaCheck {
  /** The form fields' own problems (the specification's messages). */
  readonly fieldErrors: { readonly name?: string; readonly referenceURL?: string; readonly spec?: string };
  /** The spec YAML does not parse. */
  readonly yamlError: SchemaYamlError | null;
  /** Problems inside the spec, errors and warnings, with their path (core's rules, then the JSON Schema's). */
  readonly problems: SchemaProblem[];
  /** The assembled spec when there is no error. */
  readonly spec: SchemaSpec | null;
}

export interface CheckOptions {
  /** Names that exist (managed and custom): a new schema's name must differ, ignoring case. */
  readonly existingNames?: Iterable<string>;
}

/** Checks a custom schema as the form holds it (name with or without the 'Custom.' prefix). */
export function checkCustomSchema(input: CustomSchemaAttributes, options: CheckOptions = {}): SchemaCheck {
  const discovery = input.isFieldDiscoveryEnabled === true;
  const fieldErrors: { name?: string; referenceURL?: string; spec?: string } = {};
  const nameProblem = customSchemaNameProblem(input.name, options.existingNames);
  if (nameProblem) fieldErrors.name = nameProblem;
  const urlProblem = referenceUrlProblem(input.referenceURL);
  if (urlProblem) fieldErrors.referenceURL = urlProblem;
  const specProblem = specTextProblem(input.spec, discovery);
  if (specProblem) fieldErrors.spec = specProblem;
  const name = typeof input.name === 'string' && input.name.trim() ? customSchemaName(input.name.trim()) : 'Custom.Unnamed';
  const read = readSpecYaml(input.spec ?? '');
  if (!read.ok) return { fieldErrors, yamlError: read, problems: [], spec: null };
  const doc = applyAttributes(read.doc, { ...input, name, referenceURL: urlProblem ? null : input.referenceURL });
  const problems = validateSchema(doc).filter((p) => p.path !== 'schema' && !(p.path === 'fields' && discovery));
  const reported = new Set(problems.map((p) => p.path));
  for (const p of specJsonSchemaProblems(doc)) {
    if (p.path === 'schema' || p.path === 'referenceURL' || reported.has(p.path)) continue;
    if ([...reported].some((r) => p.path.startsWith(`${r}.`) || p.path.startsWith(`${r}[`))) continue;
    problems.push({ level: 'error', path: p.path, message: p.message });
    reported.add(p.path);
  }
  const hasError = problems.some((p) => p.level === 'error') || Object.keys(fieldErrors).length > 0;
  if (!hasError && !(doc as SchemaSpec).parser?.script) {
    try {
      compileSchema(doc as SchemaSpec);
    } catch (err) {
      if (err instanceof SchemaCompileError) problems.push(...err.problems);
      else problems.push({ level: 'error', path: '', message: (err as Error).message });
    }
  }
  const ok = !problems.some((p) => p.level === 'error') && Object.keys(fieldErrors).length === 0;
  return { fieldErrors, yamlError: null, problems, spec: ok ? (doc as SchemaSpec) : null };
}
