// Schema YAML in and out, read as YAML 1.2 (CORE_SCHEMA: on/off/yes/no and timestamps stay strings).
import yaml from 'js-yaml';
import type { SchemaSpec } from './types';
import { validateSchema, type SchemaProblem, type ValidateOptions } from './validate';

export type LoadResult = { ok: true; spec: SchemaSpec; problems: SchemaProblem[] } | { ok: false; problems: SchemaProblem[] };

/** Parses and validates schema YAML; `ok` when there is no error (warnings may remain). */
export function loadSchemaYaml(text: string, options: ValidateOptions = {}): LoadResult {
  let doc: unknown;
  try {
    doc = yaml.load(text, { schema: yaml.CORE_SCHEMA, json: false });
  } catch (err) {
    const e = err as { reason?: string; mark?: { line: number; column: number }; message: string };
    const where = e.mark ? ` (line ${e.mark.line + 1}, column ${e.mark.column + 1})` : '';
    return { ok: false, problems: [{ level: 'error', path: '', message: `Invalid YAML: ${e.reason ?? e.message}${where}` }] };
  }
  const problems = validateSchema(doc, options);
  if (problems.some((p) => p.level === 'error')) return { ok: false, problems };
  return { ok: true, spec: doc as SchemaSpec, problems };
}

export function dumpSchemaYaml(spec: SchemaSpec): string {
  return yaml.dump(spec, { schema: yaml.CORE_SCHEMA, noRefs: true, lineWidth: -1, quotingType: '"' });
}
