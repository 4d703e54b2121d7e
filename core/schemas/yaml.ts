// Schema YAML in and out, read with the product's YAML reader (YAML 1.2 core schema, no aliases except in the
// managed schemas).
import yaml from 'js-yaml';
import { readYaml, YamlError, type ReadYamlOptions } from '../yaml';
import type { SchemaSpec } from './types';
import { validateSchema, type SchemaProblem, type ValidateOptions } from './validate';

export type LoadResult = { ok: true; spec: SchemaSpec; problems: SchemaProblem[] } | { ok: false; problems: SchemaProblem[] };

/** Parses and validates schema YAML; `ok` when there is no error (warnings may remain). */
export function loadSchemaYaml(text: string, options: ValidateOptions & ReadYamlOptions = {}): LoadResult {
  const { aliases, ...validation } = options;
  let doc: unknown;
  try {
    doc = readYaml(text, { aliases });
  } catch (err) {
    if (!(err instanceof YamlError)) throw err;
    return { ok: false, problems: [{ level: 'error', path: '', message: `Invalid YAML: ${err.message}` }] };
  }
  const problems = validateSchema(doc, validation);
  if (problems.some((p) => p.level === 'error')) return { ok: false, problems };
  return { ok: true, spec: doc as SchemaSpec, problems };
}

export function dumpSchemaYaml(spec: SchemaSpec): string {
  return yaml.dump(spec, { schema: yaml.CORE_SCHEMA, noRefs: true, lineWidth: -1, quotingType: '"' });
}
