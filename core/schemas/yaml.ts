// Schema YAML in and out, read with the product's YAML reader (YAML 1.2 core schema, no aliases except in the
// managed schemas).
import { Schema, stringify } from 'yaml';
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

// Written as YAML 1.2 (core schema) that a YAML 1.1 reader reads the same: a string that reader would take for
// another type (on, off, yes, no, y, n, 1_000, 12:30) is quoted; timestamps stay plain, as they always were here.
const YAML_11_LOOKALIKES = new Schema({ schema: 'yaml-1.1' }).tags.filter((tag) => tag.tag !== 'tag:yaml.org,2002:timestamp');

export function dumpSchemaYaml(spec: SchemaSpec): string {
  return stringify(spec, {
    schema: 'core',
    compat: YAML_11_LOOKALIKES,
    aliasDuplicateObjects: false,
    lineWidth: 0,
    singleQuote: false,
  });
}
