import { readSpecYaml } from '../../../../core/schemas/custom-schema';
import type { FieldSpec } from '../../../../core/schemas';

/** The fields of a spec's YAML, for the tree: none while the text is not a spec (yet). */
export function fieldsOf(yamlText: string | null | undefined): FieldSpec[] {
  if (!yamlText) return [];
  const read = readSpecYaml(yamlText);
  if (!read.ok || !read.doc || typeof read.doc !== 'object') return [];
  const fields = (read.doc as { fields?: unknown }).fields;
  return Array.isArray(fields)
    ? (fields.filter((f) => f && typeof f === 'object' && typeof f.name === 'string') as FieldSpec[])
    : [];
}
